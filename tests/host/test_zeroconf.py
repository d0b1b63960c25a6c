"""Zeroconf on the loopback interface only (``interfaces=["127.0.0.1"]``): a table is
announced, the browser beneath ``durak list`` finds it with the right properties, sees an
update when a player joins, and sees the table vanish when the host shuts down. A table's
rules are read from their TXT keys, and hostile or malformed records are read safely."""

from __future__ import annotations

import argparse
import asyncio
import ipaddress
import os
import socket

import pytest
from live import serving
from zeroconf.asyncio import AsyncServiceInfo

from client.cli import bot
from client.cli.list_tables import list_tables
from client.net.client import NetClient
from engine import Rules, Series, ThrowInRule
from host import SERVICE_TYPE, HostConfig, TableAd, TableBrowser, run_in_thread, txt_properties
from host.announce import Announcer, instance_name, lan_addresses
from host.discovery import ad_from_info
from protocol import PROTOCOL_VERSION, Kick, Room, SeatInfo

WAIT = 20  # seconds: a safety net against hanging, not a timing assertion


async def change(browser: TableBrowser, kind: str, name: str) -> TableAd | None:
    while True:
        what, who, ad = await asyncio.wait_for(browser.changes.get(), WAIT)
        if what == kind and who == name:
            return ad


@pytest.mark.slow
async def test_a_table_is_announced_updated_and_withdrawn_on_loopback() -> None:
    rules = Rules(transfer=True)
    async with TableBrowser("127.0.0.1") as browser:
        async with serving(
            name="Küchentisch", seats=3, ai=("random",), rules=rules, announce=True
        ) as host:
            assert host.announcer is not None
            name = host.announcer.name
            assert name.endswith("." + SERVICE_TYPE)
            ad = await change(browser, "added", name)
            assert ad is not None
            assert (ad.name, ad.address, ad.port) == ("Küchentisch", "127.0.0.1", host.port)
            assert (ad.taken, ad.seats, ad.status, ad.password) == (1, 3, "lobby", False)
            assert ad.version == PROTOCOL_VERSION
            assert ad.rules == Rules(players=3, transfer=True).summary
            assert ad.game_rules == Rules(players=3, transfer=True)

            # What `durak list --bind 127.0.0.1` prints (its own browser, a TCP check).
            # Other tests' tables may be on loopback too (other workers): only ours is ours.
            lines = await list_tables("127.0.0.1", 2.5)
            [ours] = [line for line in lines if f"  127.0.0.1:{host.port}  " in line]
            assert "Küchentisch" in ours and "not reachable" not in ours

            client = await NetClient.connect("127.0.0.1", host.port, "Anna")
            while True:
                ad = await change(browser, "updated", name)
                if ad is not None and ad.taken == 2:
                    break
            await client.close()
        await change(browser, "removed", name)  # at once: the goodbye was sent
        assert name not in browser.tables


async def seats_taken(browser: TableBrowser, name: str, taken: int) -> None:
    """Until the browser reports the table ``name`` with ``taken`` seats taken."""
    while True:
        ad = await change(browser, "updated", name)
        if ad is not None and ad.taken == taken:
            return


@pytest.mark.slow
async def test_a_seat_freed_again_is_seen_by_the_browser() -> None:
    """Seats 1/3, 2/3 as Boris joins, then 1/3 again as the owner sends him away: the last
    is a TXT the browser held already (zeroconf reports only records it does not hold), and
    the Join list said "2/3 seats" until the table closed."""
    async with (
        TableBrowser("127.0.0.1") as browser,
        serving(name="Kitchen", seats=3, announce=True) as host,
    ):
        assert host.announcer is not None
        name = host.announcer.name
        await change(browser, "added", name)
        anna = await NetClient.connect("127.0.0.1", host.port, "Anna")
        await seats_taken(browser, name, 1)
        boris = await NetClient.connect("127.0.0.1", host.port, "Boris")
        await seats_taken(browser, name, 2)
        anna.send(Kick(99, boris.seat))  # (a ref of its own)
        await seats_taken(browser, name, 1)
        assert browser.tables[name].taken == 1
        await boris.close()
        await anna.close()


