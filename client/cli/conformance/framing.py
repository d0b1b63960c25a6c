"""Sections 1 and 7: the frame and its decoding. Every check opens a fresh connection,
sends one malformed frame or hello and expects the goodbye the document names, so that a
host which crashes, hangs or answers a wrong code on bad input is caught before anything
depends on its connections."""

from __future__ import annotations

import msgpack  # type: ignore[import-untyped]

from client.cli.conformance.session import Session, packed
from protocol import PROTOCOL_VERSION, frame


async def framing(s: Session) -> None:
    ping = b"\xa4type\xa4ping\xa3ref\x01"
    await s.refused(
        "a length over 65536 is frame_too_large at once",
        (65537).to_bytes(4, "big"),
        "frame_too_large",
    )
    await s.refused("an empty frame is bad_frame", bytes(4), "bad_frame")
    await s.refused("bytes that are not msgpack are bad_frame", frame(b"\xc1"), "bad_frame")
    await s.refused(
        "trailing bytes after the object are bad_frame",
        frame(b"\x82" + ping + b"\xc0"),
        "bad_frame",
    )
    await s.refused(
        "an object cut short inside its frame is bad_frame", frame(b"\x83" + ping), "bad_frame"
    )
    await s.refused(
        "a string that is not UTF-8 is bad_frame",
        frame(b"\x81\xa4type\xa2\xff\xfe"),
        "bad_frame",
    )
    await s.refused(
        "the stream ending inside a frame is bad_frame",
        (100).to_bytes(4, "big") + b"\x82",
        "bad_frame",
        eof=True,
    )
    await s.refused(
        "a first message that is not hello is hello_expected",
        packed({"type": "ping", "ref": 1}),
        "hello_expected",
    )
    for what, payload in (
        ("an integer map key", b"\x83" + ping + b"\x01\x02"),
        ("a key twice", b"\x83" + ping + b"\xa3ref\x02"),
        ("a float", b"\x82\xa4type\xa4ping\xa3ref\xcb?\xf0" + bytes(6)),
        ("a binary value", b"\x82\xa4type\xa4ping\xa3ref\xc4\x01\x01"),
        ("an extension value", b"\x82\xa4type\xa4ping\xa3ref\xd4\x05\x01"),
    ):
        await s.refused(f"{what} is bad_message", frame(payload), "bad_message", greet=True)
    hello = packed(s.hello_map(version=99, extra=1))
    await s.refused(
        "another integer version is version_mismatch, naming both",
        hello,
        "version_mismatch",
        text=(f"version {PROTOCOL_VERSION}", "version 99"),
    )
    for version in (str(PROTOCOL_VERSION), True, None, float(PROTOCOL_VERSION), -1):
        await s.refused(
            f"hello.version {version!r} is bad_message",
            packed(s.hello_map(version=version)),
            "bad_message",
        )
    missing = s.hello_map()
    del missing["token"]
    await s.refused("a hello without a field is bad_message", packed(missing), "bad_message")
    await s.refused(
        "a hello with an extra field is bad_message",
        packed(s.hello_map(seat=0)),
        "bad_message",
    )
    twice = s.hello_map()
    name_pair = msgpack.packb("name") + msgpack.packb("Probe")
    body = b"".join(msgpack.packb(k) + msgpack.packb(v) for k, v in twice.items())
    await s.refused(
        "a hello with name twice is bad_message",
        frame(bytes([0x80 | (len(twice) + 1)]) + body + name_pair),
        "bad_message",
    )
    for name in ("", " Anna", "x" * 25, "a\nb"):
        await s.refused(
            f"the name {name!r} is bad_message",
            packed(s.hello_map(name=name)),
            "bad_message",
        )
    await s.refused(
        "a token that is not 32 hex digits is bad_message",
        packed(s.hello_map(token="XYZ")),
        "bad_message",
    )
    await s.refused(
        "a token that holds no seat is bad_token",
        packed(s.hello_map(token="0" * 32)),
        "bad_token",
    )
