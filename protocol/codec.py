"""One codec for every family of messages: a table's (``protocol.messages``) and a
party's (``protocol.party``).

A message on the wire is a msgpack map ``{"type": NAME, field: value, ...}`` with exactly
the fields of its type. A ``Family`` is the explicit tables of one kind of connection: for
each side, type name -> (class, ((field, encode, decode), ...)). Nothing is looked up by
reflection: only the names in the tables exist. ``to_wire`` and ``encode`` write a
message; ``from_wire`` checks a decoded map against one side's table, every field's type
and range, and builds the message, or raises ``ProtocolError``. The family's greeting (a
table's ``hello``, a party's ``join``) has its version checked before its other fields:
another version may have other fields, and deserves ``version_mismatch``, not
``bad_message``. ``unpack`` decodes one frame's payload with every limit set.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgpack  # type: ignore[import-untyped]

from .errors import BAD_FRAME, VERSION_MISMATCH, ProtocolError
from .fields import check_version
from .framing import MAX_FRAME, frame
from .wire import bad, check_map

__all__ = ["Dec", "Enc", "Family", "Spec", "unpack"]

Enc = Callable[[Any], Any]
Dec = Callable[[Any], Any]
Spec = tuple[type[Any], tuple[tuple[str, Enc, Dec], ...]]


class Family:
    """The messages of one kind of connection: ``client`` and ``host``, each side's table;
    ``greeting``, the class of the first message whose version is checked first against
    ``version``; ``speaker`` names the host side in a mismatch's text ("host", "party")."""

    def __init__(
        self,
        client: dict[str, Spec],
        host: dict[str, Spec],
        *,
        greeting: type[Any],
        version: int,
        speaker: str,
    ) -> None:
        self.client, self.host = client, host
        self.greeting, self.version, self.speaker = greeting, version, speaker
        self._names: dict[type[Any], tuple[str, Spec]] = {
            spec[0]: (name, spec) for table in (client, host) for name, spec in table.items()
        }
        self._keys: dict[str, tuple[str, ...]] = {
            name: ("type", *(f[0] for f in spec[1]))
            for table in (client, host)
            for name, spec in table.items()
        }

    def to_wire(self, message: Any) -> dict[str, Any]:
        """The message as a plain map (what msgpack packs)."""
        found = self._names.get(type(message))
        if found is None:
            raise TypeError(f"{type(message).__name__} is no message of this family")
        name, (_, fields) = found
        data: dict[str, Any] = {"type": name}
        for field, enc, _ in fields:
            data[field] = enc(getattr(message, field))
        return data

    def encode(self, message: Any) -> bytes:
        """The framed bytes of a message (length prefix included)."""
        return frame(msgpack.packb(self.to_wire(message), use_bin_type=True))

    def from_wire(self, data: Any, table: dict[str, Spec]) -> Any:
        """Check a decoded map against ``table`` (one side's) and build the message."""
        if type(data) is not dict or type(data.get("type")) is not str:
            raise bad("a message must be a map with a string 'type'")
        name = data["type"]
        spec = table.get(name)
        if spec is None:
            raise bad(f"unknown message type {name[:40]!r}")
        cls, fields = spec
        if cls is self.greeting:
            version = check_version(data.get("version"))
            if version != self.version:
                raise ProtocolError(
                    VERSION_MISMATCH,
                    f"this {self.speaker} speaks protocol version {self.version}, "
                    f"the client speaks version {version}",
                )
        check_map(data, name, self._keys[name])
        return cls(**{field: dec(data[field]) for field, _, dec in fields})


def _string_keyed(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    """A decoded map's pairs as a dict: every key a string, none twice (``bad_message``)."""
    for key, _ in pairs:
        if type(key) is not str:
            raise bad("map keys must be strings")
    data = dict(pairs)
    if len(data) != len(pairs):
        raise bad("a map has the same key twice")
    return data


def unpack(payload: bytes, max_frame: int = MAX_FRAME) -> Any:
    """msgpack-decode one payload with every size limit set.

    ``ProtocolError(bad_frame)`` if it is not exactly one msgpack object; a map whose keys
    are not all strings, a key twice, or nesting deeper than msgpack decodes is well-formed
    msgpack but no message (``bad_message``). Floats, binary and extension values decode
    here and are refused as mistyped by the field that holds them (``bad_message`` too).
    """
    try:
        return msgpack.unpackb(
            payload,
            raw=False,
            strict_map_key=False,
            object_pairs_hook=_string_keyed,
            use_list=True,
            max_str_len=max_frame,
            max_bin_len=max_frame,
            max_array_len=max_frame,
            max_map_len=max_frame,
            max_ext_len=max_frame,
        )
    except msgpack.StackError:
        raise bad("the message is nested too deeply") from None
    except (msgpack.UnpackException, ValueError, TypeError):  # UnicodeDecodeError is a ValueError
        raise ProtocolError(BAD_FRAME, "the frame is not valid msgpack") from None
