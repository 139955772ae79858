"""AI agents at the table: ``unomas mcp``, an MCP server on the official ``mcp`` SDK.

:mod:`~unomas.agents.tables` seats an agent at a local match against bots or at a room of
``unomas serve``; :mod:`~unomas.agents.server` is the MCP server (the words of its views are
:mod:`unomas.i18n.view_words`). Needs the ``mcp`` extra.
"""
