"""What the table's and the party's sans-I/O connections share: bytes in, whole checked
messages out, and the first error kept. Each connection says how a decoded map becomes one
of its messages (``_decode``) and in which order they may come (``_check_order``).

Bytes come in two shapes. A stream (TCP) brings length-prefixed frames cut anywhere:
``receive_data``. A message transport (a WebSocket) brings each frame whole, without the
prefix: ``receive_frame``. Both are checked alike (an empty frame, one over the maximum)
and come out of the same ``next_message``; one connection uses one of the two."""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections import deque
from typing import Any, Generic, TypeVar

from .codec import unpack
from .errors import BAD_FRAME, FRAME_TOO_LARGE, ProtocolError
from .framing import FrameDecoder

__all__ = ["Endpoint"]

M = TypeVar("M")


class Endpoint(ABC, Generic[M]):
    def __init__(self, max_frame: int) -> None:
        self._frames = FrameDecoder(max_frame)
        self._max_frame = max_frame
        self._error: ProtocolError | None = None
        self._whole: deque[bytes] = deque()  # frames that came whole, not yet read

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

    def receive_frame(self, payload: bytes) -> None:
        """One whole frame's payload from a message transport. Raises ``ProtocolError``
        for an empty one or one over the maximum (nothing of it is kept)."""
        self._raise_if_failed()
        if not payload:
            self._error = ProtocolError(BAD_FRAME, "an empty frame")
        elif len(payload) > self._max_frame:
            self._error = ProtocolError(
                FRAME_TOO_LARGE, f"a frame of {len(payload)} bytes exceeds {self._max_frame}"
            )
        self._raise_if_failed()
        self._whole.append(payload)

    def next_message(self) -> M | None:
        """The next whole message, or None until more bytes arrive."""
        self._raise_if_failed()
        try:
            payload = self._whole.popleft() if self._whole else self._frames.next_frame()
            if payload is None:
                return None
            message = self._decode(unpack(payload, self._max_frame))
            self._check_order(message)
        except ProtocolError as exc:
            self._error = exc
            raise
        return message

    @abstractmethod
    def send(self, message: M) -> bytes:
        """The framed bytes of ``message`` (which must be one this side may send)."""

    @abstractmethod
    def _decode(self, data: Any) -> M:
        """One of this connection's messages from a decoded map (``ProtocolError`` if not)."""

    @abstractmethod
    def _check_order(self, message: M) -> None:
        """Raises ``ProtocolError`` where ``message`` may not come now."""

    def _raise_if_failed(self) -> None:
        if self._error is not None:
            raise self._error
