"""What the window says when the host refuses a request or a session ends, in the
player's language.

The host answers a refused request with ``Rejected(code, text)``: ``text`` is its own
English. The code is an engine reason (``engine.Reason``: a card or move the rules do not
allow, looked up as ``reason.<code>``) or one of the host's own, about the room and the
game around the rules (``REFUSAL_KEYS``). A session that ends says ``Closed(text, code)``
(``closed_text``): the Join and room screens word it as ``CLOSED_KEYS`` does, the table
in fewer words (``TABLE_CLOSED_KEYS``). A code this window does not know (a newer host)
shows the host's own words. The room screen and the table scene both say it this way.
"""

from __future__ import annotations

from collections.abc import Mapping

from client.i18n import N_, Translator
from engine import Reason

__all__ = ["CLOSED_KEYS", "REFUSAL_KEYS", "TABLE_CLOSED_KEYS", "closed_text", "refusal_text"]

# the host's own refusal codes (``host.lobby.REFUSALS`` and every ``_reject``)
REFUSAL_KEYS = {
    "not_owner": N_("room.not_owner"),
    "game_running": N_("room.game_running"),
    "no_game": N_("room.no_game"),
    "seats_empty": N_("room.seats_empty"),
    "seat_taken": N_("room.seat_taken"),
    "no_such_seat": N_("room.no_such_seat"),
    "unknown_level": N_("room.unknown_level"),
    "bad_rules": N_("room.bad_rules"),
    "not_ready": N_("room.not_ready"),
    "bad_contribution": N_("room.bad_contribution"),
    "contributed": N_("room.contributed"),
    "no_commitment": N_("room.no_commitment"),
    "watching": N_("room.watching"),
    "no_open_seat": N_("room.no_open_seat"),
}
_REASON_CODES = frozenset(reason.value for reason in Reason)
# why a session ended or a table would not seat us (``Closed.code``)
CLOSED_KEYS = {
    "unreachable": N_("join.unreachable"),
    "table_full": N_("join.full"),
    "bad_password": N_("join.bad_password"),
    "version_mismatch": N_("join.version"),
    "game_in_progress": N_("join.in_progress"),
    "closed": N_("closed.lost"),
    "kicked": N_("closed.kicked"),
    "left": N_("closed.left"),
    "idle": N_("closed.idle"),
    "throttled": N_("closed.throttled"),
    "watchers_full": N_("join.watchers_full"),
}
TABLE_CLOSED_KEYS = {
    "unreachable": N_("closed.unreachable"),
    "closed": N_("closed.lost"),
    "kicked": N_("closed.kicked"),
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
