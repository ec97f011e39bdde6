"""The EDA page (seed 003)."""

from bunseki.ui.eda import show

show()
