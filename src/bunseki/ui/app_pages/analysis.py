"""The analysis chat page."""

from bunseki.ui.analysis import show

show()
