"""Issue 22 on real adapters: a host with an adapter the players cannot reach, in Linux
network namespaces this test makes and deletes itself (never a real interface).

The party: a host namespace with two veth adapters, 10.0.0.1/16 towards a namespace of
its own (a VPN or a VM's bridge: unreachable for the players, and its address sorts
first) and 10.99.5.1/24 on the LAN, a bridge in a namespace of its own; a player
namespace at 10.99.5.2/24 on the LAN, whose default route leads nowhere (so 10.0.0.1
is not refused at once: it hangs, as a black-holed VPN address does). The host
(``durak host``) and the player (``durak list``, ``durak bot``) run as processes inside
their namespaces (``ip netns exec``), the player's zeroconf bound to its own address.

Before issue 22 the player listed the table at 10.0.0.1, "[not reachable]", in every
run here. Now it browses and joins ten times in a row at 10.99.5.1. Then the LAN's
bridge stops forwarding multicast (``mcast_flood off`` on its ports, as a guest Wi-Fi or
a strict switch does): nothing is listed, and the player joins by the typed address.

Needs root and ``ip netns`` (skipped with the reason otherwise).
"""

from __future__ import annotations

import os
import secrets
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PORT = 45111  # (each namespace has its own ports: no clash with anything else here)
RUNS = 10
WAIT = 120  # seconds for one command: a safety net against hanging, not a timing assertion

pytestmark = pytest.mark.slow


def _ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["ip", *args], capture_output=True, text=True, check=check, timeout=WAIT)


def _why_not() -> str | None:
    """Why namespaces cannot be made here, or None."""
    if not sys.platform.startswith("linux"):
        return "network namespaces are Linux's"
    if os.geteuid() != 0:
        return "making network namespaces needs root"
    if shutil.which("ip") is None:
        return "iproute2's ip is not installed"
    name = f"durak-probe-{secrets.token_hex(3)}"
    made = _ip("netns", "add", name, check=False)
    if made.returncode != 0:
        return f"ip netns is not available here: {made.stderr.strip()}"
    _ip("netns", "del", name, check=False)
    return None


@dataclass(frozen=True)
class Party:
    tag: str

    def ns(self, role: str) -> str:
        return f"durak-{role}-{self.tag}"

    def link(self, role: str) -> str:
        return f"dk{role}{self.tag}"  # at most 15 characters, as Linux wants

    def run(self, role: str, *command: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            self._exec(role, command), cwd=ROOT, capture_output=True, text=True, timeout=WAIT
        )

    def start(self, role: str, *command: str) -> subprocess.Popen[str]:
        return subprocess.Popen(
            self._exec(role, command),
            cwd=ROOT,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )

    def _exec(self, role: str, command: tuple[str, ...]) -> list[str]:
        return ["ip", "netns", "exec", self.ns(role), sys.executable, "-m", "client", *command]

    def multicast(self, on: bool) -> None:
        """Whether the LAN's bridge forwards multicast (mDNS) between its ports."""
        for port in ("sh", "sp"):
            flood = "on" if on else "off"
            _ip("-n", self.ns("lan"), "link", "set", "dev", self.link(port), "type",
                "bridge_slave", "mcast_flood", flood)  # fmt: skip


