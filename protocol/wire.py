"""Engine values on the wire: cards, actions, events, views, rules, results, series.

Every ``*_to_wire`` builds plain msgpack data (maps with string keys, lists, strings, ints,
booleans, nil); every ``*_from_wire`` checks the type and range of every field and builds
the engine value, raising ``ProtocolError(BAD_MESSAGE, ...)`` for anything else. Cards
travel as their two-character text: rank ``2``-``9``, ``T``, ``J``, ``Q``, ``K``, ``A`` and
suit ``c``, ``d``, ``h``, ``s`` (``"6h"``, ``"Th"``, ``"As"``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from engine import (
    CARDS,
    DECK_SIZES,
    Action,
    Attack,
    Attacked,
    Beat,
    BoutStarted,
    Card,
    Covered,
    Dealt,
    Discarded,
    Drew,
    Event,
    FirstAttacker,
    GameEnded,
    GameResult,
    Pass,
    Passed,
    Phase,
    PickedUp,
    PublicView,
    Reason,
    Rules,
    RulesError,
    SeatView,
    Series,
    ShowTrump,
    Take,
    Taking,
    ThrewIn,
    ThrowIn,
    ThrowInRule,
    Transfer,
    Transferred,
    TrumpTurned,
    WentOut,
)

from .errors import BAD_MESSAGE, ProtocolError

__all__ = [
    "MAX_SEATS",
    "UnplayableRules",
    "action_from_wire",
    "action_to_wire",
    "card_from_wire",
    "card_to_wire",
    "event_from_wire",
    "event_to_wire",
    "one_of",
    "public_view_from_wire",
    "public_view_to_wire",
    "requested_rules_from_wire",
    "requested_rules_to_wire",
    "result_from_wire",
    "result_to_wire",
    "rules_from_wire",
    "rules_to_wire",
    "series_from_wire",
    "series_to_wire",
    "view_from_wire",
    "view_to_wire",
]

T = TypeVar("T")
Decoder = Callable[[Any], Any]

MAX_SEATS = 6
MAX_LEGAL = 1024  # the most legal actions a view can hold is well below this
_CARD_TEXT: tuple[str, ...] = tuple(str(card) for card in CARDS)
_CARD_BY_TEXT: dict[str, Card] = {str(card): card for card in CARDS}
_REASONS: dict[str, Reason] = {reason.value: reason for reason in Reason}
_PHASES: dict[str, Phase] = {phase.value: phase for phase in Phase}
CODE_RE = re.compile(r"[a-z][a-z0-9_]{0,39}")


def bad(text: str) -> ProtocolError:
    return ProtocolError(BAD_MESSAGE, text)


# --- primitive checks ------------------------------------------------------------------


def one_of(values: tuple[str, ...], what: str) -> Decoder:
    """A check that a field is one of the strings ``values``."""

    def check(value: Any) -> str:
        if type(value) is not str or value not in values:
            raise bad(f"{what} must be one of {', '.join(values)}")
        return value

    return check


def check_int(value: Any, lo: int, hi: int, what: str) -> int:
    if type(value) is not int or not lo <= value <= hi:
        raise bad(f"{what} must be an integer from {lo} to {hi}")
    return value


def check_bool(value: Any, what: str) -> bool:
    if type(value) is not bool:
        raise bad(f"{what} must be true or false")
    return value


def check_str(value: Any, what: str, max_len: int, min_len: int = 0) -> str:
    if type(value) is not str or not min_len <= len(value) <= max_len:
        raise bad(f"{what} must be a string of {min_len} to {max_len} characters")
    return value


def check_code(value: Any, what: str) -> str:
    if type(value) is not str or not CODE_RE.fullmatch(value):
        raise bad(f"{what} must be a lower-case code")
    return value


def check_list(value: Any, what: str, max_len: int) -> list[Any]:
    if type(value) is not list or len(value) > max_len:
        raise bad(f"{what} must be a list of at most {max_len} items")
    return value


def check_map(value: Any, what: str, fields: tuple[str, ...]) -> dict[str, Any]:
    """A map with exactly these keys (no more, no fewer)."""
    if type(value) is not dict:
        raise bad(f"{what} must be a map")
    if len(value) != len(fields) or any(key not in value for key in fields):
        raise bad(f"{what} must have exactly the fields {', '.join(fields)}")
    return value


def optional(convert: Callable[[Any], T]) -> Callable[[Any], T | None]:
    """``convert`` (a decoder or an encoder) with None passed through."""

    def convert_optional(value: Any) -> T | None:
        return None if value is None else convert(value)

    return convert_optional


def seat_of(value: Any, what: str = "seat", players: int = MAX_SEATS) -> int:
    return check_int(value, 0, players - 1, what)


def seats_of(value: Any, what: str, players: int) -> tuple[int, ...]:
    seats = tuple(seat_of(s, what, players) for s in check_list(value, what, players))
    if len(set(seats)) != len(seats):
        raise bad(f"{what} lists a seat twice")
    return seats


# --- cards -----------------------------------------------------------------------------


def card_to_wire(card: Card) -> str:
    return _CARD_TEXT[card.index]


def card_from_wire(value: Any, what: str = "card") -> Card:
    card = _CARD_BY_TEXT.get(value) if type(value) is str else None
    if card is None:
        raise bad(f"{what} must be a card such as '6h' or 'Ts'")
    return card


def cards_to_wire(cards: tuple[Card, ...]) -> list[str]:
    return [_CARD_TEXT[card.index] for card in cards]


def cards_from_wire(value: Any, what: str = "cards", max_len: int = 52) -> tuple[Card, ...]:
    cards = tuple(card_from_wire(v, what) for v in check_list(value, what, max_len))
    if len(set(cards)) != len(cards):
        raise bad(f"{what} lists a card twice")
    return cards


# --- actions ---------------------------------------------------------------------------


def action_to_wire(action: Action) -> dict[str, Any]:
    if isinstance(action, Attack):
        return {"verb": "attack", "cards": cards_to_wire(action.cards)}
    if isinstance(action, Beat):
        return {
            "verb": "beat",
            "card": card_to_wire(action.card),
            "target": card_to_wire(action.target),
        }
    if isinstance(action, ThrowIn | Transfer | ShowTrump):
        return {"verb": action.verb, "card": card_to_wire(action.card)}
    return {"verb": action.verb}


_SINGLE: dict[str, type[ThrowIn | Transfer | ShowTrump]] = {
    "throw": ThrowIn,
    "transfer": Transfer,
    "show": ShowTrump,
}


def action_from_wire(value: Any) -> Action:
    if type(value) is not dict:
        raise bad("action must be a map")
    verb = value.get("verb")
    if verb == "attack":
        data = check_map(value, "attack", ("verb", "cards"))
        cards = cards_from_wire(data["cards"], "attack cards", 6)
        if not cards:
            raise bad("attack cards must not be empty")
        return Attack(cards)
    if verb == "beat":
        data = check_map(value, "beat", ("verb", "card", "target"))
        return Beat(card_from_wire(data["card"]), card_from_wire(data["target"], "target"))
    if verb in _SINGLE:
        data = check_map(value, str(verb), ("verb", "card"))
        return _SINGLE[verb](card_from_wire(data["card"]))
    if verb == "take" or verb == "pass":
        check_map(value, verb, ("verb",))
        return Take() if verb == "take" else Pass()
    raise bad("action verb must be attack, throw, beat, transfer, show, take or pass")


# --- rules, results, series ------------------------------------------------------------


# Every view carries its rules: both directions are cached (rules are few and immutable).
_RULES_WIRE: dict[Rules, dict[str, Any]] = {}
_RULES_SEEN: dict[tuple[tuple[str, type, Any], ...], Rules] = {}


def rules_to_wire(rules: Rules) -> dict[str, Any]:
    data = _RULES_WIRE.get(rules)
    if data is None:
        if len(_RULES_WIRE) > 256:
            _RULES_WIRE.clear()
        data = _RULES_WIRE[rules] = rules.to_dict()
    return dict(data)


_RULES_KEYS = tuple(Rules().to_dict())


def rules_from_wire(value: Any) -> Rules:
    check_map(value, "rules", _RULES_KEYS)  # exactly the documented keys, no defaults
    key = None
    if all(type(v) in (int, str, bool) for v in value.values()):
        key = tuple((k, type(v), v) for k, v in value.items())
        rules = _RULES_SEEN.get(key)
        if rules is not None:
            return rules
    try:
        rules = Rules.from_dict(value)
    except RulesError as exc:
        raise bad(f"rules: {exc}") from None
    if key is not None:
        if len(_RULES_SEEN) > 256:
            _RULES_SEEN.clear()
        _RULES_SEEN[key] = rules
    return rules


@dataclass(frozen=True, slots=True)
class UnplayableRules:
    """Rules asked for in ``set_rules`` whose every option is well-typed and in range, but
    whose combination cannot be played (e.g. 24 cards for 6 players). Not a protocol error:
    the host refuses them (``rejected`` ``bad_rules``) and nothing changes."""

    options: tuple[tuple[str, Any], ...]  # the rules map as it came, in order
    reason: str  # why they cannot be played (the engine's words)

    def to_dict(self) -> dict[str, Any]:
        return dict(self.options)


_THROW_IN_VALUES = frozenset(rule.value for rule in ThrowInRule)


def requested_rules_from_wire(value: Any) -> Rules | UnplayableRules:
    """``set_rules.rules``: each option is checked (type and range: ``ProtocolError`` if
    bad); options that cannot be played together give ``UnplayableRules``, for the table."""
    data = check_map(value, "rules", _RULES_KEYS)
    check_int(data["players"], 2, MAX_SEATS, "rules players")
    if type(data["deck_size"]) is not int or data["deck_size"] not in DECK_SIZES:
        raise bad("rules deck_size must be 24, 36 or 52")
    if type(data["throw_in"]) is not str or data["throw_in"] not in _THROW_IN_VALUES:
        raise bad(f"rules throw_in must be one of {', '.join(sorted(_THROW_IN_VALUES))}")
    for key in _RULES_KEYS:
        if key not in ("players", "deck_size", "throw_in"):
            check_bool(data[key], f"rules {key}")
    try:
        return rules_from_wire(data)
    except ProtocolError as exc:
        reason = exc.text.removeprefix("rules: ")
        return UnplayableRules(tuple(data.items()), reason)


def requested_rules_to_wire(rules: Rules | UnplayableRules) -> dict[str, Any]:
    return rules.to_dict() if isinstance(rules, UnplayableRules) else rules_to_wire(rules)


def result_to_wire(result: GameResult) -> dict[str, Any]:
    return {"places": list(result.places), "durak": result.durak}


def result_from_wire(value: Any, players: int = MAX_SEATS) -> GameResult:
    data = check_map(value, "result", ("places", "durak"))
    places = check_list(data["places"], "result places", MAX_SEATS)
    if not 2 <= len(places) <= players:
        raise bad("result places must name a place for every seat")
    n = len(places)
    return GameResult(
        tuple(check_int(p, 1, n, "place") for p in places),
        None if data["durak"] is None else seat_of(data["durak"], "durak", n),
    )


def series_to_wire(series: Series) -> dict[str, Any]:
    return {
        "wins": list(series.wins),
        "losses": list(series.losses),
        "games": series.games,
        "draws": series.draws,
        "last": None if series.last is None else result_to_wire(series.last),
    }


def series_from_wire(value: Any, players: int) -> Series:
    data = check_map(value, "series", ("wins", "losses", "games", "draws", "last"))
    big = 2**31 - 1

    def counts(key: str) -> tuple[int, ...]:
        items = check_list(data[key], f"series {key}", players)
        if len(items) != players:
            raise bad(f"series {key} must have one count per seat")
        return tuple(check_int(x, 0, big, f"series {key}") for x in items)

    last = None if data["last"] is None else result_from_wire(data["last"], players)
    if last is not None and len(last.places) != players:
        raise bad("series last result must have one place per seat")
    return Series(
        counts("wins"),
        counts("losses"),
        check_int(data["games"], 0, big, "series games"),
        check_int(data["draws"], 0, big, "series draws"),
        last,
    )


# --- events ----------------------------------------------------------------------------

# name -> (class, ((field, encode, decode), ...)): the explicit table of event kinds.
_Enc = Callable[[Any], Any]
_Field = tuple[str, _Enc, Decoder]


def _ident(value: Any) -> Any:
    return value


_SEAT: tuple[_Enc, Decoder] = (_ident, seat_of)
_CARD: tuple[_Enc, Decoder] = (card_to_wire, card_from_wire)
_CARDS: tuple[_Enc, Decoder] = (cards_to_wire, cards_from_wire)
_COUNT: tuple[_Enc, Decoder] = (_ident, lambda v: check_int(v, 0, 52, "count"))
_OPT_CARDS: tuple[_Enc, Decoder] = (optional(cards_to_wire), optional(cards_from_wire))
_OPT_CARD: tuple[_Enc, Decoder] = (optional(card_to_wire), optional(card_from_wire))
_OPT_SEAT: tuple[_Enc, Decoder] = (_ident, optional(seat_of))
_BOOL: tuple[_Enc, Decoder] = (_ident, lambda v: check_bool(v, "shown"))
_LIMIT: tuple[_Enc, Decoder] = (_ident, lambda v: check_int(v, 0, 6, "limit"))
_PLACE: tuple[_Enc, Decoder] = (_ident, lambda v: check_int(v, 1, MAX_SEATS, "place"))
_RESULT: tuple[_Enc, Decoder] = (result_to_wire, result_from_wire)


def _fields(*pairs: tuple[str, tuple[_Enc, Decoder]]) -> tuple[_Field, ...]:
    return tuple((name, enc, dec) for name, (enc, dec) in pairs)


EVENTS: dict[str, tuple[type[Any], tuple[_Field, ...]]] = {
    "dealt": (Dealt, _fields(("seat", _SEAT), ("count", _COUNT), ("cards", _OPT_CARDS))),
    "trump_turned": (TrumpTurned, _fields(("card", _CARD), ("holder", _OPT_SEAT))),
    "first_attacker": (FirstAttacker, _fields(("seat", _SEAT), ("shown", _OPT_CARD))),
    "bout_started": (
        BoutStarted,
        _fields(("attacker", _SEAT), ("defender", _SEAT), ("limit", _LIMIT)),
    ),
    "attacked": (Attacked, _fields(("seat", _SEAT), ("cards", _CARDS))),
    "threw_in": (ThrewIn, _fields(("seat", _SEAT), ("card", _CARD))),
    "covered": (Covered, _fields(("seat", _SEAT), ("card", _CARD), ("target", _CARD))),
    "transferred": (
        Transferred,
        _fields(("seat", _SEAT), ("card", _CARD), ("to", _SEAT), ("shown", _BOOL)),
    ),
    "taking": (Taking, _fields(("seat", _SEAT))),
    "passed": (Passed, _fields(("seat", _SEAT))),
    "discarded": (Discarded, _fields(("cards", _CARDS))),
    "picked_up": (PickedUp, _fields(("seat", _SEAT), ("cards", _CARDS))),
    "drew": (Drew, _fields(("seat", _SEAT), ("count", _COUNT), ("cards", _OPT_CARDS))),
    "went_out": (WentOut, _fields(("seat", _SEAT), ("place", _PLACE))),
    "game_ended": (GameEnded, _fields(("result", _RESULT))),
}
_EVENT_NAMES: dict[type[Any], str] = {cls: name for name, (cls, _) in EVENTS.items()}
_EVENT_KEYS: dict[str, tuple[str, ...]] = {
    name: ("event", *(f[0] for f in fields)) for name, (_, fields) in EVENTS.items()
}


def event_to_wire(event: Event) -> dict[str, Any]:
    name = _EVENT_NAMES[type(event)]
    data: dict[str, Any] = {"event": name}
    for field, enc, _ in EVENTS[name][1]:
        data[field] = enc(getattr(event, field))
    return data


def event_from_wire(value: Any) -> Event:
    if type(value) is not dict or value.get("event") not in EVENTS:
        raise bad("event must be a map whose 'event' names a known event")
    name = value["event"]
    cls, fields = EVENTS[name]
    check_map(value, name, _EVENT_KEYS[name])
    event: Event = cls(**{field: dec(value[field]) for field, _, dec in fields})
    return event


# --- views -----------------------------------------------------------------------------

# The fields a seat's view and a watcher's public view share.
_PUBLIC_KEYS = (
    "rules",
    "phase",
    "trump_card",
    "stock",
    "discard",
    "hand_sizes",
    "known",
    "table",
    "attacker",
    "defender",
    "limit",
    "taking",
    "passed",
    "shown",
    "throwers",
    "places",
    "result",
)
_VIEW_KEYS = ("seat", "hand", "legal", "hints", *_PUBLIC_KEYS)


def _public_to_wire(view: SeatView | PublicView) -> dict[str, Any]:
    text = _CARD_TEXT
    return {
        "rules": rules_to_wire(view.rules),
        "phase": view.phase.value,
        "trump_card": text[view.trump_card.index],
        "stock": view.stock_size,
        "discard": view.discard_size,
        "hand_sizes": list(view.hand_sizes),
        "known": [[text[c.index] for c in cards] for cards in view.known],
        "table": [[text[a.index], None if d is None else text[d.index]] for a, d in view.table],
        "attacker": view.attacker,
        "defender": view.defender,
        "limit": view.limit,
        "taking": view.taking,
        "passed": list(view.passed),
        "shown": list(view.shown),
        "throwers": list(view.throwers),
        "places": list(view.places),
        "result": None if view.result is None else result_to_wire(view.result),
    }


def view_to_wire(view: SeatView) -> dict[str, Any]:
    text = _CARD_TEXT
    return {
        "seat": view.seat,
        "hand": [text[c.index] for c in view.hand],
        "legal": [action_to_wire(a) for a in view.legal],
        "hints": [[text[c.index], r.value] for c, r in view.hints],
        **_public_to_wire(view),
    }


def public_view_to_wire(view: PublicView) -> dict[str, Any]:
    return _public_to_wire(view)


def _table_from_wire(value: Any) -> tuple[tuple[Card, Card | None], ...]:
    pairs = []
    for pair in check_list(value, "table", 12):
        if type(pair) is not list or len(pair) != 2:
            raise bad("table must list [attack card, defence card or nil] pairs")
        pairs.append((card_from_wire(pair[0], "table"), optional(card_from_wire)(pair[1])))
    return tuple(pairs)


def _hints_from_wire(value: Any) -> tuple[tuple[Card, Reason], ...]:
    hints = []
    for pair in check_list(value, "hints", 52):
        if type(pair) is not list or len(pair) != 2 or pair[1] not in _REASONS:
            raise bad("hints must list [card, reason code] pairs")
        hints.append((card_from_wire(pair[0], "hint"), _REASONS[pair[1]]))
    return tuple(hints)


def _public_from_wire(data: dict[str, Any]) -> dict[str, Any]:
    """The shared fields of a checked view map, as keyword arguments of either view."""
    rules = rules_from_wire(data["rules"])
    n = rules.players
    if data["phase"] not in _PHASES:
        raise bad("view phase must be lead, open or over")
    trump_card = card_from_wire(data["trump_card"], "trump_card")
    hand_sizes = check_list(data["hand_sizes"], "hand_sizes", n)
    known = check_list(data["known"], "known", n)
    places = check_list(data["places"], "places", n)
    if len(hand_sizes) != n or len(known) != n or len(places) != n:
        raise bad("hand_sizes, known and places must have one entry per seat")
    result = data["result"]
    return {
        "rules": rules,
        "phase": _PHASES[data["phase"]],
        "trump": trump_card.suit,
        "trump_card": trump_card,
        "stock_size": check_int(data["stock"], 0, 52, "stock"),
        "discard_size": check_int(data["discard"], 0, 52, "discard"),
        "hand_sizes": tuple(check_int(s, 0, 52, "hand size") for s in hand_sizes),
        "known": tuple(cards_from_wire(k, "known") for k in known),
        "table": _table_from_wire(data["table"]),
        "attacker": seat_of(data["attacker"], "attacker", n),
        "defender": seat_of(data["defender"], "defender", n),
        "limit": check_int(data["limit"], 0, 6, "limit"),
        "taking": check_bool(data["taking"], "taking"),
        "passed": seats_of(data["passed"], "passed", n),
        "shown": seats_of(data["shown"], "shown", n),
        "throwers": seats_of(data["throwers"], "throwers", n),
        "places": tuple(check_int(p, 0, n, "place") for p in places),
        "result": None if result is None else result_from_wire(result, n),
    }


def view_from_wire(value: Any) -> SeatView:
    data = check_map(value, "view", _VIEW_KEYS)
    fields = _public_from_wire(data)
    hand = cards_from_wire(data["hand"], "hand")
    seat = seat_of(data["seat"], "seat", fields["rules"].players)
    if fields["hand_sizes"][seat] != len(hand):
        raise bad("the seat's hand size must match its hand")
    return SeatView(
        seat=seat,
        hand=hand,
        legal=tuple(action_from_wire(a) for a in check_list(data["legal"], "legal", MAX_LEGAL)),
        hints=_hints_from_wire(data["hints"]),
        **fields,
    )


def public_view_from_wire(value: Any) -> PublicView:
    return PublicView(**_public_from_wire(check_map(value, "public view", _PUBLIC_KEYS)))
