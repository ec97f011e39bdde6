"""Bunseki (分析): conversational data analysis whose every number comes from executed code."""
