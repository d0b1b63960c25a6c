"""What the room of a table we host says about getting in: where others can reach it.

The invite link alone is not enough at a party. Where multicast does not pass (guest
Wi-Fi, a firewall that keeps mDNS out) nobody's Join list shows the table, and the other
players type what they read off the host's screen: so the room shows the host's LAN
addresses and its port as well as the link, which lists the same addresses
(``client.net.lan.invite_link``). A host only this machine can reach (bound to loopback,
or with no network) says so instead of showing 127.0.0.1, which would send the others to
their own machines.

The first time a machine hosts, Windows asks whether the program may use the network
(Cancel, or a network marked Public, hides the table from everyone) and macOS asks to find
devices on the local network: the room says what to answer, on the system it runs on; on
Linux, what a firewall must let in. A window narrower than ``FIREWALL_MIN_PX`` (a phone's)
has no room for that line beside six seats, and is not where a table is first hosted.
"""

from __future__ import annotations

import contextlib
import ipaddress
import sys

from client.i18n import Translator
from client.net.lan import parse_invite
from client.ui.render import GOLD, SOFT

__all__ = ["FIREWALL_MIN_PX", "share_lines"]

Colour = tuple[int, int, int]


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name
        return host == "localhost"


FIREWALL = {"win32": "room.firewall.win32", "darwin": "room.firewall.darwin"}
FIREWALL_MIN_PX = 480  # the window's smaller side from which the room has the firewall's line


def share_lines(
    invite: str,
    note: str,
    tr: Translator,
    *,
    firewall: bool = True,
    platform: str = sys.platform,
) -> list[tuple[str, Colour]]:
    """The room's lines about ``invite`` (our table's link; "" when we joined someone
    else's): the LAN addresses and the port, or that there is no LAN address; what this
    system's firewall asks (with ``firewall``); the link; ``note`` (e.g. that the link is
    on the clipboard)."""
    if not invite:
        return []
    lines = []
    with contextlib.suppress(ValueError):  # (our own link: it always parses)
        where = parse_invite(invite)
        lan = [host for host in where.hosts if not _loopback(host)]
        if lan:
            lines.append((tr("room.lan", addresses=", ".join(lan), port=where.port), SOFT))
            if firewall:
                asks = FIREWALL.get(platform, "room.firewall.other")
                lines.append((tr(asks, port=where.port), SOFT))
        else:
            lines.append((tr("room.no_lan", port=where.port), SOFT))
    lines.append((tr("room.invite", link=invite), GOLD))
    if note:
        lines.append((note, SOFT))
    return lines
