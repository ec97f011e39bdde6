"""The EDA page."""

from bunseki.ui.eda import show

show()
