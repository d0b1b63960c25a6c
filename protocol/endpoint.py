"""What the table's and the party's sans-I/O connections share: bytes in, whole checked
messages out, and the first error kept. Each connection says how a decoded map becomes one
of its messages (``_decode``) and in which order they may come (``_check_order``)."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Generic, TypeVar

from .errors import ProtocolError
from .framing import FrameDecoder
from .messages import unpack

__all__ = ["Endpoint"]

M = TypeVar("M")


class Endpoint(ABC, Generic[M]):
    def __init__(self, max_frame: int) -> None:
        self._frames = FrameDecoder(max_frame)
        self._max_frame = max_frame
        self._error: ProtocolError | None = None

    @property
    def eof(self) -> bool:
        return self._frames.eof

    def receive_data(self, data: bytes) -> None:
        """Bytes from the peer (``b""``: the peer closed). Raises ``ProtocolError``."""
        self._raise_if_failed()
        try:
            self._frames.receive_data(data)
        except ProtocolError as exc:
            self._error = exc
            raise

    def next_message(self) -> M | None:
        """The next whole message, or None until more bytes arrive."""
        self._raise_if_failed()
        try:
            payload = self._frames.next_frame()
            if payload is None:
                return None
            message = self._decode(unpack(payload, self._max_frame))
            self._check_order(message)
        except ProtocolError as exc:
            self._error = exc
            raise
        return message

    @abstractmethod
    def _decode(self, data: Any) -> M:
        """One of this connection's messages from a decoded map (``ProtocolError`` if not)."""

    @abstractmethod
    def _check_order(self, message: M) -> None:
        """Raises ``ProtocolError`` where ``message`` may not come now."""

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise self._error
