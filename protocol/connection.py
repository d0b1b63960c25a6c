"""One end of a connection, sans-I/O: bytes in (``receive_data``), messages out
(``next_message``), messages in (``send``), bytes out.

The host side reads only client messages and sends only host messages, and the first
message it reads must be ``hello``; the client side the other way round, with ``welcome``,
``watching`` or ``goodbye`` first (a watcher's ``watching`` may be followed by one
``welcome``: it took a seat). After a ``ProtocolError`` the connection is dead: every later call
raises it again.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import Enum
from typing import Any

from .endpoint import Endpoint
from .errors import BAD_MESSAGE, ProtocolError
from .framing import MAX_FRAME
from .messages import (
    CLIENT_MESSAGES,
    HOST_MESSAGES,
    Goodbye,
    Hello,
    Message,
    Watching,
    Welcome,
    encode,
    from_wire,
)

__all__ = ["Connection", "Role"]


class Role(Enum):
    HOST = "host"
    CLIENT = "client"


class Connection(Endpoint[Message]):
    def __init__(
        self,
        role: Role,
        *,
        max_frame: int = MAX_FRAME,
        on_payload: Callable[[Any], None] | None = None,
    ) -> None:
        super().__init__(max_frame)
        self.role = role
        self._incoming = CLIENT_MESSAGES if role is Role.HOST else HOST_MESSAGES
        outgoing = HOST_MESSAGES if role is Role.HOST else CLIENT_MESSAGES
        self._sends = frozenset(cls for cls, _ in outgoing.values())
        self._greeted = False
        self._seated = False  # (client side) a welcome came
        self._on_payload = on_payload  # sees each decoded map before it is checked (tests)

    def _decode(self, data: Any) -> Message:
        if self._on_payload is not None:
            self._on_payload(data)
        return from_wire(data, self._incoming)

    def _check_order(self, message: Message) -> None:
        if self.role is Role.HOST:
            if not self._greeted and not isinstance(message, Hello):
                raise ProtocolError("hello_expected", "the first message must be hello")
            if self._greeted and isinstance(message, Hello):
                raise ProtocolError(BAD_MESSAGE, "a second hello")
        elif not self._greeted and not isinstance(message, Welcome | Watching | Goodbye):
            raise ProtocolError(
                BAD_MESSAGE, "the first message must be welcome, watching or goodbye"
            )
        elif self._greeted and isinstance(message, Watching):
            raise ProtocolError(BAD_MESSAGE, "a watching after the first message")
        elif isinstance(message, Welcome):
            if self._seated:
                raise ProtocolError(BAD_MESSAGE, "a second welcome")
            self._seated = True
        self._greeted = True

    def send(self, message: Message) -> bytes:
        """The framed bytes of ``message`` (which must be one this side may send)."""
        if type(message) not in self._sends:
            raise TypeError(f"a {self.role.value} does not send {type(message).__name__}")
        return encode(message)
