"""The fields both families of messages (a table's and a party's) carry, each declared and
checked once: a name, a token, an AI level, a ref, a version, a text, a code, an address.

Each check takes a decoded msgpack value and returns it typed, or raises
``ProtocolError(bad_message)`` naming the field; the message tables (``protocol.messages``,
``protocol.party``) and the values inside them (``protocol.room``, ``protocol.party_state``)
use these and nothing of their own for the same field.
"""

from __future__ import annotations

from typing import Any

from .wire import bad, check_code, check_int, check_str

__all__ = [
    "MAX_NAME",
    "MAX_PASSWORD",
    "MAX_REF",
    "MAX_TEXT",
    "TOKEN_LEN",
    "check_address",
    "check_hex64",
    "check_level",
    "check_name",
    "check_reason",
    "check_ref",
    "check_seq",
    "check_text",
    "check_token",
    "check_version",
    "ident",
]

MAX_NAME = 24
MAX_PASSWORD = 64
MAX_TEXT = 200
MAX_REF = 2**31 - 1
TOKEN_LEN = 32  # hex digits
HEX = "0123456789abcdef"


def ident(value: Any) -> Any:
    """A field that goes on the wire as it is."""
    return value


def check_name(value: Any, what: str = "name") -> str:
    """A player's name: 1-24 printable characters, no space at either end."""
    name = check_str(value, what, MAX_NAME, 1)
    if not name.isprintable() or name != name.strip():
        raise bad(f"{what} must be printable without leading or trailing spaces")
    return name


def check_token(value: Any) -> str:
    token = check_str(value, "token", TOKEN_LEN, TOKEN_LEN)
    if any(c not in HEX for c in token):
        raise bad("token must be 32 lower-case hex digits")
    return token


def check_level(value: Any) -> str:
    """An AI level's name (which levels a host has is the host's to say)."""
    level = check_str(value, "ai", MAX_NAME, 1)
    if not all(c.isalnum() or c in ":._-" for c in level):
        raise bad("ai must be a level name such as 'normal'")
    return level


def check_ref(value: Any) -> int:
    return check_int(value, 0, MAX_REF, "ref")


def check_seq(value: Any, what: str = "seq") -> int:
    return check_int(value, 0, MAX_REF, what)


def check_version(value: Any) -> int:
    return check_int(value, 0, MAX_REF, "version")


def check_text(value: Any) -> str:
    return check_str(value, "text", MAX_TEXT)


def check_reason(value: Any) -> str:
    return check_code(value, "reason")


def check_hex64(value: Any, what: str) -> str:
    text = check_str(value, what, 64, 64)
    if any(c not in HEX for c in text):
        raise bad(f"{what} must be 64 lower-case hex digits")
    return text


def check_address(value: Any) -> str:
    """A host name or an IP address (IPv6 with its zone)."""
    address = check_str(value, "address", 253, 1)
    if not all(c.isalnum() or c in ".:-_%" for c in address):
        raise bad("address must be a host name or an IP address")
    return address
