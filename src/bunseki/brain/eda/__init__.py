"""The EDA pipeline's brain: plan, write each step's code, read its findings, write the report."""