def test_txt_properties_and_instance_names() -> None:
    room = Room(
        name="Table",
        status="playing",
        owner=0,
        seats=(SeatInfo("human", "A", None, True), SeatInfo("empty")),
        rules=Rules(),
        password=True,
        autostart=False,
        series=Series.new(2),
        game=1,
    )
    props = txt_properties(room)
    assert props == {
        "name": "Table",
        "version": str(PROTOCOL_VERSION),
        "seats": "1/2",
        "rules": Rules().summary,
        "deck": "36",
        "throw_in": "all",
        "flags": "first_bout_five",
        "status": "playing",
        "password": "yes",
    }
    assert all(len(v.encode()) < 255 for v in props.values())
    assert instance_name("a.b") == "a b"
    assert len(instance_name("ж" * 100).encode()) <= 63


def _info(instance: str, **properties: str) -> AsyncServiceInfo:
    return AsyncServiceInfo(
        SERVICE_TYPE,
        f"{instance}.{SERVICE_TYPE}",
        port=4000,
        addresses=[socket.inet_aton("192.168.1.9")],
        properties=properties,
    )


def test_a_hostile_announcement_is_read_safely() -> None:
    """Anyone on the LAN can announce: digits that ``int`` refuses ("²" passes
    ``str.isdigit``) are no number, and no control character (terminal escape codes)
    reaches what ``durak list`` prints."""
    ad = ad_from_info(
        _info(
            "Evil\u202e\x85",
            version="\u00b2",
            seats="\u00b9/\u0663",
            rules="36 cards\x07\x1b]0;owned\x07",
            status="lobby\r",
            password="yes",
        )
    )
    assert ad is not None
    assert (ad.version, ad.taken, ad.seats) == (None, 0, 0)
    assert ad.password and ad.address == "192.168.1.9" and ad.port == 4000
    ad2 = ad_from_info(_info("Fine", name="Ev\x1b[31mil\x9b", version="1", seats="1/3"))
    assert ad2 is not None and (ad2.version, ad2.taken, ad2.seats) == (1, 1, 3)
    for shown in (ad, ad2):
        line = shown.line()
        assert line.isprintable() and "\x1b" not in line
        assert all(text.isprintable() for text in (shown.name, shown.rules, shown.status))
    assert ad.name.startswith("Evil") and ad.rules.startswith("36 cards")
    assert ad2.name.startswith("Ev") and ad2.name.endswith("il\N{REPLACEMENT CHARACTER}")


GOOD = {"seats": "1/3", "rules": "36 cards, throw-in all", "deck": "36", "throw_in": "all"}


def test_the_rules_keys_are_read_into_rules() -> None:
    every = Rules(
        players=4,
        deck_size=52,
        throw_in=ThrowInRule.NEIGHBOURS,
        first_bout_five=False,
        transfer=True,
        transfer_show_trump=True,
        durak_defends_first=True,
    )
    room = Room(
        name="T",
        status="lobby",
        owner=None,
        seats=(SeatInfo("empty"),) * 4,
        rules=every,
        password=False,
        autostart=False,
        series=Series.new(4),
        game=0,
    )
    props = txt_properties(room)
    assert (props["deck"], props["throw_in"]) == ("52", "neighbours")
    assert props["flags"] == "transfer,transfer_show_trump,durak_defends_first"
    ad = ad_from_info(_info("T", **props))
    assert ad is not None and ad.game_rules == every and ad.rules == every.summary
    bare = ad_from_info(_info("T", seats="0/2", deck="24", throw_in="all", flags=""))
    assert bare is not None and bare.game_rules == Rules(deck_size=24, first_bout_five=False)
    good = ad_from_info(_info("T", **GOOD, flags="transfer"))
    assert good is not None
    assert good.game_rules == Rules(players=3, first_bout_five=False, transfer=True)


