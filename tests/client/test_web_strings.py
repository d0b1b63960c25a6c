"""The phones' page reads the window's words from ``assets/web/static/strings.json``: the
committed file must be what ``python -m client.i18n.export`` writes now (so a word changed
in a catalogue reaches the page), and the plural rule each language names there must count
as the window's ``plural_form`` does."""

from __future__ import annotations

import json

import pytest

from client.i18n import CATALOGUES, LANGUAGES, plural_form
from client.i18n.export import PLURAL_RULES, STRINGS_PATH, plural_by_rule, render
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


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_named_plural_rule_counts_as_the_window_does(language: str) -> None:
    rule = PLURAL_RULES[language]
    assert [plural_by_rule(rule, n) for n in range(1000)] == [
        plural_form(language, n) for n in range(1000)
    ]
