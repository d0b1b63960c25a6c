"""What the window says when the host refuses a request or a session ends, in the
player's language.

The host answers a refused request with ``Rejected(code, text)``: ``text`` is its own
English. The code is an engine reason (``engine.Reason``: a card or move the rules do not
allow, looked up as ``reason.<code>``) or one of the host's own, about the room and the
game around the rules (``protocol.Refusal``, each worded by ``REFUSAL_KEYS``). A session
that ends says ``Closed(text, code)`` (``closed_text``): the Join and room screens word it
as ``CLOSED_KEYS`` does, the table in fewer words (``TABLE_CLOSED_KEYS``). A code this
window does not know (a newer host) shows the host's own words. The room screen and the
table scene both say it this way.
"""

from __future__ import annotations

from collections.abc import Mapping

from client.i18n import N_, Translator
from engine import Reason
from protocol import Refusal

__all__ = [
    "CLOSED_KEYS",
    "PARTY_REFUSAL_KEYS",
    "REFUSAL_KEYS",
    "TABLE_CLOSED_KEYS",
    "closed_text",
    "refusal_text",
]

# the host's own refusal codes (``protocol.Refusal``): a key for every one
REFUSAL_KEYS: dict[str, str] = {
    Refusal.NOT_OWNER: N_("room.not_owner"),
    Refusal.GAME_RUNNING: N_("room.game_running"),
    Refusal.NO_GAME: N_("room.no_game"),
    Refusal.SEATS_EMPTY: N_("room.seats_empty"),
    Refusal.SEAT_TAKEN: N_("room.seat_taken"),
    Refusal.NO_SUCH_SEAT: N_("room.no_such_seat"),
    Refusal.UNKNOWN_LEVEL: N_("room.unknown_level"),
    Refusal.BAD_RULES: N_("room.bad_rules"),
    Refusal.NOT_READY: N_("room.not_ready"),
    Refusal.BAD_CONTRIBUTION: N_("room.bad_contribution"),
    Refusal.CONTRIBUTED: N_("room.contributed"),
    Refusal.NO_COMMITMENT: N_("room.no_commitment"),
    Refusal.WATCHING: N_("room.watching"),
    Refusal.NO_OPEN_SEAT: N_("room.no_open_seat"),
    Refusal.SEATED: N_("room.seated"),
    Refusal.NOT_ALONE: N_("room.not_alone"),
    Refusal.PAUSED: N_("room.paused"),
    Refusal.PARTY_TABLE: N_("room.party_table"),
}
# a party host's refusals on the party's own port (docs/protocol.md section 17)
PARTY_REFUSAL_KEYS: dict[str, str] = {
    "not_organiser": N_("party.refused.not_organiser"),
    "started": N_("party.refused.started"),
    "bad_rules": N_("party.refused.bad_rules"),
    "unknown_level": N_("party.refused.unknown_level"),
    "too_few": N_("party.refused.too_few"),
    "round_running": N_("party.refused.round_running"),
    "over": N_("party.refused.over"),
    "board": N_("party.refused.board"),
}
_REASON_CODES = frozenset(reason.value for reason in Reason)
# why a session ended or a table would not seat us (``Closed.code``)
CLOSED_KEYS = {
    "unreachable": N_("join.unreachable"),
    "table_full": N_("join.full"),
    "bad_name": N_("join.bad_name"),
    "bad_password": N_("join.bad_password"),
    "version_mismatch": N_("join.version"),
    "game_in_progress": N_("join.in_progress"),
    "closed": N_("closed.lost"),
    "kicked": N_("closed.kicked"),
    "left": N_("closed.left"),
    "idle": N_("closed.idle"),
    "throttled": N_("closed.throttled"),
    "watchers_full": N_("join.watchers_full"),
    "shutdown": N_("closed.shutdown"),
    "replaced": N_("closed.replaced"),
    "bad_token": N_("closed.bad_token"),
    "busy": N_("closed.busy"),
    "rate_limited": N_("closed.rate_limited"),
}
TABLE_CLOSED_KEYS = {
    "unreachable": N_("closed.unreachable"),
    "closed": N_("closed.lost"),
    "kicked": N_("closed.kicked"),
    "shutdown": N_("closed.shutdown"),
    "replaced": N_("closed.replaced"),
}


def refusal_text(code: str, text: str, tr: Translator) -> str:
    """Why the host refused, in ``tr``'s language (``text`` for a code we do not know)."""
    if code in _REASON_CODES:
        return tr("reason." + code)
    key = REFUSAL_KEYS.get(code)
    return tr(key) if key is not None else text


def closed_text(code: str, text: str, tr: Translator, keys: Mapping[str, str] = CLOSED_KEYS) -> str:
    """Why a session ended, in ``tr``'s language (``text`` for a code ``keys`` lacks)."""
    key = keys.get(code)
    return tr(key) if key is not None else text
