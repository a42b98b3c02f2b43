"""Shanten and decomposition throughput, ours beside the mahjong package's, on the same hands.

Run: ``python benchmarks/analysis.py [--hands N] [--seed S] [--repeat R]``. "cold" starts with every cache of ours
emptied (the first 10,000 hands a process sees); "warm" runs the same hands again. The mahjong package keeps a small
cache in its divider; it is emptied before each of its runs. Figures are in CPU time (the wall clock of a shared
machine counts other work too), the best of ``--repeat`` rounds (default 3) in which ours and the peer's take turns.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence

from mahjong.hand_calculating.divider import HandDivider
from mahjong.shanten import Shanten

from engine.core import analysis, decompose

SEQ_STARTS = [suit * 9 + n for suit in range(3) for n in range(7)]


def random_hands(rng: random.Random, count: int) -> list[list[int]]:
    """Hands dealt from the 136 tiles, alternately 13 and 14 tiles, as 34 counts."""
    wall = [kind for kind in range(34) for _ in range(4)]
    hands = []
    for i in range(count):
        counts = [0] * 34
        for kind in rng.sample(wall, 13 + i % 2):
            counts[kind] += 1
        hands.append(counts)
    return hands


def complete_hands(rng: random.Random, count: int) -> list[list[int]]:
    """Random four sets and a pair, redrawn when a kind would need a fifth copy."""
    hands = []
    while len(hands) < count:
        counts = [0] * 34
        for _ in range(4):
            if rng.random() < 0.6:
                start = rng.choice(SEQ_STARTS)
                for kind in (start, start + 1, start + 2):
                    counts[kind] += 1
            else:
                counts[rng.randrange(34)] += 3
        counts[rng.randrange(34)] += 2
        if max(counts) <= 4:
            hands.append(counts)
    return hands


def rate(
    function: Callable[[list[int]], object], hands: Sequence[list[int]], before: Callable[[], None]
) -> float:
    before()
    start = time.process_time()
    for hand in hands:
        function(hand)
    return len(hands) / (time.process_time() - start)


def _nothing() -> None:
    pass


def _clear_ours() -> None:
    analysis.clear_caches()
    decompose.clear_caches()


def _clear_theirs() -> None:
    HandDivider._divide_hand_impl.cache_clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=20260301)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    dealt = random_hands(random.Random(args.seed), args.hands)
    complete = complete_hands(random.Random(args.seed), args.hands)
    oracle = Shanten()
    for hand in dealt[:2000]:
        assert analysis.shanten(hand) == oracle.calculate_shanten(hand), hand

    rows = [
        ("shanten, dealt hands", analysis.shanten, oracle.calculate_shanten, dealt),
        ("decomposition, dealt hands", decompose.decompose, HandDivider.divide_hand, dealt),
        ("decomposition, complete hands", decompose.decompose, HandDivider.divide_hand, complete),
    ]
    print(f"{args.hands:,} hands per row, seed {args.seed}; hands per CPU second, best of {max(args.repeat, 1)} interleaved rounds")
    print(f"{'':32}{'ours cold':>12}{'ours warm':>12}{'mahjong 2.1.0':>15}{'cold ratio':>12}")
    for label, ours, theirs, hands in rows:
        cold = warm = peer = 0.0
        for _ in range(max(args.repeat, 1)):
            cold = max(cold, rate(ours, hands, _clear_ours))
            warm = max(warm, rate(ours, hands, _nothing))
            peer = max(peer, rate(theirs, hands, _clear_theirs))
        print(f"{label:32}{cold:>12,.0f}{warm:>12,.0f}{peer:>15,.0f}{cold / peer:>11.1f}x")


if __name__ == "__main__":
    main()
