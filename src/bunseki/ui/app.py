"""The web UI's entry script, run by Streamlit (`bunseki ui`): the language switch and the pages.

Systems add their pages to `PAGES`; each page is a script in `app_pages/`.
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

from bunseki.domain import LANGUAGES
from bunseki.ui import context
from bunseki.ui.texts import LANGUAGE_NAMES

PAGE_DIR = Path(__file__).resolve().parent / "app_pages"


def main() -> None:
    st.set_page_config(page_title="Bunseki", page_icon=":material/analytics:", layout="wide")
    texts = context.texts()  # before the switch is drawn: sets the browser's language as its value
    st.sidebar.radio(
        texts("language"), LANGUAGES, format_func=LANGUAGE_NAMES.__getitem__, key=context.KEY_LANGUAGE, horizontal=True
    )
    pages = [
        st.Page(
            PAGE_DIR / "analysis.py",
            title=texts("page_analysis"),
            icon=":material/forum:",
            url_path="analysis",
            default=True,
        ),
        st.Page(PAGE_DIR / "eda.py", title=texts("page_eda"), icon=":material/query_stats:", url_path="eda"),
        st.Page(
            PAGE_DIR / "investigations.py",
            title=texts("page_investigations"),
            icon=":material/troubleshoot:",
            url_path="investigations",
        ),
        st.Page(
            PAGE_DIR / "knowledge.py",
            title=texts("page_knowledge"),
            icon=":material/menu_book:",
            url_path="knowledge",
        ),
    ]
    st.navigation(pages).run()


if __name__ == "__main__":
    main()
