"""The page speaks the host's protocol version: a page a version behind is refused at
every table (goodbye ``version_mismatch``), which only the browser tests would otherwise
show, and only where Chromium is installed."""

from __future__ import annotations

import re

from phone import ROOT

from protocol import PROTOCOL_VERSION

PROTO = ROOT / "assets" / "web" / "src" / "proto.ts"


def test_the_page_says_the_hosts_protocol_version() -> None:
    source = PROTO.read_text(encoding="utf-8")
    found = re.search(r"export const PROTOCOL_VERSION = (\d+);", source)
    assert found is not None, f"{PROTO.relative_to(ROOT)} names no PROTOCOL_VERSION"
    assert int(found.group(1)) == PROTOCOL_VERSION
