"""A unified diff applied to one file: drifted hunks and lost trailing spaces tolerated, nothing else."""

from __future__ import annotations

import pytest

from bunseki.investigation.patches import PatchError, apply_unified_diff

SOURCE = "import numpy as np\n\n\ndef f(x):  \n    y = x * 2\n    return y\n"


def test_a_hunk_applies_where_its_context_is_even_off_its_stated_line() -> None:
    diff = "--- a/f.py\n+++ b/f.py\n@@ -1,3 +1,4 @@\n def f(x):\n-    y = x * 2\n+    y = abs(x) * 2\n+    y = y + 1\n"
    diff += "     return y\n"
    patched = apply_unified_diff(SOURCE, diff)  # stated at line 1, found at line 4; "f(x):  " lost its spaces
    assert patched == "import numpy as np\n\n\ndef f(x):  \n    y = abs(x) * 2\n    y = y + 1\n    return y\n"


@pytest.mark.parametrize(
    ("diff", "said"),
    [
        ("just some words\n", "no hunk"),
        ("@@ -5,1 +5,1 @@\n-    y = x * 3\n+    y = x * 4\n", "hunk 1 does not match"),
        ("@@ -5,1 +5,1 @@\n-    y = x * 2\n*    y = x * 4\n", "not context, removal or addition"),
    ],
)
def test_a_patch_that_does_not_apply_is_refused_naming_why(diff: str, said: str) -> None:
    with pytest.raises(PatchError, match=said):
        apply_unified_diff(SOURCE, diff)
