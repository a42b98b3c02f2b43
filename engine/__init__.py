"""Generic riichi mechanics (tiles, hands, waits, scoring, rounds) driven by a compiled rulebook."""

# Importing the engine registers its notation error with the shared tile parser (`ruledsl.tiles`), so that bad
# notation met anywhere below the engine is an `EngineError` its handlers catch, whatever module is imported first.
import engine.core.tiles as _tiles  # noqa: F401
