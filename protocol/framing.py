"""Length-prefixed frames: a 4-byte big-endian payload length, then that many bytes.

The length is checked against the maximum as soon as its 4 bytes arrive, before any of the
payload is buffered, so a peer cannot make us hold more than one maximum-size frame.
"""

from __future__ import annotations

from collections import deque

from .errors import BAD_FRAME, FRAME_TOO_LARGE, ProtocolError

__all__ = ["HEADER_SIZE", "MAX_FRAME", "FrameDecoder", "frame"]

HEADER_SIZE = 4
MAX_FRAME = 64 * 1024  # bytes of payload; the largest real message is a few kilobytes


def frame(payload: bytes) -> bytes:
    """The payload with its length prefix."""
    return len(payload).to_bytes(HEADER_SIZE, "big") + payload


class FrameDecoder:
    """Bytes in, whole payloads out. Raises ``ProtocolError`` for a bad length prefix."""

    def __init__(self, max_frame: int = MAX_FRAME) -> None:
        self.max_frame = max_frame
        self._buffer = bytearray()
        self._need: int | None = None  # payload length of the frame being read
        self._frames: deque[bytes] = deque()
        self._eof = False

    @property
    def eof(self) -> bool:
        return self._eof

    def receive_data(self, data: bytes) -> None:
        """Feed bytes from the peer; ``b""`` means the peer closed its side."""
        if not data:
            self._eof = True
            return
        if self._eof:
            raise ProtocolError(BAD_FRAME, "data after the end of the stream")
        self._buffer += data
        self._split()

    def _split(self) -> None:
        buffer = self._buffer
        while True:
            if self._need is None:
                if len(buffer) < HEADER_SIZE:
                    return
                size = int.from_bytes(buffer[:HEADER_SIZE], "big")
                if size > self.max_frame:
                    buffer.clear()
                    raise ProtocolError(
                        FRAME_TOO_LARGE, f"a frame of {size} bytes exceeds {self.max_frame}"
                    )
                if size == 0:
                    buffer.clear()
                    raise ProtocolError(BAD_FRAME, "an empty frame")
                del buffer[:HEADER_SIZE]
                self._need = size
            if len(buffer) < self._need:
                return
            self._frames.append(bytes(buffer[: self._need]))
            del buffer[: self._need]
            self._need = None

    def next_frame(self) -> bytes | None:
        """The next whole payload, or None while it is incomplete.

        At the end of the stream a partly received frame is a ``ProtocolError``.
        """
        if self._frames:
            return self._frames.popleft()
        if self._eof and (self._buffer or self._need is not None):
            self._buffer.clear()
            self._need = None
            raise ProtocolError(BAD_FRAME, "the stream ended inside a frame")
        return None
