"""Generic riichi mechanics (tiles, hands, waits, scoring, rounds) driven by a compiled rulebook."""
