"""Party mode (docs/party.md, docs/protocol.md section 17): a night of rounds across
several tables served by one process.

The rules apart from any table or socket: how the games of a night score
(``standings``) and who sits with whom in the next round (``seat_round``), pure and
deterministic (a seed draws the first round), so that the party's host, its board and its
tests all ask the same code. The night's state is ``night``'s, its save ``store``'s; the
party host (``PartyHost``: the party's port, its announcement, each round's tables) is
``server``'s, the party's way of running a table ``tables``', and finding parties on the LAN
``discovery``'s.
"""

from .discovery import PartyAd, browse_parties
from .seating import Seating, seat_round, table_sizes
from .server import PARTY_PORT, SERVICE_TYPE, PartyConfig, PartyHost
from .standings import Figures, Game, Standing, figures, standings
from .store import PartySaveError

__all__ = [
    "PARTY_PORT",
    "SERVICE_TYPE",
    "Figures",
    "Game",
    "PartyAd",
    "PartyConfig",
    "PartyHost",
    "PartySaveError",
    "Seating",
    "Standing",
    "browse_parties",
    "figures",
    "seat_round",
    "standings",
    "table_sizes",
]
