"""The service layer: what the CLI, the API and the UI ask Bunseki to do."""

from bunseki.service.cells import run_cell

__all__ = ["run_cell"]
