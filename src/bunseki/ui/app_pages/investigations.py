"""The investigator page (seed 002)."""

from bunseki.ui.investigations import show

show()
