"""The analysis chat page (seed 000)."""

from bunseki.ui.analysis import show

show()
