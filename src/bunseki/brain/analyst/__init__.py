"""The analyst's brain: decide the next action, write code, write the report."""
