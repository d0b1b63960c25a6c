"""How a table is set up: its name, address, seats, AI players, rules and options."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine import Rules
from protocol import SILENCE_MS, WATCHERS

from .disk import RETRY

__all__ = ["ALL_INTERFACES", "LAN_HOLD", "HostConfig"]

# Seconds a LAN table (``durak host``, a table hosted from the window) holds a dropped
# player's seat before a stand-in plays it: a phone that sleeps a minute, a laptop whose
# Wi-Fi drops, come back to their place. (``HostConfig.hold`` is 0 for a game against the
# computer: nobody else waits there.)
LAN_HOLD = 60.0

ALL_INTERFACES = ""  # ``bind`` value: listen on every interface


@dataclass(frozen=True, slots=True)
class HostConfig:
    """A table's settings. ``rules.players`` is replaced by ``seats``.

    The library default binds to 127.0.0.1 (this machine only); ``durak host`` defaults to
    every interface, and zeroconf then uses the default interfaces too.

    ``ai`` lists host AI levels; they take the last seats, so humans join from seat 0.
    ``seed`` makes the deals reproducible (None: fresh ones); ``max_games`` stops
    ``autostart`` after that many games (None: never).

    Drops: a human who drops out mid-game keeps the seat for ``hold`` seconds (``durak
    host`` uses 60; 0: at once), then ``stand_in`` plays it until they return with their
    token. ``turn_timer`` (seconds; None: 60, ``PATIENCE``) makes the default move for a human seat
    that does not act in time. ``idle`` (seconds, None: never) frees the seat of a player
    who sits in the lobby that long without being ready (not the owner's). AI seats think
    in ``ai_workers`` worker processes (``host.workers``), or with ``ai_processes=False`` in
    as many threads of the host's process (for bots that exist only in this process, as
    tests' do). With ``save_dir`` the table is saved there after every change
    (``host.save.save_file``: one file per port); ``resume`` restores it from that file
    first (``accept_loss``: even when that drops moves of a damaged journal, or a game whose
    journal is missing; see ``host.resume``).

    A fair deal (docs/protocol.md section 15): before each deal the host sends every seated
    player its commitment and waits up to ``fair_wait`` seconds for their contributions
    (0: it deals at once, counting none). ``seed`` makes the secret reproducible only for a
    deal nobody is asked to contribute to (``host.dealer``): a secret a player could know
    beforehand would let them choose the deal.

    Liveness: a connection the host hears nothing from for ``silence`` seconds (it sends a
    ``heartbeat`` after a third of that) is treated as dropped, exactly like a closed one.

    Hostile clients: no ``hello`` within ``handshake_timeout`` seconds, more than
    ``rate_burst`` messages at once or ``rate`` per second on average, or a connection
    beyond ``max_connections``: that one connection is told why and closed. An address that
    opens more than ``connect_burst`` connections at once or ``connect_rate`` a second on
    average gets its further ones only in the door's reserve, where nothing but a seat's
    token is let in and a hello must come within ``reserve_timeout`` seconds (see
    ``host.admission``).

    A save that cannot be written (a full disk, a folder in the way) is tried again every
    ``save_retry`` seconds until it is (``host.disk``).
    """

    name: str = "Durak table"
    bind: str = "127.0.0.1"  # ALL_INTERFACES ("") for every interface (what `durak host` does)
    port: int = 0
    web_port: int | None = None  # the phones' page and WebSocket (0: any port; None: none)
    seats: int = 2
    ai: tuple[str, ...] = ()
    autostart: bool = False
    password: str | None = None
    rules: Rules = field(default_factory=Rules)
    announce: bool = True
    seed: int | None = None
    max_games: int | None = None
    stand_in: str = "random"  # plays for a human who dropped out mid-game until they return
    max_send_buffer: int = 1 << 20  # bytes queued for one client before it is dropped
    max_pending: int = 64  # messages of one client waiting for the table before reading pauses
    ai_workers: int = 2  # AI decisions at once (worker processes, or threads without them)
    ai_processes: bool = True  # AI seats think in worker processes (False: threads here)
    hold: float = 0.0  # seconds a dropped player's seat waits before the stand-in plays it
    turn_timer: float | None = None  # seconds per turn for humans; None: host.room.PATIENCE
    silence: float = SILENCE_MS / 1000  # seconds without a word before a client counts as gone
    idle: float | None = None  # seconds a player may sit unready in the lobby; None: ever
    watchers: int = WATCHERS  # how many may watch the table at once (0: nobody)
    save_dir: str | None = None  # save the table there after every change (None: never)
    resume: bool = False  # restore the table saved in save_dir
    accept_loss: bool = False  # resume past a damaged or missing journal (see host.resume)
    handshake_timeout: float = 10.0  # seconds to send hello
    rate: float = 100.0  # messages per second per connection, on average, while others wait
    rate_burst: int = 200  # messages a connection may send at once
    max_connections: int = 64  # open connections (players, spectators-to-be and strangers)
    connect_rate: float = 20.0  # new connections per address per second, on average
    connect_burst: int = 60  # new connections per address at once
    reserve_timeout: float = 2.0  # seconds to send hello from the door's reserve (section 13)
    save_retry: float = RETRY  # seconds between tries to write a save that failed
    fair_wait: float = 2.0  # seconds to wait for the players' contributions to a deal
