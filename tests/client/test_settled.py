"""A view is ours to act on only once it shows our last action: while an action is being
answered, and until the update its ack names has come, the session says its views are not
settled, so the table keeps the action pending instead of acting on an older view
(docs/protocol.md section 8)."""

from __future__ import annotations

import socket

from client.net.remote import NetSession
from client.net.session import Snapshot, drain
from engine import Rules, new_game, observe
from protocol import Ack, Update


def views(session: NetSession) -> list[bool]:
    """Whether each snapshot put since the last look was settled."""
    return [m.settled for m in drain(session.inbox) if isinstance(m, Snapshot)]


def a_session() -> NetSession:
    with socket.socket() as probe:  # a port nobody listens on: the session stays offline
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    session = NetSession("127.0.0.1", port, "Anna")
    session.close()
    drain(session.inbox)
    return session


def test_views_before_our_actions_update_are_not_settled() -> None:
    session = a_session()
    view = observe(new_game(Rules(players=2), 1), 0)
    session.inflight.ref = 7  # we acted (ref 7)
    session._translate(Update(1, 10, (), view))  # another seat's action, before ours
    assert views(session) == [False]
    session._translate(Ack(7, 11))  # ours became update 11
    session._translate(Update(1, 11, (), view))
    assert views(session) == [True]


def test_an_update_that_comes_before_its_ack_is_settled_by_the_ack() -> None:
    session = a_session()
    view = observe(new_game(Rules(players=2), 1), 0)
    session.inflight.ref = 3
    session._translate(Update(2, 5, (), view))  # our own action's update, then its ack
    assert views(session) == [False]
    session._translate(Ack(3, 5))
    assert views(session) == [True]  # the same view again, now ours to act on
