"""The web UI (Streamlit): `bunseki ui` serves `app.py`; pages live in `app_pages/`.

The UI is an interface layer: it draws what `bunseki.service.AnalysisService` returns and
sends it what the person does, and holds no analysis logic of its own.
"""

from pathlib import Path

APP = Path(__file__).resolve().parent / "app.py"

__all__ = ["APP"]
