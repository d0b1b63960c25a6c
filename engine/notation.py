"""A whole position on one line of text, as FEN is for chess: ``Position.to_text()`` writes
it, ``Position.from_text()`` reads it back exactly and refuses a malformed or impossible
position with a ``PositionError`` that says what is wrong. A game's line
(``GameState.to_text()``) is its position's followed by its history, ``moves`` and ``seen``.

This module reads and writes a ``Line`` (``engine.line``), the fields as plain values, not
the classes that keep a position: ``Position`` builds on it, so it may not know ``Position``
back (and the engine has no import circle, not even one only for type checking).

The line is a list of ``name=value`` fields separated by spaces, always written in this
order (and read in any order; each field exactly once). Cards are written as in
``Card.parse`` (``6c``, ``Th``, ``As``), one after another without spaces; ``-`` is an empty
list. Seats are numbers from 0, clockwise.

``rules``
    The deck size, then the options that differ from RULES.md's defaults, with commas:
    ``neighbours``, ``no-first-bout-five``, ``transfer``, ``show-trump``,
    ``durak-defends-first``. The number of players is the number of hands.
``hands``
    Each seat's hand, seats separated by ``/``; a card everyone knows the seat holds (a
    taker's pick-up, a shown or drawn trump, the lowest trump shown to lead) is followed by
    ``*``.
``stock``
    From the top (drawn next) to the bottom; its last card is the face-up trump.
``trump``
    The card that shows the trump suit: the stock's last card, or (stock empty) where it
    went.
``table``
    The attack cards in the order they went down, each with ``:`` and the card that beat it.
``discard``
    The cards beaten and discarded, face down.
``attacker``, ``defender``, ``leader``, ``dealer``
    Seats. After a transfer the attacker is the seat that transferred; the leader is who
    led the bout (the first to draw from the stock when it ends).
``phase``
    ``lead`` (the attacker is to lead), ``open`` (cards are on the table) or ``over``.
``cap``, ``held``
    The bout's cap on attack cards (5 in a first bout under "first bout 5", else 6) and the
    defender's hand size when the bout (or the last transfer) began: the bout may hold
    ``min(cap, held)`` attack cards.
``taking``
    ``yes`` once the defender has said they take, else ``no``.
``passed``, ``shown``, ``throwers``
    Sets of seats, with commas: who passed since the last card went down, who showed a
    trump to transfer this bout, who may add cards this bout.
``places``
    Each seat's place, with commas: 0 while in the game.
``result``
    ``-`` while the game goes on, then ``draw`` or the Durak's seat.
``moves`` (a game's line only)
    How many actions were played.
``seen`` (a game's line only)
    The positions bouts started from since the last discard or draw from the stock (the
    rule that ends a game on a repetition counts them): each ``attacker:cap:hands``, the
    hands as in ``hands`` without ``*``, separated by ``;``.

Two examples of a game's line (each one line, broken here at its spaces; the position's
line is the same without ``moves`` and ``seen``). A two-player game as
``new_game(Rules(), 1)`` deals it: clubs are trump, and seat 1 leads because it showed the
lowest trump, the ten of clubs, which everyone now knows it holds::

    rules=36 hands=AcJdKd8hKhTs/Tc*QcKc9dQdQh
    stock=7s6cAhTd9h8sAsJs6d7cJc6h8d7dQsAdJh6s7h9s8cThKs9c trump=9c table=- discard=-
    attacker=1 defender=0 leader=1 dealer=1 phase=lead cap=5 held=6 taking=no passed=-
    shown=- throwers=1 places=0,0 result=- moves=0 seen=1:5:AcJdKd8hKhTs/TcQcKc9dQdQh

Three players with 24 cards and transfers (``new_game(Rules(players=3, deck_size=24,
transfer=True), 2)``): seat 0 led the nine of spades and seat 1 passed the attack on to
seat 2 with the nine of diamonds::

    rules=24,transfer hands=Tc*JdAdKhAh/JcAcKdThTs/KcQdJsQsKsAs stock=Jh9h9cTdQhQc
    trump=Qc table=9s,9d discard=- attacker=1 defender=2 leader=0 dealer=2 phase=open
    cap=5 held=6 taking=no passed=- shown=- throwers=0,1 places=0,0,0 result=- moves=2
    seen=0:5:TcJdAdKhAh9s/JcAc9dKdThTs/KcQdJsQsKsAs

Reading checks what a position can be, as far as the position itself shows it (every card
of the deck exactly once, a bout that fits together...: ``Line.problem``), not that some
game leads there from a deal.
"""

