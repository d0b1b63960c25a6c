"""What the window says when the host refuses a request, in the player's language.

The host answers a refused request with ``Rejected(code, text)``: ``text`` is its own
English. The code is an engine reason (``engine.Reason``: a card or move the rules do not
allow, looked up as ``reason.<code>``) or one of the host's own, about the room and the
game around the rules (``REFUSAL_KEYS``). A code this window does not know (a newer host)
shows the host's own words. The room screen and the table scene both say it this way.
"""

from __future__ import annotations

from engine import Reason

from .i18n import N_, Translator

__all__ = ["REFUSAL_KEYS", "refusal_text"]

# the host's own refusal codes (``host.table``: ``LOBBY_TEXT`` and every ``_reject``)
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
}
_REASON_CODES = frozenset(reason.value for reason in Reason)


def refusal_text(code: str, text: str, tr: Translator) -> str:
    """Why the host refused, in ``tr``'s language (``text`` for a code we do not know)."""
    if code in _REASON_CODES:
        return tr("reason." + code)
    key = REFUSAL_KEYS.get(code)
    return tr(key) if key is not None else text
