"""The investigator page."""

from bunseki.ui.investigations import show

show()
