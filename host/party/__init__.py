"""Party mode's rules, apart from any table or socket: how the games of a night score
(``standings``), and who sits with whom in the next round (``seat_round``). Pure and
deterministic (a seed draws the first round), so the party's host, its board and its
tests all ask the same code. The scoring is written down in docs/party.md.
"""

from .seating import Seating, seat_round, table_sizes
from .standings import Figures, Game, Standing, figures, standings

__all__ = [
    "Figures",
    "Game",
    "Seating",
    "Standing",
    "figures",
    "seat_round",
    "standings",
    "table_sizes",
]
