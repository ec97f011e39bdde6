"""The investigator's brain: hypotheses to verify by execution, and words for what it found."""
