"""Where a table screen is, one value given when the screen is made, and what the screen
offers there.

A game against the computer (a host in this process), a LAN table (handed over by the
room screen), a party's table (the party runs its room) and a kept game shown again are
the same screen; what differs is asked of ``Where`` and, at a hosted table, of the room's
rules every client shares with the host (``protocol.room_rules``), so the window offers
nothing the host would refuse:

- the pause stops the game's clock (``may_pause``): against the computer and in a replay
  always; at a LAN or party table when the host would (``pause_refusal``: alone with the
  AIs, and never at a party's table, whose clock is everyone's);
- End as a draw (``may_draw``): at a LAN or party table, when the host would take the
  owner's ``draw`` (``room_refusal``: the owner, in a game, of a room no party runs);
- leaving hands the seat to an AI for the rest of the game (``Where.hands_over``, said so
  in the pause), at a LAN table;
- the end's Rematch (``Where.rematch``): not at a party's table (the party seats the next
  round); React and the thinking cue (``Where.live``): not in a replay, where nobody
  thinks and nobody can be reacted to.

Screens ask the app for the table by the name that says where (``client.app.screens``):
"table" against the computer, "lan_table" from the room screen, "party_table" from the
party's; the replay screen makes its own.
"""

from __future__ import annotations

from enum import StrEnum

from protocol import Draw, Room, pause_refusal, room_refusal

__all__ = ["Where", "may_draw", "may_pause"]


class Where(StrEnum):
    COMPUTER = "computer"
    LAN = "lan"
    PARTY = "party"
    REPLAY = "replay"

    @property
    def hosted(self) -> bool:
        """A host's room decides (its rules shared with every client)."""
        return self in (Where.LAN, Where.PARTY)

    @property
    def hands_over(self) -> bool:
        """Leaving a game hands our seat to an AI (the host is told we left)."""
        return self is Where.LAN

    @property
    def rematch(self) -> bool:
        """The end offers another game here (a party seats the next round itself)."""
        return self is not Where.PARTY

    @property
    def live(self) -> bool:
        """The others play now: they think, and may be reacted to."""
        return self is not Where.REPLAY


def may_pause(where: Where, room: Room | None, seat: int) -> bool:
    """Whether our pause stops the game's clock (else the game goes on, and the pause
    offers "back in a minute")."""
    if not where.hosted:
        return True
    return room is not None and pause_refusal(room, seat) is None


def may_draw(where: Where, room: Room | None, seat: int) -> bool:
    """Whether we may end the game as a draw for everyone."""
    if not where.hosted or room is None:
        return False
    return room_refusal(room, seat, Draw(0), lambda level: True) is None
