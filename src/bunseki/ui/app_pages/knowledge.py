"""The knowledge chat page (seed 004)."""

from bunseki.ui.knowledge import show

show()
