"""The authoritative asyncio host: a table served over TCP, announced with zeroconf.

``Host(config)`` serves one table (``await host.start()`` / ``await host.stop()``);
``run_in_thread(config)`` runs one beside a game window; ``TableBrowser`` and ``browse``
find tables on the LAN. The wire protocol is in ``protocol`` and ``docs/protocol.md``.
"""

from .announce import SERVICE_TYPE, Announcer, lan_addresses, txt_properties
from .config import HostConfig
from .discovery import TableAd, TableBrowser, browse
from .server import Host
from .table import Table
from .thread import HostHandle, run_in_thread

__all__ = [
    "SERVICE_TYPE",
    "Announcer",
    "Host",
    "HostConfig",
    "HostHandle",
    "Table",
    "TableAd",
    "TableBrowser",
    "browse",
    "lan_addresses",
    "run_in_thread",
    "txt_properties",
]
