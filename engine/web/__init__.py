"""``riichi serve``: web pages for organisers and players, and an HTTP API for programs in other languages.

An optional part (``pip install '.[web]'``): nothing outside this package imports it, so the core install never
imports FastAPI. ``engine.web.app.create_app`` builds the application; ``engine.cli.serve`` runs it.
"""
