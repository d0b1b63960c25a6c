"""``durak conformance --party`` against our own party host: every check of section 17
passes, and a party host that seats a player it should not is caught."""

from __future__ import annotations

import asyncio
import io
from dataclasses import replace

from client.cli.conformance.party import PartySuite
from engine import Rules
from host.party.night import NightState
from host.party.server import PartyConfig, PartyHost
from protocol import Night

# A silence of 3 s, not the protocol's 12: the suite waits for the party's first heartbeat
# (a third of the silence), which took 4 of each run's 5 s. Its clients answer every
# heartbeat as it comes (``PartyClient``), so a slow check does not make them away.
LOCAL = PartyConfig(
    setup=Night(Rules(players=4)),
    announce=False,
    ai_processes=False,
    fair_wait=0.5,
    silence=3.0,
)


def run_suite(host: PartyHost) -> tuple[list[str], str]:
    async def check() -> tuple[list[str], str]:
        out = io.StringIO()
        async with host:
            results = await PartySuite("127.0.0.1", host.port, out).run()
        return [r.name for r in results if not r.passed], out.getvalue()

    return asyncio.run(check())


def test_our_party_host_passes_every_check() -> None:
    failed, out = run_suite(PartyHost(LOCAL))
    assert failed == [], out
    assert out.count("ok   party:") >= 25


class Lenient(NightState):
    """A night that lets any number of players start, fill or not."""

    def start_refusal(self) -> tuple[str, str] | None:
        refusal = super().start_refusal()
        return None if refusal is not None and refusal[0] == "too_few" else refusal


def test_a_party_host_that_starts_with_too_few_players_fails_the_check() -> None:
    host = PartyHost(LOCAL)
    host.night = Lenient(host.night.name, host.night.setup, host.night.seed)
    failed, out = run_suite(host)
    assert "party: 3 players at tables of 2 unfilled: rejected too_few" in failed, out


def test_a_party_host_without_a_heartbeat_fails_the_check() -> None:
    """The party's port before version 6: no heartbeat, so a laptop that dropped off the
    Wi-Fi stayed "here" (and the organiser) until TCP gave up."""
    failed, out = run_suite(PartyHost(replace(LOCAL, silence=3600.0)))
    assert "party: a silent connection is sent heartbeat" in failed, out
