"""Measures the window's pieces share, with no pygame: the shape of a playing card."""

from __future__ import annotations

__all__ = ["CARD_RATIO"]

CARD_RATIO = 0.715  # width / height of a playing card (63 x 88 mm)
