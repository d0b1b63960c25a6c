"""The phones' page as a QR code: the terminal's half blocks say exactly the code's
modules, and the window's image reads back as the address (where a QR reader is
installed: zbarimg, Debian's zbar-tools)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pygame
import pytest

from client.qr import qr_modules, qr_text

URL = "http://192.168.1.23:45656/"
HALVES = {"█": (False, False), "▀": (False, True), "▄": (True, False), " ": (True, True)}


def test_the_terminals_code_is_the_codes_modules_two_rows_a_line() -> None:
    """Light modules print as blocks (a dark terminal's background is the code's dark)."""
    rows = qr_modules(URL)
    lines = qr_text(URL).split("\n")
    assert len(lines) == (len(rows) + 1) // 2
    read = []
    for line in lines:
        assert len(line) == len(rows[0])
        pairs = [HALVES[c] for c in line]
        read.append(tuple(top for top, _ in pairs))
        read.append(tuple(bottom for _, bottom in pairs))
    assert tuple(read[: len(rows)]) == rows
    assert read[len(rows) :] in ([], [(False,) * len(rows[0])])  # an odd last row: padded light
    border = rows[0]
    assert not any(border)  # the quiet zone is light all round
    assert rows[2][2:9] == (True,) * 7  # a finder pattern's dark edge, top left


@pytest.mark.usefixtures("headless")
def test_the_windows_code_reads_back_as_the_pages_address(tmp_path: Path) -> None:
    reader = shutil.which("zbarimg")
    if reader is None:
        pytest.skip("no QR reader here (zbarimg: apt-get install zbar-tools)")
    from client.ui.qrcode import qr_image

    image = qr_image(URL, 180)
    width, height = image.get_size()
    assert width == height <= 180 and width % len(qr_modules(URL)) == 0  # whole pixels
    path = tmp_path / "code.png"
    pygame.image.save(image, str(path))
    read = subprocess.run([reader, "-q", "--raw", str(path)], capture_output=True, text=True)
    assert read.stdout.strip() == URL
