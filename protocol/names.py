# ruff: noqa: RUF001 (the look-alike letters are the point)
"""Players' names compared by what a person sees (docs/protocol.md section 3, "Names"):
the one rule for a table's ``hello`` and a party's ``join``.

The wire already refuses what is not printable (control and format characters, other
spaces than U+0020). What is printable yet shows nothing, or shows what another name
shows, is decided here:

- ``refusal(name)``: why a name may not be a player's, or None. Refused: a character that
  is drawn as nothing (the Hangul fillers, the combining grapheme joiner, variation
  selectors, the Braille blank, ...), a name that shows nothing but marks or spaces, and
  what the window shows for a seat nobody plays (the host, the organiser, an AI and its
  levels, an open seat: in the window's four languages).
- ``seen(name)``: the name as a person reads it, for comparing: compatibility forms
  folded (NFKC's full-width and ligature letters), accents and other marks dropped,
  Cyrillic and Greek letters drawn like Latin ones read as those (``LOOKALIKE``: written
  for the letters that matter, not copied from a table), and letter case folded.
  So "Anna" spelt with a Cyrillic A (U+0410), "ANNA" and "Anna" are one name.
- ``numbered(name, taken)``: the name a table gives a newcomer whose name is already
  there: "Anna 2", "Anna 3" ... (a newcomer called "Anna 2" beside one becomes "Anna 3").
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection

from .fields import MAX_NAME

__all__ = ["INVISIBLE", "LOOKALIKE", "RESERVED", "numbered", "refusal", "seen"]

# Printable characters drawn as nothing (or as a blank the width of a letter).
INVISIBLE = frozenset(
    "\u034f"  # combining grapheme joiner
    "\u115f\u1160\u3164\uffa0"  # Hangul fillers
    "\u17b4\u17b5"  # Khmer inherent vowels
    "\u180b\u180c\u180d\u180e\u180f"  # Mongolian selectors and vowel separator
    "\u2800"  # Braille pattern blank
    + "".join(chr(c) for c in range(0xFE00, 0xFE10))  # variation selectors
    + "".join(chr(c) for c in range(0xE0100, 0xE01F0))  # variation selectors supplement
)

# Letters drawn like a Latin letter, capitals and small letters apart (a capital Greek Eta
# reads as H, its small letter as n).
LOOKALIKE = {
    **dict(zip("АВЕКМНОРСТХУЅІЈԚԜҺӀҮ", "abekmhopctxysijqwhly", strict=True)),  # Cyrillic
    **dict(zip("авекмнорстхуѕіјԁԛԝһӏүпь", "abekmhopctxysijdqwhlynb", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "abezhikmnoptyx", strict=True)),  # Greek
    **dict(zip("αικνορτυχωγημϲϳ", "aiknoptuxwynucj", strict=True)),
    **dict(zip("ıȷɑɡ", "ijag", strict=True)),  # Latin letters drawn alike
}

# What the window shows where no person plays (client/i18n: the host, the organiser, the
# AI levels' and an AI seat's names, an open seat), in its four languages.
RESERVED = (
    "host", "the host", "organiser", "organizer", "the organiser", "the organizer",
    "ai", "random", "easy", "normal", "hard", "open seat", "ai stand-in",
    "ии", "случайно", "легко", "средне", "сложно", "свободное место", "хост",
    "ki", "zufall", "leicht", "schwer", "freier platz",
    "willekeurig", "makkelijk", "normaal", "moeilijk", "vrije plaats",
)  # fmt: skip

_NUMBERED = re.compile(r"(.*\S) ([0-9]+)")


def seen(name: str) -> str:
    """``name`` as a person reads it: two names of one ``seen`` are one name."""
    text = unicodedata.normalize("NFKD", name)
    kept = "".join(c for c in text if not unicodedata.combining(c) and c not in INVISIBLE)
    text = "".join(LOOKALIKE.get(c, c) for c in unicodedata.normalize("NFKC", kept))
    return " ".join(text.casefold().split())


_RESERVED = frozenset(seen(word) for word in RESERVED)


def refusal(name: str) -> str | None:
    """Why ``name`` may not be a player's (a goodbye ``bad_name``'s text), or None."""
    if any(c in INVISIBLE or unicodedata.category(c) in ("Cc", "Cf") for c in name):
        return "A name may not hold characters that show nothing."
    key = seen(name)
    if not key:
        return "A name must show something."
    if key in _RESERVED:
        return "That name is what the window shows for a seat no person plays."
    return None


def numbered(name: str, taken: Collection[str]) -> str:
    """``name``, or the next free "``name`` N" where a name of ``taken`` reads as it."""
    keys = {seen(other) for other in taken}
    if seen(name) not in keys:
        return name
    found = _NUMBERED.fullmatch(name)
    base, n = (found[1], int(found[2]) + 1) if found else (name, 2)
    while seen(candidate := f"{base[: MAX_NAME - len(str(n)) - 1]} {n}") in keys:
        n += 1
    return candidate
