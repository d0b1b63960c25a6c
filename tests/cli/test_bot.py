"""``durak bot``'s player: how it paces its actions (``--think``)."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import cast

import pytest

from client.cli.bot_player import BotPlayer, BotReport
from client.cli.main import main
from client.net.client import NetClient
from engine import Action, GameResult, Rules, new_game, observe
from engine.ai import make_bot


class Client:
    """The bot's side of a connection: news that comes while it thinks, what it sends."""

    def __init__(self, news: list[int]) -> None:
        self.welcome = SimpleNamespace(room=None)
        self.seat = 0
        self.round_trips: list[float] = []
        self.news = news  # how many messages are waiting each time the bot looks
        self.acted: list[Action] = []

    @property
    def waiting(self) -> int:
        return self.news.pop(0)

    def act(self, action: Action) -> int:
        self.acted.append(action)
        return len(self.acted)


def thinking_bot(client: Client) -> BotPlayer:
    state = new_game(Rules(players=2), 7)
    player = BotPlayer(cast(NetClient, client), "random", 1, seed=1, think=0.001)
    seat = state.attacker
    player.view, player.view_seq = observe(state, seat), 1
    player.bot = make_bot("random", seat, state.rules, 1)
    return player


def test_a_bot_that_hears_news_while_thinking_does_not_act_on_the_old_view() -> None:
    client = Client(news=[1])
    asyncio.run(thinking_bot(client)._maybe_act())
    assert client.acted == []


def test_a_bot_acts_once_nothing_came_while_it_thought() -> None:
    client = Client(news=[0])
    player = thinking_bot(client)
    asyncio.run(player._maybe_act())
    assert player.view is not None and client.acted[0] in player.view.legal


@pytest.mark.parametrize("given", ["-1", "nan", "inf", "soon"])
def test_a_think_time_that_is_no_time_is_refused(
    given: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["bot", "--connect", "127.0.0.1:1", "--think", given])
    assert exit_.value.code == 2 and "--think" in capsys.readouterr().err


def test_the_bots_summary_counts_in_english() -> None:
    once = BotReport(0, "random", results=[GameResult((2, 1), 0)])
    assert once.lines()[-1] == "1 game: 0 first out, 1 time the Durak"
    twice = BotReport(1, "random", results=[GameResult((2, 1), 0)] * 2)
    assert twice.lines()[-1] == "2 games: 2 first out, 0 times the Durak"
