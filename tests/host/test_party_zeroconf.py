"""A party is announced on loopback as a party (``_durak-party._tcp.local.``): the party
browser finds it with its TXT properties, and a browser of tables does not list it."""

from __future__ import annotations

import asyncio

import pytest

from engine import Rules
from host import browse
from host.party.discovery import browse_parties
from host.party.server import SERVICE_TYPE, PartyConfig, PartyHost
from protocol import PROTOCOL_VERSION, Night


@pytest.mark.slow
def test_a_party_is_announced_as_a_party_not_as_a_table() -> None:
    async def check() -> None:
        config = PartyConfig(
            name="Friday night", setup=Night(Rules(players=5)), announce=True, ai_processes=False
        )
        async with PartyHost(config) as host:
            assert host.announcer is not None
            assert host.announcer.name.endswith("." + SERVICE_TYPE)
            parties, tables = await asyncio.gather(
                browse_parties("127.0.0.1", 3.0), browse("127.0.0.1", 3.0, probe=False)
            )
        mine = [ad for ad in parties if ad.port == host.port]
        assert len(mine) == 1
        ad = mine[0]
        assert (ad.name, ad.address, ad.version) == ("Friday night", "127.0.0.1", PROTOCOL_VERSION)
        assert (ad.status, ad.round, ad.players, ad.size) == ("gathering", 0, 0, 5)
        assert all(table.port != host.port for table in tables)

    asyncio.run(check())
