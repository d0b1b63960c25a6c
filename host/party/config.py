"""How a party is set up: its name, address, night and the timings of its rounds."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Rules
from protocol import SILENCE_MS, Night

__all__ = ["LINGER", "PARTY_PORT", "SERVICE_TYPE", "PartyConfig"]

PARTY_PORT = 45655
SERVICE_TYPE = "_durak-party._tcp.local."  # not _durak._tcp: a table browser lists no party
LINGER = 60.0  # seconds a table stays open after its game, for the reveal and a last look


@dataclass(frozen=True, slots=True)
class PartyConfig:
    """A party's settings. ``gather``: seconds a table waits for its players before it
    deals without those missing; ``hold``: seconds a player away from a game keeps the
    seat before a stand-in plays it; ``break_s``: seconds between rounds; ``start_with``:
    the first round starts by itself once that many players have joined (a party of
    bots; None: the organiser starts it); ``save_retry``: seconds between two tries of a
    party save the disk refused. AI players think in worker processes unless
    ``ai_processes`` is False (threads here: tests)."""

    name: str = "Durak party"
    bind: str = "127.0.0.1"
    port: int = 0
    web_port: int | None = None  # the phones' page of the party and its tables (None: none)
    setup: Night = field(default_factory=lambda: Night(Rules(players=4)))
    seed: int | None = None
    break_s: float = 30.0
    gather: float = 20.0
    hold: float = 60.0
    linger: float = LINGER
    announce: bool = True
    save_dir: str | None = None
    resume: bool = False
    ai_processes: bool = True
    fair_wait: float = 2.0
    turn_timer: float | None = None
    handshake_timeout: float = 10.0
    silence: float = SILENCE_MS / 1000  # a player or board silent this long is away
    start_with: int | None = None  # start the first round once this many have joined
    save_retry: float = 1.0
