"""The one error type for bad input from the peer, and its stable codes."""

from __future__ import annotations

__all__ = [
    "BAD_FRAME",
    "BAD_MESSAGE",
    "BUSY",
    "FRAME_TOO_LARGE",
    "HANDSHAKE_TIMEOUT",
    "RATE_LIMITED",
    "VERSION_MISMATCH",
    "ProtocolError",
]

BAD_FRAME = "bad_frame"  # not exactly one msgpack object (truncated, trailing bytes, ...)
FRAME_TOO_LARGE = "frame_too_large"  # the length prefix exceeds the maximum
BAD_MESSAGE = "bad_message"  # valid msgpack, but no valid message (fields, types, keys)
VERSION_MISMATCH = "version_mismatch"  # the hello names another protocol version
HANDSHAKE_TIMEOUT = "handshake_timeout"  # no hello in time
RATE_LIMITED = "rate_limited"  # too many messages too fast
BUSY = "busy"  # the host has as many connections as it takes


class ProtocolError(Exception):
    """Malformed or unexpected input from the peer.

    ``code`` is one of the stable codes above (or ``hello_expected``); ``text`` is a short
    English explanation that names only what was wrong with the input, never our internals,
    so it can be sent back to the peer as is.
    """

    def __init__(self, code: str, text: str) -> None:
        super().__init__(f"{code}: {text}")
        self.code = code
        self.text = text
