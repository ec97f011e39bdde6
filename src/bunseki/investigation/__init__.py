"""Building blocks of the time-series issue investigator (seed 002): the case, diagnostics, AST edits."""
