"""A group the engine interns (``engine.scoring.facts._intern``) has its slots set by their setters at once: the
very group ``_Group(...)`` makes (equal, same text and fields), numbered by its place in ``GROUP_AT``, one object
per distinct group."""

from __future__ import annotations

import itertools

from engine.scoring import facts as F
from ruledsl.values import KAN, PAIR, SEQUENCE, TRIPLET


def test_an_interned_group_is_the_group_its_constructor_makes_with_its_number():
    shapes = {SEQUENCE: lambda k: (k, k + 1, k + 2), TRIPLET: lambda k: (k,) * 3, KAN: lambda k: (k,) * 4, PAIR: lambda k: (k,) * 2}
    for (shape, tiles_of), kind, called, concealed in itertools.product(shapes.items(), (0, 4, 6, 20, 27, 33), (False, True), (False, True)):
        tiles = tiles_of(kind)
        group = F._intern(shape, kind, tiles, called, concealed)
        built = F._Group(shape, kind, tiles, called, concealed)
        assert type(group) is F._Group
        assert group == built and repr(group) == repr(built)
        assert (group.shape, group.kind, group.tiles, group.called, group.concealed) == (shape, kind, tiles, called, concealed)
        assert F.GROUP_AT(group.number) is group
        assert F._intern(shape, kind, tiles, called, concealed) is group