def _build(party: Party) -> None:
    ns, link = party.ns, party.link
    for role in ("host", "player", "away", "lan"):
        _ip("netns", "add", ns(role))
        _ip("-n", ns(role), "link", "set", "lo", "up")
    _ip("-n", ns("lan"), "link", "add", link("br"), "type", "bridge")
    pairs = [  # (namespace, its end, the peer's namespace, the peer's end)
        ("host", "l", "lan", "sh"),
        ("player", "p", "lan", "sp"),
        ("host", "u", "away", "v"),
    ]
    for here, end, there, peer in pairs:
        _ip("link", "add", link(end), "netns", ns(here), "type", "veth",
            "peer", "name", link(peer), "netns", ns(there))  # fmt: skip
    for port in ("sh", "sp"):
        _ip("-n", ns("lan"), "link", "set", link(port), "master", link("br"))
    for role, end, address in [
        ("host", "l", "10.99.5.1/24"),
        ("player", "p", "10.99.5.2/24"),
        ("host", "u", "10.0.0.1/16"),
        ("away", "v", "10.0.0.2/16"),
    ]:
        _ip("-n", ns(role), "addr", "add", address, "dev", link(end))
    for role, end in [("host", "l"), ("player", "p"), ("host", "u"), ("away", "v")]:
        _ip("-n", ns(role), "link", "set", link(end), "up")
    for port in ("sh", "sp", "br"):
        _ip("-n", ns("lan"), "link", "set", link(port), "up")
    # The player's way to 10.0.0.1 leads to a router that is not there: it hangs.
    _ip("-n", ns("player"), "route", "add", "default", "via", "10.99.5.254")


def _tear_down(party: Party) -> None:
    """Every process still in the namespaces (ours: nothing else runs there), then the
    namespaces, which takes their veth adapters and the bridge with them."""
    for role in ("host", "player", "away", "lan"):
        pids = _ip("netns", "pids", party.ns(role), check=False).stdout.split()
        for pid in pids:
            subprocess.run(["kill", pid], check=False)
        _ip("netns", "del", party.ns(role), check=False)


@pytest.fixture
def party() -> Iterator[Party]:
    reason = _why_not()
    if reason is not None:
        pytest.skip(reason)
    made = Party(secrets.token_hex(3))
    try:
        _build(made)
        yield made
    finally:
        _tear_down(made)


@pytest.fixture
def hosting(party: Party) -> Iterator[Party]:
    """The party with ``durak host`` running at 10.99.5.1 and 10.0.0.1 (every adapter of
    its namespace), a 2-seat table with one AI seat."""
    host = party.start(
        "host", "host", "--name", "Kitchen", "--seats", "2", "--ai", "random",
        "--port", str(PORT), "--no-save",
    )  # fmt: skip
    try:
        assert host.stdout is not None
        for line in host.stdout:
            if "listening on" in line:
                break
        else:
            raise AssertionError(f"the host did not start: {host.wait(WAIT)}")
        yield party
    finally:
        host.terminate()
        host.wait(WAIT)


def test_the_player_always_joins_at_the_lan_address(hosting: Party) -> None:
    lan = f"10.99.5.1:{PORT}"
    for _ in range(RUNS):  # the listing (2 s of listening) and the join side by side
        listing = hosting.start("player", "list", "--bind", "10.99.5.2", "--timeout", "2")
        joined = hosting.run(
            "player", "bot", "--table", "Kitchen", "--bind", "10.99.5.2", "--games", "1"
        )
        listed, _ = listing.communicate(timeout=WAIT)
        [line] = [line for line in listed.splitlines() if line.startswith("Kitchen")]
        assert f"  {lan}  " in line and "not reachable" not in line, listed
        assert joined.returncode == 0, joined.stdout + joined.stderr
        lines = joined.stdout.splitlines()
        assert lines[0] == f"durak bot: Kitchen is at {lan}", joined.stdout
        assert lines[-1].startswith("1 game:"), joined.stdout


def test_without_multicast_the_player_joins_by_the_typed_address(hosting: Party) -> None:
    hosting.multicast(False)
    listed = hosting.run("player", "list", "--bind", "10.99.5.2", "--timeout", "2")
    assert listed.stdout.strip() == "no tables found", listed.stdout
    joined = hosting.run("player", "bot", "--connect", f"10.99.5.1:{PORT}", "--games", "1")
    assert joined.returncode == 0, joined.stdout + joined.stderr
    assert joined.stdout.splitlines()[-1].startswith("1 game:"), joined.stdout
    hosting.multicast(True)  # and back: the table is found again
    listed = hosting.run("player", "list", "--bind", "10.99.5.2", "--timeout", "2")
    assert f"Kitchen  10.99.5.1:{PORT}  " in listed.stdout, listed.stdout
