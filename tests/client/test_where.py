"""The table screen knows where it is from one value (client.screens.table.where): against
the computer, at a LAN table, at a party's table or in a replay. Driven with each, in a
game and with the rooms a host could show it, the screen offers what the host would take
and nothing it would refuse: the pause stops the clock only where ``pause_refusal``
allows it, End as a draw only where ``room_refusal`` takes the owner's draw, and the end
offers Rematch and React only where they mean something."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from tables import SIZE, deal, scene, settle

from client.app import App
from client.net.scripted import ScriptedSession
from client.net.session import RoomChanged
from client.screens.table.overlays import PauseKind
from client.screens.table.panels import PauseScene
from client.screens.table.screen import TableScene
from client.screens.table.where import Where
from client.settings import Settings
from engine import Rules, Series
from protocol import Draw, Room, SeatInfo, pause_refusal, room_refusal

pytestmark = pytest.mark.usefixtures("headless")

US, AI, ANNA = (
    SeatInfo("human", "You", None, True),
    SeatInfo("ai", "Boris"),
    SeatInfo("human", "Anna"),
)
ALONE = Room("T", "playing", 0, (US, AI), Rules(players=2), False, False, Series.new(2), 1)
ROOMS = {
    "alone, our room": ALONE,
    "with Anna, our room": replace(ALONE, seats=(US, ANNA)),
    "with Anna, hers": replace(ALONE, seats=(US, ANNA), owner=1),
    "alone, a party's": replace(ALONE, run_by="party"),
}
SCREENS = {Where.COMPUTER: "table", Where.LAN: "lan_table", Where.PARTY: "party_table"}
# (pause stops the clock, End as a draw) for each room at a hosted table
HOSTED = {
    "alone, our room": (True, True),
    "with Anna, our room": (False, True),
    "with Anna, hers": (False, False),
    "alone, a party's": (False, False),
}


def pause_at(where: Where, room: Room, tmp_path: Path) -> tuple[PauseKind, set[str]]:
    """The pause the table opens at ``where``, told ``room``, and its end's actions."""
    app = App(Settings(), None, size=SIZE, sound=False)
    state = deal(Rules(players=2), "6s 7h 8h 9d Tc Jc", "7s 8c 9h Td Qd Kh")
    session = ScriptedSession(state, names=["You", "Boris"])
    if where is Where.REPLAY:  # (the replay screen's own table)
        app.push(TableScene(app, session, where=where))
    else:  # as the start, room and party screens ask the app for it
        options = {"back": lambda told: None} if where is Where.LAN else {}
        app.show(SCREENS[where], session=session, **options)
    session.inbox.put(RoomChanged(room))
    settle(app)
    table = scene(app)
    table.actions["menu"]()
    pause = app.stack[-1]
    assert isinstance(pause, PauseScene)
    kind = pause.kind()
    app.close()
    return kind, set(table.actions)


@pytest.mark.parametrize("where", list(Where))
def test_the_table_offers_what_the_host_would_take_where_it_is(
    where: Where, tmp_path: Path
) -> None:
    for label, room in ROOMS.items():
        kind, actions = pause_at(where, room, tmp_path)
        if where.hosted:
            clock, draw = HOSTED[label]
            assert clock == (pause_refusal(room, 0) is None)  # (the shared rules agree)
            assert draw == (room_refusal(room, 0, Draw(1), lambda level: True) is None)
        else:  # a host of ours, or nobody: the clock stops, nobody ends it for others
            clock, draw = True, False
        assert (kind.alone, kind.owner) == (clock, draw), (where, label)
        assert kind.mark == (not clock)  # else "back in a minute" for the others
        assert kind.lan == (where is Where.LAN)  # leaving hands the seat to an AI
        assert ("rematch" in actions) == (where is not Where.PARTY)
        assert ("emote" in actions) == (where is not Where.REPLAY)
