"""Uploaded data files (CSV, TSV, Excel, Parquet) read into DataFrames, Japanese encodings included."""

from bunseki.data.encoding import detect_encoding
from bunseki.data.load import SUPPORTED_SUFFIXES, LoadedTable, load_table

__all__ = ["SUPPORTED_SUFFIXES", "LoadedTable", "detect_encoding", "load_table"]
