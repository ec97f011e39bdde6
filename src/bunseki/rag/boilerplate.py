"""Text that every page of a documentation set carries and that answers nothing.

A copyright line, a licence's terms, a version or build stamp, a "last updated" footer: they are
read out of every document before it is chunked, so that no search finds them and no answer
quotes them. What a document says about its subject's licence in its own words stays (only the
standard notices go).
"""

from __future__ import annotations

import re
from typing import Final

_NOTICE: Final = re.compile(
    r"^\s*(?:copyright\b|©|\(c\)\s*(?:19|20)\d\d|著作権\s*[(（©]|all rights reserved)"
    r"|all rights reserved|無断(?:転載|複製)を禁"
    r"|permission is granted to (?:copy|make|distribute)|permission to use, copy, modify"
    r"|this (?:program|document|manual|page|file) is free software|this is free software[:;,]"
    r"|without any warranty|provided \"as is\"|is distributed in the hope that it will be useful"
    r"|\blicensed under the (?:apache|gnu|mit|creative commons)|\blicense gplv\d|ライセンス\s*gplv\d"
    r"|^\s*(?:last (?:updated|modified|changed|built)|generated (?:by|on)|created using sphinx|built with sphinx"
    r"|page (?:generated|last edited)|最終更新|更新日\s*[:：]|作成日\s*[:：]"
    r"|このページは.{0,20}(?:生成|作成)されました)",
    re.IGNORECASE,
)
# A stamp alone: "Version 2.100 (2023-05-01)", "Revision 1.2", "バージョン 3.0", "2021年5月"
_STAMP: Final = re.compile(
    r"^\s*(?:(?:version|revision|rev\.?|release|バージョン|版)\s*[:：]?\s*v?\d[\w.\-]*\s*"
    r"(?:[(（]?\s*\d{4}[-/年.]\d{1,2}(?:[-/月.]\d{1,2}日?)?\s*[)）]?)?|\d{4}年\d{1,2}月(?:\d{1,2}日)?)\s*$",
    re.IGNORECASE,
)
_MAX_NOTICE_CHARS: Final = 600  # a longer block only mentions a licence on its way to something else


def is_boilerplate(block: str) -> bool:
    """Whether ``block`` is a notice, a licence's terms or a stamp, not content."""
    text = " ".join(block.split())
    if _STAMP.match(text):
        return True
    return len(text) <= _MAX_NOTICE_CHARS and _NOTICE.search(text) is not None
