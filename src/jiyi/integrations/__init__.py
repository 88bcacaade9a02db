"""Edges toward agent frameworks: each module adapts jiyi to one framework's interface.

- ``mcp.py``: jiyi as a Model Context Protocol server (``jiyi mcp``), on the official SDK;
- ``langgraph.py``: :class:`~jiyi.integrations.langgraph.JiyiStore`, a LangGraph ``BaseStore``;
- ``langchain.py``: a LangChain retriever and ``remember`` / ``recall`` tools;
- ``descriptions.py``: the tool descriptions (Chinese and English) MCP and LangChain share.

Each imports its framework only when it is imported itself, so ``import jiyi`` never
needs them; a missing one is a :class:`~jiyi.errors.MissingDependencyError` naming the
extra to install.
"""