@pytest.mark.parametrize(
    "changed",
    [
        {"deck": "35"},
        {"deck": "\u0663\u0666"},  # Arabic-Indic digits: no number
        {"deck": "-36"},
        {"deck": "24", "seats": "1/6"},  # 24 cards cannot be dealt to 6 players
        {"seats": "1/9"},
        {"seats": "junk"},
        {"throw_in": "everyone"},
        {"throw_in": "ALL"},
        {"flags": "transfer,teleport"},  # a flag this reader does not know
        {"flags": "transfer,transfer"},
        {"flags": "transfer_show_trump"},  # showing a trump needs transfer
        {"flags": " transfer"},
        {"flags": "transfer\x1b[31m"},
        {"flags": None},  # absent: an older host
        {"deck": None},
        {"throw_in": None},
    ],
)
def test_malformed_rules_keys_fall_back_to_the_summary(changed: dict[str, str | None]) -> None:
    properties = {**GOOD, "flags": "transfer", **changed}
    ad = ad_from_info(_info("T", **{k: v for k, v in properties.items() if v is not None}))
    assert ad is not None and ad.game_rules is None
    assert ad.rules == "36 cards, throw-in all"  # what a browser shows instead


def test_an_ad_keeps_every_address_its_own_subnets_first() -> None:
    info = AsyncServiceInfo(
        SERVICE_TYPE,
        f"Multi.{SERVICE_TYPE}",
        port=4000,
        parsed_addresses=["169.254.3.3", "10.0.0.1", "192.168.1.9"],
        properties={"name": "Multi"},
    )
    ad = ad_from_info(info, [ipaddress.IPv4Interface("192.168.1.20/24")])
    assert ad is not None and ad.reachable is None
    assert ad.addresses == ("192.168.1.9", "10.0.0.1", "169.254.3.3")
    assert ad.address == "192.168.1.9" and ad.candidates == ad.addresses


def test_a_host_announces_no_loopback_unless_it_is_all_there_is() -> None:
    assert lan_addresses("127.0.0.1") == ()
    assert lan_addresses("192.168.1.9") == ("192.168.1.9",)
    assert not any(ipaddress.ip_address(a).is_loopback for a in lan_addresses(""))
    assert Announcer("127.0.0.1", 4000, "T").addresses == ["127.0.0.1"]


@pytest.mark.slow
async def test_a_table_is_listed_at_the_address_that_answers() -> None:
    """Announced at 127.0.0.2 first (loopback too, but nothing listens there: refused)
    and at 127.0.0.1, where it listens: listed at 127.0.0.1, whatever the order of the
    answer. A table that answers at no address is listed with all of them, not reachable."""
    server = await asyncio.start_server(lambda r, w: w.close(), "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        dead = sock.getsockname()[1]  # (closed again below: nothing listens there)
    live = Announcer("127.0.0.1", port, "Live", addresses=["127.0.0.2", "127.0.0.1"])
    gone = Announcer("127.0.0.1", dead, "Gone", addresses=["127.0.0.2", "127.0.0.1"])
    try:
        await live.start({"name": "Live"})
        await gone.start({"name": "Gone"})
        lines = await list_tables("127.0.0.1", 2.5)
        [line] = [line for line in lines if line.startswith("Live")]
        assert f"  127.0.0.1:{port}  " in line and "not reachable" not in line
        [line] = [line for line in lines if line.startswith("Gone")]
        assert line.endswith("[not reachable]")
        assert f"127.0.0.2:{dead}" in line and f"127.0.0.1:{dead}" in line
    finally:
        await live.close()
        await gone.close()
        server.close()
        await server.wait_closed()


@pytest.mark.slow
def test_durak_bot_joins_a_table_it_is_given_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    """(The table's name is this process's own: tests on other cores announce tables on
    loopback too, "Kitchen" among them, and the bot would join whichever answered first.)"""
    name = f"Kitchen {os.getpid()}"
    config = HostConfig(name=name, seats=2, ai=("random",), ai_processes=False)
    with run_in_thread(config) as handle:
        parser = argparse.ArgumentParser()
        bot.add_arguments(parser)
        args = parser.parse_args(["--table", name, "--bind", "127.0.0.1", "--games", "1"])
        assert bot.run(args) == 0
        lines = capsys.readouterr().out.splitlines()
        assert lines[0] == f"durak bot: {name} is at 127.0.0.1:{handle.port}"
        assert lines[-1].startswith("1 game:")
        args = parser.parse_args(["--table", "Nowhere", "--bind", "127.0.0.1"])
        assert bot.run(args) == 1
        assert "no table called 'Nowhere'" in capsys.readouterr().out
