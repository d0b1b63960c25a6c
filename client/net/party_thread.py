"""A party host beside the game window: ``host.party``'s ``PartyHost`` on an asyncio loop
of its own, in a daemon thread, as ``host.run_in_thread`` runs a table's host (the
window must not share its loop with a host: the host starved, measured there).

"Host a party" in the window starts one, then joins it as its first player (the
organiser); stopping the handle ends the night's tables and the party.
"""

from __future__ import annotations

from host.party.server import PartyConfig, PartyHost
from host.thread import ServerThread

__all__ = ["PartyHandle", "host_party"]


class PartyHandle(ServerThread[PartyHost]):
    """A running party host: ``.port``, ``.host``; ``stop()`` ends it and joins its thread."""

    def __init__(self, config: PartyConfig) -> None:
        super().__init__(lambda: PartyHost(config), "durak-party-host")
        self.config = config


def host_party(config: PartyConfig) -> PartyHandle:
    """Start a party host in a new thread; return once it takes connections (or raise
    what stopped it: ``OSError`` for a port in use)."""
    return PartyHandle(config).started()
