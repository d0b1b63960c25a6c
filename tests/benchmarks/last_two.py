"""Who is left at the end of a big table: the last two players, where they sat and what
they were (run by hand, not by CI).

    python tests/benchmarks/last_two.py [--levels normal,hard] [--players P] [--games N]
        [--seed S]

Plays N games at P seats (36 cards) with the levels in turn round the table
(``normal,hard`` at six seats: Normal at 0, 2 and 4, Hard at 1, 3 and 5, as one of
``hard_strength.py``'s seatings), every Hard's budget in CPU time, and counts the last
two players in each game, the Durak and the one who went out just before it: how many
seats apart they sat, and their levels. A game drawn, or one whose last players went out
together, has no last two.

At six seats with levels in turn, players two or four seats apart have the same level:
how often the last two sat so is how often a level's Durak rate is decided between two
players of that level.

It also counts how often the Durak sat an even number of seats from the first defender.
A defender who takes is skipped, so while defenders take, the attack passes on two seats
at a time and the same half of the table defends; only a defence that holds hands the
attack to the other half.
"""

from __future__ import annotations

import argparse
import collections
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from engine import FirstAttacker, Rules, new_game  # noqa: E402
from engine.ai import Bot, HardBot, make_bot, play_game  # noqa: E402


def last_two(places: tuple[int, ...]) -> tuple[int, int] | None:
    """The seats that finished last and last but one, or None when no single player went
    out last but one (a draw, or the last two out together)."""
    players = len(places)
    durak = [s for s, p in enumerate(places) if p == players]
    before = [s for s, p in enumerate(places) if p == players - 1]
    if len(durak) != 1 or len(before) != 1:
        return None
    return before[0], durak[0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="normal", help="levels in turn round the table")
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    levels = args.levels.split(",")

    def bot(seat: int, seed: int) -> Bot:
        level = levels[seat % len(levels)]
        if level == "hard":
            return HardBot(seat, rules, seed, clock=time.thread_time)
        return make_bot(level, seat, rules, seed)

    try:  # a bad level or table is told before any game
        rules = Rules(players=args.players)
        for seat in range(len(levels)):
            bot(seat, 0)
    except ValueError as exc:
        parser.error(str(exc))

    apart: collections.Counter[int] = collections.Counter()
    pairs: collections.Counter[str] = collections.Counter()
    none = 0
    decided = defenders = 0  # games with a Durak; of them, the Durak on the defenders' side
    for game in range(args.games):
        seed = args.seed * 1_000_003 + game
        state = new_game(rules, seed)
        first = next(e.seat for e in state.opening if isinstance(e, FirstAttacker))
        record = play_game(state, [bot(s, seed ^ s) for s in range(args.players)])
        durak = record.result.durak
        if durak is not None:
            decided += 1
            defenders += (durak - first - 1) % 2 == 0
        two = last_two(record.result.places)
        if two is None:
            none += 1
            continue
        distance = (two[1] - two[0]) % args.players
        apart[min(distance, args.players - distance)] += 1
        pairs[" and ".join(sorted(levels[s % len(levels)] for s in two))] += 1
    total = sum(apart.values())
    print(f"last_two: {args.games} games, {args.players} seats, levels {args.levels}")
    for distance in sorted(apart):
        seats = "seat" if distance == 1 else "seats"
        print(f"  {distance} {seats} apart: {apart[distance]} ({apart[distance] / total:.0%})")
    for pair, count in sorted(pairs.items()):
        print(f"  {pair}: {count} ({count / total:.0%})")
    print(f"  no last two: {none}")
    if decided:
        print(
            f"  the Durak an even number of seats from the first defender: {defenders} of"
            f" {decided} ({defenders / decided:.0%})"
        )


if __name__ == "__main__":
    main()
