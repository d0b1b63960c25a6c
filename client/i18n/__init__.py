"""The window's words in English, German, Dutch and Russian.

Every string the window shows comes from one catalogue per language (``en``, ``de``,
``nl``, ``ru``: plain dicts of key -> text with ``{placeholders}``). A ``Translator`` is
bound to one language and passed to whatever draws; ``translator(code)`` gives the shared,
immutable one for a language. A key missing from a catalogue falls back to English (a
safety net only: ``tests/client/test_i18n.py`` fails on any missing key).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from types import MappingProxyType

from ..settings import LANGUAGES
from . import de, en, nl, party, ru, web

__all__ = [
    "CATALOGUES",
    "DYNAMIC_PREFIXES",
    "ENGLISH",
    "LANGUAGES",
    "N_",
    "PLURAL_RULES",
    "Translator",
    "plural_by_rule",
    "plural_form",
    "translator",
]

CATALOGUES: Mapping[str, Mapping[str, str]] = MappingProxyType(
    {
        code: MappingProxyType({**module.TEXTS, **party.TEXTS[code], **web.TEXTS[code]})
        for code, module in zip(LANGUAGES, (en, de, nl, ru), strict=True)
    }
)

# Keys the code builds at run time (``tr("reason." + code)``): the test checks each family
# against the table it comes from (engine reasons, roles, levels, speeds, languages, looks).
DYNAMIC_PREFIXES: tuple[str, ...] = ("reason.", "role.", "level.", "speed.", "lang.", "look.")


def N_(key: str) -> str:
    """Marks ``key`` as a catalogue key kept in data, to be looked up later (the test finds
    every key marked this way, as it finds every ``tr("...")``)."""
    return key


# each language's rule for counted nouns (the phones' page reads the same table:
# ``client.i18n.export``)
PLURAL_RULES: Mapping[str, str] = MappingProxyType(
    {"en": "one_many", "de": "one_many", "nl": "one_many", "ru": "slavic"}
)


def plural_by_rule(rule: str, n: int) -> str:
    """``one``, ``few`` or ``many`` under ``rule`` ("slavic": 1, 21 one; 2-4, 22 few)."""
    if rule == "slavic":
        if n % 10 == 1 and n % 100 != 11:
            return "one"
        if 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
            return "few"
        return "many"
    return "one" if n == 1 else "many"


def plural_form(language: str, n: int) -> str:
    """``one``, ``few`` or ``many``: the form of a noun counted ``n`` times."""
    return plural_by_rule(PLURAL_RULES.get(language, "one_many"), n)


class Translator:
    """``tr(key, **fmt)``: the text of ``key`` in one language, filled in."""

    __slots__ = ("_texts", "language")

    def __init__(self, language: str) -> None:
        self.language = language if language in CATALOGUES else "en"
        self._texts = CATALOGUES[self.language]

    def __call__(self, key: str, **fmt: object) -> str:
        text = self._texts.get(key)
        if text is None:
            text = CATALOGUES["en"].get(key, key)
        return text.format(**fmt) if fmt else text

    def plural(self, key: str, n: int, **fmt: object) -> str:
        """``key#one``, ``key#few`` or ``key#many`` for ``n``, with ``{n}`` filled in."""
        return self(f"{key}#{plural_form(self.language, n)}", n=n, **fmt)

    def ordinal(self, n: int) -> str:
        """A place: 1st, 2nd (English); 1., 2. (German); 1e (Dutch); 1-e (Russian)."""
        if self.language == "en":
            suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
            return f"{n}{suffix}"
        return self("ordinal", n=n)


@cache
def translator(language: str) -> Translator:
    return Translator(language)


ENGLISH = translator("en")
