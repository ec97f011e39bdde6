"""Building blocks of the time-series issue investigator: the case, diagnostics, AST edits."""
