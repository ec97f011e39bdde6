"""The pages of the web UI, one script each (Streamlit runs them; they only call into bunseki.ui)."""
