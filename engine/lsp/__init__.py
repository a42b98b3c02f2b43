"""``riichi lsp``: a Language Server Protocol server for ``.rulebook`` files, over stdio.

The server is a small hand-written JSON-RPC loop (``protocol``, ``server``) rather than a framework: it needs
nothing beyond the package itself, so every install of ``riichi`` can serve an editor. Each feature keeps its own
module and reads the same code as the command line: diagnostics are ``riichi check``'s, hovers ``riichi explain``'s.
"""
