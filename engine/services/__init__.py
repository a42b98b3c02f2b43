"""The services layer: what the front ends (``engine.cli``, ``engine.web``, ``engine.lsp``) share.

A front end reads its input (arguments, an HTTP request, an editor's message) and writes its output; the steps in
between that two of them take live here, so that no front end imports another and each can change alone. The
package itself imports nothing: ``riichi score --json`` loads only the module it needs (start-up time is mostly
imports).
"""
