"""The knowledge chat page."""

from bunseki.ui.knowledge import show

show()
