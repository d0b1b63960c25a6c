"""The standings of a party night: every game of every table scored as a series is
(RULES.md, seed 001: one win for the first out, one loss for the Durak), summed per player.

A player's score is wins minus losses. Ties are broken, in order, by fewer times the
Durak, more wins, a better average place (each place scaled to the table's size: 0 for
first out, 1 for the Durak's last place, so a 3-seat and a 6-seat table weigh alike), the
summed scores of the opponents met (the Swiss system's Buchholz: points earned against a
strong field count for more), and last the order players joined the party. A drawn game
scores nothing for anyone; AI seats are never ranked. See docs/party.md.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from engine import GameResult

__all__ = ["Figures", "Game", "Standing", "figures", "standings"]


@dataclass(frozen=True, slots=True)
class Game:
    """One finished game at a party table: who sat in each seat (a party player's id,
    None for an AI seat), its result, how long it took, and when each seat went out."""

    round: int
    table: int
    seats: tuple[str | None, ...]
    result: GameResult
    actions: int = 0
    seconds: float = 0.0
    out_after: tuple[int | None, ...] = ()  # actions played when each seat went out

    def __post_init__(self) -> None:
        if len(self.seats) != len(self.result.places) or len(self.seats) < 2:
            raise ValueError("a game's seats and its result's places must match (2-6 seats)")
        if self.out_after and len(self.out_after) != len(self.seats):
            raise ValueError("out_after needs one entry a seat")

    def won(self, seat: int) -> bool:
        places = self.result.places
        return places[seat] == 1 and not all(p == 1 for p in places)

    def lost(self, seat: int) -> bool:
        return self.result.durak == seat

    def scaled_place(self, seat: int) -> Fraction:
        """The seat's place on a 0 (first out) to 1 (last) scale, exactly: summed as floats,
        equal places would differ in their last bit with the order the games ended in."""
        return Fraction(self.result.places[seat] - 1, len(self.seats) - 1)


@dataclass(frozen=True, slots=True)
class Standing:
    player: str
    rank: int  # 1 = leads; players level on every tie-break share a rank
    games: int
    wins: int
    losses: int  # times the Durak
    place: float  # the average scaled place (0 best, 1 worst); 0.5 before any game
    opponents: int  # the summed scores of every opponent in every game played

    @property
    def score(self) -> int:
        return self.wins - self.losses


def standings(players: Sequence[str], games: Sequence[Game]) -> tuple[Standing, ...]:
    """Every player of ``players`` (in the order they joined, which breaks the last tie),
    best first. A game's seat that names no player of ``players`` is an error."""
    known = {player: index for index, player in enumerate(players)}
    if len(known) != len(players):
        raise ValueError("a player is listed twice")
    wins = dict.fromkeys(players, 0)
    losses = dict.fromkeys(players, 0)
    played = dict.fromkeys(players, 0)
    places = dict.fromkeys(players, Fraction(0))
    met: dict[str, list[str]] = {player: [] for player in players}
    for game in games:
        people = [(seat, who) for seat, who in enumerate(game.seats) if who is not None]
        for seat, who in people:
            if who not in known:
                raise ValueError(f"a game names {who!r}, who is not a player of the party")
            played[who] += 1
            wins[who] += game.won(seat)
            losses[who] += game.lost(seat)
            places[who] += game.scaled_place(seat)
            met[who] += [other for _, other in people if other != who]
    score = {player: wins[player] - losses[player] for player in players}

    def average(player: str) -> Fraction:
        return places[player] / played[player] if played[player] else Fraction(1, 2)

    def key(player: str) -> tuple[int, int, int, Fraction, int]:
        return (-score[player], losses[player], -wins[player], average(player), -buchholz(player))

    def buchholz(player: str) -> int:
        return sum(score[other] for other in met[player])

    ordered = sorted(players, key=lambda player: (key(player), known[player]))
    table: list[Standing] = []
    for index, player in enumerate(ordered):
        level = index and key(ordered[index - 1]) == key(player)
        table.append(
            Standing(
                player,
                table[-1].rank if level else index + 1,
                played[player],
                wins[player],
                losses[player],
                float(average(player)),
                buchholz(player),
            )
        )
    return tuple(table)


@dataclass(frozen=True, slots=True)
class Figures:
    """The night's figures for the board (players' ids; None before any game has one)."""

    most_durak: tuple[str, ...]  # everyone level on the most times the Durak (at least 1)
    durak_times: int
    longest: Game | None  # the game of the most actions
    fastest: tuple[str, int] | None  # who went out after the fewest actions, and after how many


def figures(games: Sequence[Game]) -> Figures:
    losses: dict[str, int] = {}
    fastest: tuple[str, int] | None = None
    for game in games:
        durak = game.result.durak
        if durak is not None and (who := game.seats[durak]) is not None:
            losses[who] = losses.get(who, 0) + 1
        for seat, after in enumerate(game.out_after):
            who = game.seats[seat]
            if who is not None and after is not None and (fastest is None or after < fastest[1]):
                fastest = (who, after)
    most = max(losses.values(), default=0)
    return Figures(
        tuple(who for who, n in losses.items() if n == most and most),
        most,
        max(games, key=lambda game: game.actions, default=None),
        fastest,
    )
