"""A QR code drawn for the window: the phones' page's address, in the room of a table we
host. Whole pixels per module (a blurred edge is what makes a phone's camera hesitate), on
a light field with its quiet zone, the largest that fits ``side``."""

from __future__ import annotations

from functools import cache

import pygame

from client.qr import qr_modules

__all__ = ["qr_image"]

DARK = (20, 20, 26)
LIGHT = (251, 249, 243)


@cache
def qr_image(text: str, side: int) -> pygame.Surface:
    """The code of ``text`` at most ``side`` pixels wide (and high), made once."""
    rows = qr_modules(text)
    n = len(rows)
    module = max(1, side // n)
    image = pygame.Surface((n * module, n * module))
    image.fill(LIGHT)
    for y, row in enumerate(rows):
        for x, dark in enumerate(row):
            if dark:
                image.fill(DARK, (x * module, y * module, module, module))
    return image
