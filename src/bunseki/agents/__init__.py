"""LangGraph agents: each package holds state, nodes, routing, prompts and a ``build`` factory."""
