"""The phones' page as a QR code: for the terminal (``durak host``) and as a grid of
modules for the window to draw (the room), from one address.

segno makes the code (pure Python, BSD-3, no dependencies): no image library is needed,
since the window draws the modules itself at whatever size fits and the terminal prints
them as half blocks, two rows of modules a line.
"""

from __future__ import annotations

import segno

__all__ = ["qr_modules", "qr_text"]

BORDER = 2  # quiet zone, in modules (the standard asks 4; phones read 2 on a plain field)


def qr_modules(text: str) -> tuple[tuple[bool, ...], ...]:
    """The code of ``text`` as rows of dark (True) and light modules, its quiet zone
    included."""
    code = segno.make(text, error="m")
    return tuple(tuple(bool(m) for m in row) for row in code.matrix_iter(border=BORDER))


def qr_text(text: str) -> str:
    """The code of ``text`` for a terminal: light modules as blocks, so that it reads on a
    dark terminal (as on a light one), two rows of modules a line."""
    rows = qr_modules(text)
    lines = []
    for top, bottom in zip(rows[::2], (*rows[1::2], tuple(False for _ in rows[0])), strict=True):
        lines.append("".join(_HALVES[(not t, not b)] for t, b in zip(top, bottom, strict=True)))
    return "\n".join(lines)


_HALVES = {(True, True): "█", (True, False): "▀", (False, True): "▄", (False, False): " "}
