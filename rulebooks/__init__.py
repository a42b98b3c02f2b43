"""The bundled rulebooks, shipped as package data (``*.rulebook``); which one answers when none is named."""

DEFAULT_RULEBOOK = "house"
