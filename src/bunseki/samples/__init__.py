"""Sample data bundled with Bunseki, for the demo and the tests."""

from pathlib import Path

SAMPLES_DIR = Path(__file__).resolve().parent
SALES_CSV = SAMPLES_DIR / "sales_cp932.csv"