from __future__ import annotations

from collections.abc import Iterable

from .cards import CARDS, Card, cards_of
from .events import GameResult
from .line import History, Line
from .phase import Phase
from .rules import Rules, RulesError, ThrowIn

__all__ = [
    "PositionError",
    "read_game",
    "read_position",
    "write_game",
    "write_position",
]

FIELDS = (
    "rules",
    "hands",
    "stock",
    "trump",
    "table",
    "discard",
    "attacker",
    "defender",
    "leader",
    "dealer",
    "phase",
    "cap",
    "held",
    "taking",
    "passed",
    "shown",
    "throwers",
    "places",
    "result",
)
GAME_FIELDS = (*FIELDS, "moves", "seen")  # a game's line: its position, then its history

_OPTIONS = {  # the rules options that differ from the defaults: their word, their field
    "neighbours": "throw_in",
    "no-first-bout-five": "first_bout_five",
    "transfer": "transfer",
    "show-trump": "transfer_show_trump",
    "durak-defends-first": "durak_defends_first",
}
# Reading is linear in the length, so the bound only stops absurd input: a position is a few
# hundred characters, plus the repetition history (at most a few hundred kilobytes when a
# game runs up to the move cap without a discard or a draw).
_MAX_TEXT = 1_000_000


class PositionError(ValueError):
    """A position's text that is malformed, or a position that cannot occur."""


# --- writing ----------------------------------------------------------------------------


def write_position(line: Line) -> str:
    """The position's line: the fields of ``FIELDS``, in that order."""
    n = line.players
    table = ",".join(
        str(CARDS[a]) + (f":{CARDS[d]}" if d >= 0 else "")
        for a, d in zip(line.attacks, line.defences, strict=True)
    )
    if line.result is None:
        result = "-"
    else:
        result = "draw" if line.result.durak is None else str(line.result.durak)
    fields = {
        "rules": _rules_text(line.rules),
        "hands": "/".join(_hand_text(line.hands[s], line.known[s]) for s in range(n)),
        "stock": _cards_text(CARDS[i] for i in reversed(line.stock)),
        "trump": str(CARDS[line.trump_card]),
        "table": table or "-",
        "discard": _cards_text(cards_of(line.discard)),
        "attacker": str(line.attacker),
        "defender": str(line.defender),
        "leader": str(line.leader),
        "dealer": str(line.dealer),
        "phase": line.phase.value,
        "cap": str(line.bout_max),
        "held": str(line.defender_start),
        "taking": "yes" if line.taking else "no",
        "passed": _seats_text(line.passed, n),
        "shown": _seats_text(line.shown, n),
        "throwers": _seats_text(line.throwers, n),
        "places": ",".join(map(str, line.places)),
        "result": result,
    }
    return " ".join(f"{name}={fields[name]}" for name in FIELDS)


def write_game(line: Line, history: History) -> str:
    """A game's line: its position's, then ``moves`` and ``seen``."""
    seen = ";".join(
        f"{a}:{cap}:" + "/".join(_hand_text(h, 0) for h in hands) for a, cap, *hands in history.seen
    )
    return f"{write_position(line)} moves={history.moves} seen={seen or '-'}"


def _rules_text(rules: Rules) -> str:
    defaults = Rules(players=rules.players)
    words = [str(rules.deck_size)]
    for word, name in _OPTIONS.items():
        if getattr(rules, name) != getattr(defaults, name):
            words.append(word)
    return ",".join(words)


def _cards_text(cards: Iterable[Card]) -> str:
    return "".join(map(str, cards)) or "-"


def _hand_text(hand: int, known: int) -> str:
    return "".join(str(c) + ("*" if known & c.bit else "") for c in cards_of(hand)) or "-"


def _seats_text(mask: int, players: int) -> str:
    return ",".join(str(s) for s in range(players) if mask >> s & 1) or "-"


# --- reading ----------------------------------------------------------------------------


def read_position(text: str) -> Line:
    """Parse and check a position's line (``FIELDS``); ``PositionError`` for anything wrong."""
    line, _ = _read(text, FIELDS)
    _check(line)
    return line


