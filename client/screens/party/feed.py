"""The party's screens fed from a real party: its link (``client.net.party``) read into a
``PartyView``, and, for the board, a watcher at every table of the round.

What the party host sends is its whole state on every change (``protocol.Party``); this
turns it into what the screens print: ids into names, the standings' rows, the figures,
the round's tables with each seat's player (an AI seat gets a first name of the window's
``ai_names``: ``seat_names``) and, where a watcher is connected, the game as it is now. A
``party_table`` becomes a ``TableCall`` whose ``join`` sits at the table with the seat's
token, once the party's map of that round has come (the host sends it right after):
the table screen is given that table's AI names, so that it names each AI seat as the
board and the call ("with Anna, Oleg and Sasha") do.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Mapping, Sequence

from client.net.party_link import Lost, PartyLink
from client.net.session import AI_NAMES, RoomChanged, Session, Snapshot, drain, listen
from client.screens.choices import ai_names
from client.screens.party.model import (
    Figure,
    LiveTable,
    Longest,
    NightFigures,
    PartyView,
    Stage,
    StandingRow,
    TableCall,
)
from client.ui.scene import Director
from engine import GameResult, SeatView
from protocol import Joined, Party, PartyTable, PartyUpdate, Rejected, RoundTable

__all__ = ["STAGES", "NetFeed", "net_joiner", "open_board", "open_night", "party_view"]

STAGES = {
    "gathering": Stage.GATHERING,
    "playing": Stage.PLAYING,
    "break": Stage.BETWEEN,
    "over": Stage.OVER,
}

# how a screen joins a table: (address, port, name, token or None to watch, the names of
# its AI seats in seat order) -> a session
Joiner = Callable[[str, int, str, str | None, Sequence[str]], Session]


def net_joiner(look: int | None = None) -> Joiner:
    """Sit at (or, without a token, watch) a party's table through the protocol, seated
    with our badge (``look``) beside our name."""

    def join(address: str, port: int, name: str, token: str | None, ai: Sequence[str]) -> Session:
        from client.net.remote import NetSession

        watch = token is None
        return NetSession(
            address, port, name, token=token, rooms=True, ai_names=ai, watch=watch, look=look
        )

    return join


def seat_names(party: Party, ai_names: Sequence[str] = AI_NAMES) -> dict[int, tuple[str, ...]]:
    """Each table of the round in play (by index): its seats' names. A player by name;
    the AI seats, table by table, by the next of ``ai_names`` that no player of the party
    has (no two alike while there are names enough)."""
    names = {player.id: player.name for player in party.players}
    taken = set(names.values())
    free = [name for name in ai_names if name not in taken] or [f"AI {n}" for n in range(1, 7)]
    ai = itertools.cycle(free)
    return {
        table.table: tuple(names[who] if who is not None else next(ai) for who in table.seats)
        for table in party.tables
    }


def open_board(app: Director, address: str, port: int) -> None:
    """The board of the party at ``address:port``, full screen."""
    names = ai_names(app.tr)
    watcher = app.tr("party.board")[:24]
    link = PartyLink(address, port, watcher, board=True)
    feed = NetFeed(link, watcher, net_joiner(), watch=True, ai_names=names)
    app.show("party_board", feed=feed)


def open_night(
    app: Director,
    address: str,
    port: int,
    name: str,
    stop: Callable[[], None] | None = None,
    invite: str | None = None,
    *,
    token: str | None = None,
    keep: Callable[[str], None] | None = None,
) -> None:
    """Join the party at ``address:port`` as ``name`` (``token``: as the player it
    names) and show its standings between rounds (``stop``: the party host this window
    started, ended with it; ``invite``: where the others join it, shown while it
    gathers; ``keep``: told our token once the party gives it)."""
    names = ai_names(app.tr)
    link = PartyLink(address, port, name, token=token)
    look = app.settings.look
    join = net_joiner(look)
    feed = NetFeed(link, name, join, ai_names=names, on_close=stop, on_joined=keep, look=look)
    app.show("party_night", feed=feed, me=name, invite=invite)


def party_view(
    party: Party,
    me: int | None,
    watched: dict[tuple[int, int], SeatView],
    ai_names: Sequence[str] = AI_NAMES,
    elapsed: float = 0.0,
    looks: Mapping[str, int] | None = None,
) -> PartyView:
    """``party`` as the screens show it to player ``me`` (None: a board), ``elapsed``
    seconds after it was sent (its clocks run on); ``watched``: the latest view of each
    table (round, table) a watcher follows; ``looks``: the badges known, by name (the
    party does not send them: each table's room does)."""
    looks = looks or {}
    names = {player.id: player.name for player in party.players}
    standings = tuple(
        StandingRow(
            p.rank,
            p.name,
            p.wins - p.losses,
            p.wins,
            p.losses,
            p.games,
            p.id == me,
            p.status == "left",
            looks.get(p.name),
        )
        for p in party.players
    )
    figures = party.figures
    longest = figures.longest
    night = NightFigures(
        Figure(tuple(names[i] for i in figures.most_durak), figures.durak_times)
        if figures.most_durak
        else None,
        None if longest is None else Longest(longest.round, longest.table + 1, longest.actions),
        None
        if figures.fastest is None
        else Figure((names[figures.fastest[0]],), figures.fastest[1]),
    )
    seats = seat_names(party, ai_names)
    tables = tuple(
        _table(table, seats[table.table], watched.get((party.round, table.table)), looks)
        for table in party.tables
    )

    def ms(value: int | None, way: int) -> float | None:
        return None if value is None else max(0.0, value / 1000 + way * elapsed)

    return PartyView(
        party.name,
        STAGES[party.status],
        party.round,
        party.setup.rounds,
        standings,
        tables,
        night,
        party.final,
        ms(party.round_ms, 1) or 0.0,
        ms(party.left_ms, -1),
        me is not None and party.organiser == me,
        ms(party.next_ms, -1),
        party.unsaved and me is not None and party.organiser == me,
    )


def _table(
    table: RoundTable, seats: tuple[str, ...], view: SeatView | None, looks: Mapping[str, int]
) -> LiveTable:
    result = None
    if table.status == "done" and table.places is not None:
        result = GameResult(table.places, table.durak)
    if view is not None and view.players != len(seats):
        view = None  # (not this table's game)
    flags = tuple(who is None for who in table.seats)
    badges = tuple(None if ai else looks.get(name) for name, ai in zip(seats, flags, strict=True))
    return LiveTable(table.table + 1, seats, flags, view, result, badges)


class NetFeed:
    """A ``Feed`` read from ``link``: a player's (``watch`` False) or a board's (``watch``
    True: a watcher at every table being played)."""

    def __init__(
        self,
        link: PartyLink,
        name: str,
        join: Joiner,
        *,
        watch: bool = False,
        ai_names: Sequence[str] = AI_NAMES,
        on_close: Callable[[], None] | None = None,
        on_joined: Callable[[str], None] | None = None,
        look: int | None = None,
    ) -> None:
        """``on_close``: what closing the feed also ends (the party host we started);
        ``on_joined``: told our player's token each time the party takes us in;
        ``look``: our badge."""
        self.link = link
        self.on_close = on_close
        self.on_joined = on_joined
        self.name = name
        self.join = join
        self.watch = watch
        self.ai_names = tuple(ai_names)
        self.player: int | None = None
        self.party: Party | None = None
        self.problem: str | None = None
        self.refused: Rejected | None = None  # the party's last refusal of our request
        self.watchers: dict[tuple[int, int], Session] = {}
        self.watched: dict[tuple[int, int], SeatView] = {}
        self.calls: list[TableCall] = []
        self._called: list[PartyTable] = []  # tables we are called to, before their round's map
        self._changed = False
        self._heard = 0.0  # when the party map came (time.monotonic)
        self._wake: Callable[[], None] | None = None
        # the badges known by name: ours, and those the watched tables' rooms show
        self.looks: dict[str, int] = {} if look is None else {name: look}

    def listen(self, wake: Callable[[], None]) -> None:
        """The party's news and, for a board, each watched table's wake the window."""
        self._wake = wake
        listen(self.link.inbox, wake)
        for session in self.watchers.values():
            listen(session.inbox, wake)

    def poll(self) -> PartyView | None:
        self.poll_link()
        if self.watch:
            self._follow()
        if not self._changed or self.party is None:
            return None
        self._changed = False
        elapsed = time.monotonic() - self._heard
        return party_view(self.party, self.player, self.watched, self.ai_names, elapsed, self.looks)

    def call(self) -> TableCall | None:
        self.poll_link()
        return self.calls.pop(0) if self.calls else None

    def poll_link(self) -> None:
        """Take what the link has said (``poll`` does it too)."""
        for message in drain(self.link.inbox):
            self._take(message)
        self._calls()

    def start(self) -> None:
        self.link.start()

    def leave(self) -> None:
        self.link.leave()

    def refusal(self) -> str | None:
        refused, self.refused = self.refused, None
        return None if refused is None else refused.reason

    def close(self) -> None:
        for session in self.watchers.values():
            session.close()
        self.watchers.clear()
        self.link.close()
        if self.on_close is not None:  # (a host winds its tables down: not on the window)
            threading.Thread(target=self.on_close, name="durak-party-stop", daemon=True).start()
            self.on_close = None

    def _take(self, message: object) -> None:
        if isinstance(message, Joined | PartyUpdate):
            if isinstance(message, Joined):
                self.player = message.player
                if message.token is not None and self.on_joined is not None:
                    self.on_joined(message.token)
            self.party, self._changed = message.party, True
            self._heard = time.monotonic()
        elif isinstance(message, PartyTable):
            self._called.append(message)
        elif isinstance(message, Rejected):
            self.refused = message
        elif isinstance(message, Lost):
            self.problem, self._changed = message.text or message.code, True

    def _calls(self) -> None:
        """The tables we are called to become calls once the party's map of their round
        has come (which names their AI seats); a call of an earlier round is dropped."""
        party, waiting = self.party, []
        for table in self._called:
            if party is None or party.round < table.round:
                waiting.append(table)
            elif party.round == table.round:
                self.calls.append(self._call(table, seat_names(party, self.ai_names)))
        self._called = waiting

    def _call(self, table: PartyTable, seats: dict[int, tuple[str, ...]]) -> TableCall:
        named = seats.get(table.table)
        if named is None:  # (not on the party's map: the window's names in turn)
            turn = iter(self.ai_names * 6)
            named = tuple(name if name is not None else next(turn) for name in table.names)
        others = tuple(name for seat, name in enumerate(named) if seat != table.seat)
        ai = tuple(name for name, who in zip(named, table.names, strict=True) if who is None)
        address, name = self.link.address, self.name

        def join() -> Session:
            return self.join(address, table.port, name, table.token, ai)

        return TableCall(table.round, table.table + 1, others, join)

    def _follow(self) -> None:
        """A watcher at every table being played this round, none at the others."""
        party = self.party
        wanted = set()
        if party is not None:
            wanted = {(party.round, t.table) for t in party.tables if t.status == "playing"}
            seats = seat_names(party, self.ai_names)
            for table in party.tables:
                key = (party.round, table.table)
                if key in wanted and key not in self.watchers:
                    ai = tuple(
                        name
                        for name, who in zip(seats[table.table], table.seats, strict=True)
                        if who is None
                    )
                    address = self.link.address
                    watcher = self.join(address, table.port, self.name, None, ai)
                    self.watchers[key] = watcher
                    if self._wake is not None:
                        listen(watcher.inbox, self._wake)
        for key in [key for key in self.watchers if key not in wanted]:
            self.watchers.pop(key).close()
        for key, session in self.watchers.items():
            for message in drain(session.inbox):  # (a table's end: the party's next map)
                if isinstance(message, Snapshot):
                    self.watched[key], self._changed = message.view, True
                elif isinstance(message, RoomChanged):
                    for seat in message.room.seats:
                        if seat.kind == "human" and seat.look is not None:
                            self.looks[seat.name], self._changed = seat.look, True
