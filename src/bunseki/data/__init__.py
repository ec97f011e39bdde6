"""Uploaded data files (CSV, TSV, Excel, Parquet) read into DataFrames, Japanese encodings included."""

from bunseki.data.encoding import detect_encoding
from bunseki.data.load import SUPPORTED_SUFFIXES, LoadedTable, load_table
from bunseki.data.profile import TableProfile, profile_table
from bunseki.data.validate import DataProblem, ValidatedTable, validate_data

__all__ = [
    "SUPPORTED_SUFFIXES",
    "DataProblem",
    "LoadedTable",
    "TableProfile",
    "ValidatedTable",
    "detect_encoding",
    "load_table",
    "profile_table",
    "validate_data",
]
