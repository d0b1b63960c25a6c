"""What the room of a table we host says about getting in: where others can reach it.

The invite link alone is not enough at a party. Where multicast does not pass (guest
Wi-Fi, a firewall that keeps mDNS out) nobody's Join list shows the table, and the other
players type what they read off the host's screen: so the room shows the host's LAN
addresses and its port as well as the link, which lists the same addresses
(``client.net.lan.invite_link``). A host only this machine can reach (bound to loopback,
or with no network) says so instead of showing 127.0.0.1, which would send the others to
their own machines.
"""

from __future__ import annotations

import contextlib
import ipaddress

from client.i18n import Translator
from client.net.lan import parse_invite
from client.ui.render import GOLD, SOFT

__all__ = ["share_lines"]

Colour = tuple[int, int, int]


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a name
        return host == "localhost"


def share_lines(invite: str, note: str, tr: Translator) -> list[tuple[str, Colour]]:
    """The room's lines about ``invite`` (our table's link; "" when we joined someone
    else's): the LAN addresses and the port, or that there is no LAN address; the link;
    ``note`` (e.g. that the link is on the clipboard)."""
    if not invite:
        return []
    lines = []
    with contextlib.suppress(ValueError):  # (our own link: it always parses)
        where = parse_invite(invite)
        lan = [host for host in where.hosts if not _loopback(host)]
        if lan:
            lines.append((tr("room.lan", addresses=", ".join(lan), port=where.port), SOFT))
        else:
            lines.append((tr("room.no_lan", port=where.port), SOFT))
    lines.append((tr("room.invite", link=invite), GOLD))
    if note:
        lines.append((note, SOFT))
    return lines