def read_game(text: str) -> tuple[Line, History]:
    """Parse and check a game's line (``GAME_FIELDS``); ``PositionError`` for anything wrong."""
    line, reader = _read(text, GAME_FIELDS)
    history = History(reader.number("moves", 0, 10**9), reader.seen(line.players))
    _check(line)
    return line, history


def _read(text: str, names: tuple[str, ...]) -> tuple[Line, _Reader]:
    if not isinstance(text, str):
        raise PositionError("a position is a line of text")
    if len(text) > _MAX_TEXT:
        raise PositionError(f"a position is at most {_MAX_TEXT} characters long")
    reader = _Reader(_fields(text, names))
    rules = reader.rules()
    n = rules.players
    hands, known = reader.hands(n)
    stock = reader.cards("stock")
    trump = reader.card("trump")
    attacks, defences = reader.table()
    discard = reader.cards("discard")
    phase = reader.phase()
    places = reader.numbers("places", n, 0, n)
    result = reader.result(n, places)
    line = Line(
        rules,
        hands=tuple(hands),
        known=tuple(known),
        stock=tuple(c.index for c in reversed(stock)),
        trump_card=trump.index,
        discard=sum(c.bit for c in discard),
        attacks=tuple(c.index for c in attacks),
        defences=tuple(-1 if d is None else d.index for d in defences),
        attacker=reader.number("attacker", 0, n - 1),
        defender=reader.number("defender", 0, n - 1),
        leader=reader.number("leader", 0, n - 1),
        dealer=reader.number("dealer", 0, n - 1),
        phase=phase,
        bout_max=reader.number("cap", 5, 6),
        defender_start=reader.number("held", 0, 52),
        taking=reader.yes_no("taking"),
        passed=reader.seats("passed", n),
        shown=reader.seats("shown", n),
        throwers=reader.seats("throwers", n),
        places=tuple(places),
        result=result,
    )
    return line, reader


def _check(line: Line) -> None:
    problem = line.problem()
    if problem is not None:
        raise PositionError(f"impossible position: {problem}")


def _fields(text: str, names: tuple[str, ...]) -> dict[str, str]:
    fields: dict[str, str] = {}
    for word in text.split():
        name, equals, value = word.partition("=")
        if not equals:
            raise PositionError(f"not a name=value field: {_quote(word)}")
        if name not in names:
            raise PositionError(f"unknown field {_quote(name)}")
        if name in fields:
            raise PositionError(f"field {name!r} is given twice")
        fields[name] = value
    missing = [name for name in names if name not in fields]
    if missing:
        raise PositionError(f"missing field(s): {', '.join(missing)}")
    return fields


def _quote(text: str, limit: int = 30) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


