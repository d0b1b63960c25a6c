"""A party's table: an ordinary table of today's protocol (``host.table``, served by a
``host.server.Host``) run by the party (``party_policy``, a ``host.policy.TablePolicy``):
its seats are held for the round's players by token, it starts its one game when they are
all there (or after ``gather`` seconds without the missing), and it tells the party its
result.

What differs from a table someone hosts, and why:

- **Seats held by token.** Each seat of a party player is taken before anyone connects,
  with the hash of the token the party gives that player (``Reserved``), exactly as a
  resumed table holds its seats: a ``hello`` with the token gets the seat, nobody else can
  take it, and a player who connects and drops again in the lobby keeps it (an ordinary
  lobby frees it: a party table has no lobby to come back to).
- **The start.** The table is ``autostart`` for one game: it deals once every seat is
  connected. A player who has not come after ``gather`` seconds (a sleeping laptop) does
  not hold up the table: the game starts, their seat held for ``hold`` seconds and then
  stood in for, as for any player who drops (docs/protocol.md section 10); they can come
  in with their token at any time. A seat freed in the lobby (its player sent ``leave``)
  is played by a stand-in for the game.
- **No owner.** The party runs the table (the room's ``run_by`` is "party"): the owner's
  commands (rules, seats, options, start, kick, replace, draw) and the pause are refused
  ``party_table`` (``protocol.room_rules``, which the window asks too), so no player can
  change a table the night scores, send another player away from it, or stop the night's
  clock.
- **The result.** When the game ends, ``on_result`` is told its result and what the
  party's figures need (``host.policy.Finished``): how many actions it took, and after how
  many each seat went out (replayed from the game's log, a few milliseconds), once the
  table's journal has the end and its players have been sent it. A table resumed after its
  game ended (the host was killed before the party heard) reports it as it opens.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..policy import Finished, Reserved, TablePolicy

__all__ = ["party_policy"]


def party_policy(
    reserved: Sequence[Reserved | None], on_result: Callable[[Finished], None], gather: float
) -> TablePolicy:
    """The party's way of running a table (see the module docstring)."""
    return TablePolicy(
        run_by="party",
        reserved=tuple(reserved),
        keep_lobby_seat=True,
        gather=gather,
        on_result=on_result,
    )
