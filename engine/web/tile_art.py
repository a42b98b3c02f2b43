"""Tile pictures, drawn here as SVG from shapes alone: circles, bamboo sticks, numerals, letters and frames.

Drawn by the project (no third-party artwork, no font needed beyond a system sans-serif for numerals and
letters), so the pages work offline and carry no licence question. Winds show their letter (E S W N); the
dragons are a blue frame (white), a green F (green, "fa") and a red box crossed by a bar (red, the shape of
its character). Red fives are drawn in red with a dot in a corner.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ruledsl.caches import lru

WIDTH, HEIGHT = 60, 80
BLUE, GREEN, RED, INK = "#1f5fa8", "#24803a", "#c8312b", "#1b1b1b"
TILE = re.compile(r"^([0-9])([mps])$|^([1-7])z$")

# Circles of the pin tiles: (x, y, radius, colour) per number.
_B, _G, _R = BLUE, GREEN, RED
PIN: dict[int, Sequence[tuple[float, float, float, str]]] = {
    1: [(30, 40, 17, _R)],
    2: [(30, 24, 10, _G), (30, 56, 10, _B)],
    3: [(16, 19, 8, _B), (30, 40, 8, _R), (44, 61, 8, _G)],
    4: [(18, 24, 9, _B), (42, 24, 9, _G), (18, 56, 9, _G), (42, 56, 9, _B)],
    5: [(17, 20, 8, _B), (43, 20, 8, _G), (30, 40, 8, _R), (17, 60, 8, _G), (43, 60, 8, _B)],
    6: [(19, 17, 8, _G), (41, 17, 8, _G), (19, 42, 8, _R), (41, 42, 8, _R), (19, 63, 8, _R), (41, 63, 8, _R)],
    7: [(14, 13, 6.5, _G), (30, 21, 6.5, _G), (46, 29, 6.5, _G)]
    + [(x, y, 7, _R) for y in (48, 66) for x in (19, 41)],
    8: [(x, y, 7, _B) for y in (13, 31, 49, 67) for x in (19, 41)],
    9: [(x, y, 7, colour) for y, colour in ((17, _B), (40, _R), (63, _G)) for x in (15, 30, 45)],
}
# Bamboo sticks of the sou tiles: (x, y centre, colour) per number; sticks are 18 high (14 in crowded tiles).
SOU: dict[int, Sequence[tuple[float, float, str]]] = {
    2: [(30, 24, _G), (30, 56, _B)],
    3: [(30, 24, _G), (19, 56, _G), (41, 56, _G)],
    4: [(19, 24, _G), (41, 24, _B), (19, 56, _B), (41, 56, _G)],
    5: [(16, 22, _G), (44, 22, _B), (30, 40, _R), (16, 58, _B), (44, 58, _G)],
    6: [(x, y, _G) for y in (24, 56) for x in (15, 30, 45)],
    7: [(30, 14, _R)] + [(x, y, _G) for y in (40, 64) for x in (15, 30, 45)],
    8: [(x, y, _G) for y in (24, 56) for x in (11, 23, 37, 49)],
    9: [(x, y, _R if x == 30 else _G) for y in (16, 40, 64) for x in (15, 30, 45)],
}
WINDS = {1: "E", 2: "S", 3: "W", 4: "N"}
NAMES = {1: "East", 2: "South", 3: "West", 4: "North", 5: "White dragon", 6: "Green dragon", 7: "Red dragon"}
SUITS = {"m": "characters", "p": "circles", "s": "bamboo"}


def tile_name(code: str) -> str:
    """Words for a tile, for ``alt`` and ``title`` text: ``5p`` is "5 of circles", ``0m`` "red 5 of characters"."""
    match = TILE.match(code)
    if match is None:
        raise ValueError(code)
    if match.group(3):
        return NAMES[int(match.group(3))]
    number, suit = int(match.group(1)), match.group(2)
    return f"red 5 of {SUITS[suit]}" if number == 0 else f"{number} of {SUITS[suit]}"


@lru(256)
def tile_svg(code: str) -> str:
    """The SVG document of one tile in mpsz notation (``5m``, ``0p``, ``7z``); ``ValueError`` for anything else."""
    match = TILE.match(code)
    if match is None:
        raise ValueError(f"not a tile: {code!r}")
    if match.group(3):
        face = _honour(int(match.group(3)))
    else:
        number, suit = int(match.group(1)), match.group(2)
        red = number == 0
        face = {"m": _man, "p": _pin, "s": _sou}[suit](5 if red else number, red)
        if red:
            face += f'<circle cx="51" cy="9" r="3" fill="{RED}"/>'
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" '
        f'role="img" aria-label="{tile_name(code)}">'
        f'<rect x="1" y="3" width="58" height="76" rx="7" fill="#c9c2ad"/>'
        f'<rect x="1" y="1" width="58" height="74" rx="7" fill="#fbf8ef" stroke="#8a8472" stroke-width="1.5"/>'
        f"{face}</svg>"
    )


def _man(number: int, red: bool) -> str:
    ink = RED if red else INK
    return (
        f'<text x="30" y="42" font-family="sans-serif" font-size="36" font-weight="700" fill="{ink}" '
        f'text-anchor="middle">{number}</text>'
        f'<text x="30" y="66" font-family="sans-serif" font-size="15" font-weight="700" fill="{RED}" '
        f'text-anchor="middle" letter-spacing="1">MAN</text>'
    )


def _pin(number: int, red: bool) -> str:
    parts = []
    for x, y, r, colour in PIN[number]:
        colour = RED if red else colour
        parts.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{colour}"/>')
        parts.append(f'<circle cx="{x}" cy="{y}" r="{r * 0.62:.2f}" fill="#fbf8ef"/>')
        parts.append(f'<circle cx="{x}" cy="{y}" r="{r * 0.3:.2f}" fill="{colour}"/>')
    if number == 1:
        parts.append(f'<circle cx="30" cy="40" r="13" fill="none" stroke="{GREEN}" stroke-width="2"/>')
    return "".join(parts)


def _sou(number: int, red: bool) -> str:
    if number == 1:
        return _one_sou(red)
    height = 14 if number in (7, 9) else 18
    parts = []
    for x, y, colour in SOU[number]:
        colour = RED if red else colour
        top = y - height / 2
        parts.append(f'<rect x="{x - 3.5}" y="{top}" width="7" height="{height}" rx="3.5" fill="{colour}"/>')
        parts.append(f'<rect x="{x - 3.5}" y="{y - 1}" width="7" height="2" fill="#fbf8ef"/>')
    return "".join(parts)


def _one_sou(red: bool) -> str:
    body = RED if red else GREEN
    return (
        f'<ellipse cx="30" cy="46" rx="12" ry="16" fill="{body}"/>'
        f'<circle cx="30" cy="24" r="8" fill="{body}"/>'
        f'<circle cx="32" cy="22" r="2" fill="#fbf8ef"/>'
        f'<path d="M37 24 L45 27 L37 29 Z" fill="{RED}"/>'
        f'<path d="M22 58 L16 70 L30 62 L44 70 L38 58 Z" fill="{BLUE}"/>'
    )


def _honour(number: int) -> str:
    if number in WINDS:
        return (
            f'<text x="30" y="54" font-family="sans-serif" font-size="44" font-weight="700" fill="{INK}" '
            f'text-anchor="middle">{WINDS[number]}</text>'
        )
    if number == 5:
        return (
            f'<rect x="12" y="14" width="36" height="48" rx="3" fill="none" stroke="{BLUE}" stroke-width="4"/>'
            f'<rect x="19" y="21" width="22" height="34" rx="2" fill="none" stroke="{BLUE}" stroke-width="2"/>'
        )
    if number == 6:
        return (
            f'<text x="30" y="55" font-family="sans-serif" font-size="46" font-weight="700" fill="{GREEN}" '
            f'text-anchor="middle">F</text>'
        )
    return (
        f'<rect x="12" y="27" width="36" height="24" rx="2" fill="none" stroke="{RED}" stroke-width="5"/>'
        f'<rect x="27" y="10" width="6" height="58" rx="2" fill="{RED}"/>'
    )


ALL_TILES = tuple(
    [f"{n}{s}" for s in "mps" for n in range(1, 10)] + [f"{n}z" for n in range(1, 8)] + [f"0{s}" for s in "mps"]
)

__all__ = ["tile_svg", "tile_name", "ALL_TILES"]
