"""The knowledge chat's brain: the next step of the search loop, and the Reflection on the draft."""
