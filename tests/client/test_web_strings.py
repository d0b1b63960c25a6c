"""The phones' page reads the window's words from ``assets/web/static/strings.json``: the
committed file must be what ``python -m client.i18n.export`` writes now (so a word changed
in a catalogue reaches the page), and the plural rule each language names there must count
as the window's ``plural_form`` does."""

from __future__ import annotations

import json

from client.i18n import CATALOGUES, LANGUAGES, PLURAL_RULES, plural_form
from client.i18n.export import STRINGS_PATH, render
from client.i18n.web import TEXTS as WEB_TEXTS


def test_the_committed_strings_are_a_fresh_export() -> None:
    committed = STRINGS_PATH.read_text(encoding="utf-8")
    assert committed == render(), "run: python -m client.i18n.export"


def test_the_page_gets_every_word_of_every_language() -> None:
    data = json.loads(render())
    assert data["languages"] == list(LANGUAGES)
    for code in LANGUAGES:
        assert data["texts"][code] == dict(CATALOGUES[code])
        assert set(WEB_TEXTS[code]) == set(WEB_TEXTS["en"])
        assert data["texts"][code]["web.fullscreen"] == WEB_TEXTS[code]["web.fullscreen"]


def test_the_plural_rules_the_page_is_sent_count_as_the_languages_do() -> None:
    """The page is sent each language's rule by name and counts with it as the window
    does (``plural_by_rule``); the rules themselves against the grammar: Russian says
    1 карта, 2 карты, 5 карт, 11 карт, 21 карта, 22 карты; the others 1 card, 2 cards."""
    data = json.loads(STRINGS_PATH.read_text(encoding="utf-8"))
    assert data["plural"] == dict(PLURAL_RULES)
    counts = (0, 1, 2, 4, 5, 11, 12, 14, 21, 22, 25, 101, 111)
    slavic = ["many", "one", "few", "few", "many", "many", "many", "many", "one", "few",
              "many", "one", "many"]  # fmt: skip
    for language in LANGUAGES:
        expected = slavic if language == "ru" else ["one" if n == 1 else "many" for n in counts]
        assert [plural_form(language, n) for n in counts] == expected
