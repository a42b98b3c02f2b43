"""Both point tables of fu-and-payments.md and the limit tiers, cell by cell, read from the spec itself.

The cell list of examples.md §5 is the test data: if the spec changes, these tests change with it.
"""

from __future__ import annotations

import re

import pytest

from engine.scoring.library import scorer
from tests.spec_files import spec_text

CELL = re.compile(r"^(ND|D), (\d+) han, (\d+) fu: ([\d,]+|-) \| ([\d,/]+|-)(?: all)?")


def _n(text: str) -> int:
    return int(text.replace(",", ""))


def _cells() -> list[tuple[str, int, int, str, str]]:
    text = spec_text("examples.md")
    section = text.split("## 5. Cell-by-cell point-table vectors", 1)[1]
    cells = []
    for line in section.splitlines():
        m = CELL.match(line.strip())
        if m:
            cells.append((m.group(1), int(m.group(2)), int(m.group(3)), m.group(4), m.group(5)))
    return cells


def test_the_spec_lists_all_88_cells():
    assert len(_cells()) == 88


@pytest.mark.parametrize(("who", "han", "fu", "ron", "tsumo"), _cells())
def test_point_table_cell(who, han, fu, ron, tsumo):
    s = scorer("house")
    dealer = who == "D"
    if ron != "-":
        got = s.settle(han, fu, dealer=dealer, tsumo=False)
        assert got["payments"] == {"ron": _n(ron)}
    if tsumo != "-":
        got = s.settle(han, fu, dealer=dealer, tsumo=True)
        if dealer:
            assert got["payments"] == {"non_dealer": _n(tsumo)}
            assert got["total"] == 3 * _n(tsumo)
        else:
            non_dealer, dealer_pays = (_n(x) for x in tsumo.split("/"))
            assert got["payments"] == {"dealer": dealer_pays, "non_dealer": non_dealer}
            assert got["total"] == dealer_pays + 2 * non_dealer


LIMITS = [
    # tier, han, non-dealer ron, non-dealer tsumo (non-dealer/dealer), dealer ron, dealer tsumo each (000 L196-200)
    ("mangan", 5, 8000, (2000, 4000), 12000, 4000),
    ("haneman", 6, 12000, (3000, 6000), 18000, 6000),
    ("haneman", 7, 12000, (3000, 6000), 18000, 6000),
    ("baiman", 8, 16000, (4000, 8000), 24000, 8000),
    ("baiman", 10, 16000, (4000, 8000), 24000, 8000),
    ("sanbaiman", 11, 24000, (6000, 12000), 36000, 12000),
    ("sanbaiman", 12, 24000, (6000, 12000), 36000, 12000),
    ("yakuman", 13, 32000, (8000, 16000), 48000, 16000),
    ("yakuman", 20, 32000, (8000, 16000), 48000, 16000),
]


@pytest.mark.parametrize(("tier", "han", "nd_ron", "nd_tsumo", "d_ron", "d_tsumo"), LIMITS)
@pytest.mark.parametrize("fu", [30, 40, 110])
def test_limit_tiers(tier, han, nd_ron, nd_tsumo, d_ron, d_tsumo, fu):
    s = scorer("house")
    assert s.settle(han, fu, dealer=False, tsumo=False)["payments"] == {"ron": nd_ron}
    assert s.settle(han, fu, dealer=False, tsumo=True)["payments"] == {"non_dealer": nd_tsumo[0], "dealer": nd_tsumo[1]}
    assert s.settle(han, fu, dealer=True, tsumo=False)["payments"] == {"ron": d_ron}
    assert s.settle(han, fu, dealer=True, tsumo=True)["payments"] == {"non_dealer": d_tsumo}
    assert s.settle(han, fu, dealer=False, tsumo=False)["limit"] == tier


@pytest.mark.parametrize(("multiple", "nd", "d"), [(1, 32000, 48000), (2, 64000, 96000), (3, 96000, 144000)])
def test_yakuman_multiples_add(multiple, nd, d):
    s = scorer("house")
    assert s.settle(0, 0, dealer=False, tsumo=False, yakuman=multiple)["total"] == nd
    assert s.settle(0, 0, dealer=True, tsumo=False, yakuman=multiple)["total"] == d
    assert s.settle(0, 0, dealer=False, tsumo=True, yakuman=multiple)["total"] == nd


@pytest.mark.parametrize(("han", "fu", "expected"), [(1, 120, 3900), (2, 120, 7700)])
def test_beyond_the_table_follows_the_formula(han, fu, expected):
    # fu-and-payments.md §3 notes: 1 han 120 fu = ceil100(4 x 960) = 3,900 (derived); 2 han 120 fu has base 1,920
    assert scorer("house").settle(han, fu, dealer=False, tsumo=False)["payments"] == {"ron": expected}


def test_honba_adds_300_on_ron_and_100_per_payer_on_tsumo():
    s = scorer("house")
    assert s.settle(1, 30, dealer=False, tsumo=False, honba=2)["payments"] == {"ron": 1600}
    got = s.settle(1, 30, dealer=False, tsumo=True, honba=1)
    assert got["payments"] == {"dealer": 600, "non_dealer": 400}
    assert got["total"] == 1400