class _Reader:
    """Reads the fields' values, each with an error naming the field."""

    def __init__(self, fields: dict[str, str]) -> None:
        self.fields = fields

    def _fail(self, name: str, what: str) -> PositionError:
        return PositionError(f"{name}={_quote(self.fields[name])}: {what}")

    def rules(self) -> Rules:
        words = self.fields["rules"].split(",")
        hands = self.fields["hands"].split("/")
        if not words[0].isdigit():
            raise self._fail("rules", "must start with the deck size")
        options = words[1:]
        for word in options:
            if word not in _OPTIONS or options.count(word) > 1:
                raise self._fail("rules", f"unknown or repeated option {_quote(word)}")
        try:
            return Rules(
                players=len(hands),
                deck_size=int(words[0]),
                throw_in=ThrowIn.NEIGHBOURS if "neighbours" in options else ThrowIn.ALL,
                first_bout_five="no-first-bout-five" not in options,
                transfer="transfer" in options,
                transfer_show_trump="show-trump" in options,
                durak_defends_first="durak-defends-first" in options,
            )
        except RulesError as exc:
            raise self._fail("rules", f"{exc} (the hands give the number of players)") from None

    def _card_list(self, name: str, text: str, *, marks: bool = False) -> list[tuple[Card, bool]]:
        """Cards written one after another (``-``: none), each maybe followed by ``*``."""
        if text == "-":
            return []
        cards: list[tuple[Card, bool]] = []
        i = 0
        while i < len(text):
            try:
                card = Card.parse(text[i : i + 2])
            except ValueError:
                raise self._fail(name, f"no card at {_quote(text[i : i + 3])}") from None
            i += 2
            known = marks and text[i : i + 1] == "*"
            i += known
            cards.append((card, known))
        if not cards:
            raise self._fail(name, "write - for no cards")
        return cards

    def cards(self, name: str) -> list[Card]:
        return [card for card, _ in self._card_list(name, self.fields[name])]

    def card(self, name: str) -> Card:
        cards = self.cards(name)
        if len(cards) != 1:
            raise self._fail(name, "must be one card")
        return cards[0]

    def hands(self, players: int) -> tuple[list[int], list[int]]:
        hands, known = [], []
        for text in self.fields["hands"].split("/"):
            hand = mine = 0
            for card, is_known in self._card_list("hands", text, marks=True):
                if hand & card.bit:
                    raise self._fail("hands", f"{card} is twice in one hand")
                hand |= card.bit
                mine |= card.bit if is_known else 0
            hands.append(hand)
            known.append(mine)
        return hands, known

    def table(self) -> tuple[list[Card], list[Card | None]]:
        text = self.fields["table"]
        attacks: list[Card] = []
        defences: list[Card | None] = []
        if text == "-":
            return attacks, defences
        for pair in text.split(","):
            attack, colon, defence = pair.partition(":")
            attacks.append(self._one("table", attack))
            defences.append(self._one("table", defence) if colon else None)
        return attacks, defences

    def _one(self, name: str, text: str) -> Card:
        cards = self._card_list(name, text)
        if len(cards) != 1:
            raise self._fail(name, f"{_quote(text)} is not one card")
        return cards[0][0]

    def number(self, name: str, low: int, high: int) -> int:
        text = self.fields[name]
        if not (text.isascii() and text.isdigit()) or len(text) > 10:
            raise self._fail(name, "must be a number")
        value = int(text)
        if not low <= value <= high:
            raise self._fail(name, f"must be between {low} and {high}")
        return value

    def numbers(self, name: str, count: int, low: int, high: int) -> list[int]:
        words = self.fields[name].split(",")
        if len(words) != count:
            raise self._fail(name, f"must list {count} numbers, one per seat")
        return [self._number_in(name, word, low, high) for word in words]

    def _number_in(self, name: str, word: str, low: int, high: int) -> int:
        if not (word.isascii() and word.isdigit()) or len(word) > 10:
            raise self._fail(name, f"{_quote(word)} is not a number")
        value = int(word)
        if not low <= value <= high:
            raise self._fail(name, f"{value} is not between {low} and {high}")
        return value

    def seats(self, name: str, players: int) -> int:
        text = self.fields[name]
        if text == "-":
            return 0
        mask = 0
        for word in text.split(","):
            seat = self._number_in(name, word, 0, players - 1)
            if mask >> seat & 1:
                raise self._fail(name, f"seat {seat} is listed twice")
            mask |= 1 << seat
        return mask

    def phase(self) -> Phase:
        try:
            return Phase(self.fields["phase"])
        except ValueError:
            raise self._fail("phase", "must be lead, open or over") from None

    def yes_no(self, name: str) -> bool:
        text = self.fields[name]
        if text not in ("yes", "no"):
            raise self._fail(name, "must be yes or no")
        return text == "yes"

    def result(self, players: int, places: list[int]) -> GameResult | None:
        text = self.fields["result"]
        if text == "-":
            return None
        durak = None if text == "draw" else self._number_in("result", text, 0, players - 1)
        return GameResult(tuple(places), durak)

    def seen(self, players: int) -> tuple[tuple[int, ...], ...]:
        text = self.fields["seen"]
        if text == "-":
            return ()
        seen = []
        for entry in text.split(";"):
            parts = entry.split(":")
            if len(parts) != 3:
                raise self._fail("seen", f"{_quote(entry)} is not attacker:cap:hands")
            attacker = self._number_in("seen", parts[0], 0, players - 1)
            cap = self._number_in("seen", parts[1], 5, 6)
            hands = parts[2].split("/")
            if len(hands) != players:
                raise self._fail("seen", f"{_quote(entry)} must hold {players} hands")
            masks = [sum(c.bit for c, _ in self._card_list("seen", h)) for h in hands]
            seen.append((attacker, cap, *masks))
        return tuple(seen)
