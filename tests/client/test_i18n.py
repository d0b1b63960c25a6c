"""The catalogues: every key the window's code uses is in every language, with the same
{placeholders}; every refusal reason has a hint in every language; a table's rules are
summed up in the player's language; the how-to-play pages fit the window in every language."""

from __future__ import annotations

import ast
import functools
import re
import string
from pathlib import Path

import pygame
import pytest

from client.i18n import CATALOGUES, DYNAMIC_PREFIXES, LANGUAGES, Translator, plural_form
from client.i18n.refusals import TABLE_CLOSED_KEYS, closed_text
from client.i18n.rulestext import rules_summary
from client.screens.table.draw import ROLE_COLOURS
from client.settings import ANIMATION_SPEEDS
from client.ui.looks import LOOK_NAMES
from engine import Reason, Rules, ThrowInRule
from engine.ai import LEVELS

CLIENT = Path(__file__).resolve().parents[2] / "client"
ENGLISH = CATALOGUES["en"]
PLURAL_FORMS = ("one", "few", "many")


def _strings(node: ast.expr) -> list[str] | None:
    """The constant strings an argument can be (both arms of ``a if c else b``), or None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.IfExp):
        body, orelse = _strings(node.body), _strings(node.orelse)
        return None if body is None or orelse is None else body + orelse
    return None


def _prefix(node: ast.expr) -> str | None:
    """The constant start of a key built at run time (``"reason." + code``, f-strings)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _prefix(node.left) if not isinstance(node.left, ast.Constant) else node.left.value
    if isinstance(node, ast.JoinedStr) and node.values:
        first = node.values[0]
        if isinstance(first, ast.Constant) and isinstance(first.value, str):
            return first.value
    return None


@functools.cache
def used_keys() -> tuple[frozenset[str], frozenset[str], tuple[str, ...]]:
    """Keys the client's code looks up: (keys, plural keys, lookups the test cannot read).
    Read once for the module's tests (each scan of the client took 0.5 s)."""
    keys: set[str] = set()
    plurals: set[str] = set()
    unreadable: list[str] = []
    for path in sorted(CLIENT.rglob("*.py")):
        if "i18n" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            if name not in ("tr", "N_", "plural"):
                continue
            if name == "plural" and not (isinstance(func, ast.Attribute) and func.attr == "plural"):
                continue
            found = _strings(node.args[0])
            where = f"{path.relative_to(CLIENT.parent)}:{node.lineno}"
            if found is not None:
                (plurals if name == "plural" else keys).update(found)
            elif isinstance(node.args[0], ast.Name | ast.Attribute):
                pass  # forwards a key marked elsewhere with N_() (Row labels, page keys)
            elif _prefix(node.args[0]) not in DYNAMIC_PREFIXES:
                unreadable.append(where)
    return frozenset(keys), frozenset(plurals), tuple(unreadable)


def dynamic_keys() -> set[str]:
    """Every key built at run time, from the tables the code builds them from."""
    return (
        {f"reason.{reason.value}" for reason in Reason}
        | {f"role.{role}" for role in ROLE_COLOURS}
        | {f"level.{level}" for level in LEVELS}
        | {f"speed.{speed}" for speed in ANIMATION_SPEEDS}
        | {f"lang.{code}" for code in LANGUAGES}
        | {f"look.{name}" for name in LOOK_NAMES}
    )


def fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}


def test_the_scan_finds_the_keys_of_the_window() -> None:
    keys, plurals, unreadable = used_keys()
    assert not unreadable, f"lookups whose key the test cannot read: {unreadable}"
    assert {"menu.play", "settings.language", "table.take", "howto.1.body"} <= keys
    assert {"table.cards", "end.series", "menu.deck_value"} <= plurals


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_key_the_code_uses_is_in_the_catalogue(language: str) -> None:
    keys, plurals, _ = used_keys()
    wanted = keys | dynamic_keys() | {f"{k}#{form}" for k in plurals for form in PLURAL_FORMS}
    missing = sorted(wanted - set(CATALOGUES[language]))
    assert not missing, f"{language} lacks {missing}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_catalogue_has_the_english_keys_and_placeholders(language: str) -> None:
    catalogue = CATALOGUES[language]
    assert sorted(set(ENGLISH) - set(catalogue)) == [], "missing keys"
    assert sorted(set(catalogue) - set(ENGLISH)) == [], "keys English does not have"
    mismatched = [k for k in ENGLISH if fields(ENGLISH[k]) != fields(catalogue[k])]
    assert not mismatched, f"{language}: other placeholders than English in {mismatched}"
    assert all(text.strip() for text in catalogue.values())


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_has_a_hint(language: str) -> None:
    tr = Translator(language)
    for reason in Reason:
        hint = tr("reason." + reason.value)
        assert hint and hint != "reason." + reason.value
        if language == "en":
            assert hint == reason.text  # the same words the engine uses
        else:
            assert hint != reason.text, f"{language} hint for {reason.value} is English"


# Goodbyes only a client that breaks the protocol gets: the host's own words will do.
PROTOCOL_FAULTS = {"bad_frame", "frame_too_large", "bad_message", "hello_expected"}
PROTOCOL_FAULTS |= {"handshake_timeout"}


def goodbye_codes() -> set[str]:
    """Every ``goodbye.code`` docs/protocol.md lists (section 7)."""
    doc = (CLIENT.parent / "docs" / "protocol.md").read_text(encoding="utf-8")
    section = doc.split("## 7. ")[1].split("\n## ")[0]
    return set(re.findall(r"^\| `([a-z_]+)` \|", section, re.MULTILINE))


@pytest.mark.parametrize("language", ["de", "nl", "ru"])
def test_every_goodbye_a_player_meets_is_said_in_the_windows_language(language: str) -> None:
    """A Russian room said "The host closed the table." in the host's English."""
    tr = Translator(language)
    codes = goodbye_codes() - PROTOCOL_FAULTS
    assert {"shutdown", "replaced", "bad_token", "kicked"} <= codes
    english = {code: f"host's words for {code}" for code in codes}
    said = {code: closed_text(code, english[code], tr) for code in codes}
    assert [code for code in codes if said[code] == english[code]] == []
    assert closed_text("shutdown", "", tr, TABLE_CLOSED_KEYS) == said["shutdown"]


def test_russian_counts_take_three_forms() -> None:
    tr = Translator("ru")
    assert [plural_form("ru", n) for n in (1, 2, 5, 11, 21, 22, 25)] == [
        "one",
        "few",
        "many",
        "many",
        "one",
        "few",
        "many",
    ]
    assert tr.plural("table.cards", 3) == "3 карты"
    assert Translator("en").plural("table.cards", 1) == "1 card"
    assert Translator("de").ordinal(2) == "2." and Translator("en").ordinal(2) == "2nd"


# The formal "вы" of Russian: its pronoun and the imperatives that go with it ("нажмите").
FORMAL = re.compile(
    r"(?<![а-яё])(вы|вас|вам|вами|ваш\w*)(?![а-яё])|[а-яё]{2,}(ите|йте|ьте)(?![а-яё])"  # noqa: RUF001
)


def test_russian_speaks_to_the_player_as_ty_everywhere() -> None:
    """The rules, the table and the settings say "ты": a room saying "вы" and a coach
    saying "приберегите" beside them read as two voices."""
    formal = {key: text for key, text in CATALOGUES["ru"].items() if FORMAL.search(text.lower())}
    assert formal == {}
    assert CATALOGUES["ru"]["room.you"] == "ты"


EVERY_OPTION = Rules(
    deck_size=52,
    throw_in=ThrowInRule.NEIGHBOURS,
    first_bout_five=True,
    transfer=True,
    transfer_show_trump=True,
    durak_defends_first=True,
)
# The words of the English summary (not "Durak": the game's name in every language).
ENGLISH_WORDS = {"cards", "throw", "in", "all", "neighbours", "first", "bout", "transfer"}
ENGLISH_WORDS |= {"show", "trump", "defends"}


@pytest.mark.parametrize("throw_in", list(ThrowInRule))
@pytest.mark.parametrize("options", range(16))
def test_the_english_rules_summary_is_the_engines(throw_in: ThrowInRule, options: int) -> None:
    rules = Rules(
        throw_in=throw_in,
        first_bout_five=bool(options & 1),
        transfer=bool(options & 2 or options & 4),
        transfer_show_trump=bool(options & 4),
        durak_defends_first=bool(options & 8),
    )
    assert rules_summary(rules, Translator("en")) == rules.summary


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (
            "en",
            "52 cards, throw-in neighbours, first bout 5, transfer (show trump), "
            "Durak defends first",
        ),
        (
            "de",
            "52 Karten, Nachbarn legen nach, erstes Gefecht höchstens 5, "
            "Schieben (Trumpf zeigen), Durak wehrt zuerst ab",
        ),
        (
            "nl",
            "52 kaarten, buren voegen toe, eerste gevecht hoogstens 5, "
            "doorgeven (troef tonen), Durak verdedigt eerst",
        ),
        (
            "ru",
            "52 карты, подкидывают соседи, первый отбой не больше 5, "
            "переводной (показом козыря), дурак отбивается первым",
        ),
    ],
)
def test_the_rules_summary_speaks_the_language(language: str, expected: str) -> None:
    summary = rules_summary(EVERY_OPTION, Translator(language))
    assert summary == expected
    if language != "en":
        words = {word.lower() for word in re.findall(r"\w+", summary)}
        assert not words & ENGLISH_WORDS, f"English in the {language} summary: {summary}"


def test_the_rules_summary_counts_the_cards_in_russian() -> None:
    tr = Translator("ru")
    counted = [rules_summary(Rules(deck_size=n), tr).split(",")[0] for n in (24, 36, 52)]
    assert counted == ["24 карты", "36 карт", "52 карты"]
    assert rules_summary(Rules(first_bout_five=False, transfer=True), Translator("de")) == (
        "36 Karten, alle legen nach, Schieben"
    )


def test_an_unknown_language_or_key_falls_back_to_english() -> None:
    assert Translator("xx")("menu.play") == "Play"
    assert Translator("de")("no.such.key") == "no.such.key"


@pytest.mark.usefixtures("headless")
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("size", [(360, 640), (640, 360), (1280, 720)])
def test_how_to_play_fits_every_page(tmp_path: Path, language: str, size: tuple[int, int]) -> None:
    from client.app import App
    from client.screens.howto import PAGES, HowToScene
    from client.settings import Settings

    settings = Settings(language=language)
    app = App(settings, None, size=size, sound=False)
    scene = HowToScene(app)
    app.push(scene)
    panel = scene.panel()
    for page in range(PAGES):
        scene.page = page
        px, lines = scene.layout_page()
        font = app.assets.font(px)
        assert px >= 9
        assert all(font.size(text)[0] <= panel.w - 40 for text, heading in lines if not heading)
        app.step(0.0)
    rects = [b.rect for b in scene.buttons()]
    screen = pygame.Rect((0, 0), size)
    assert all(screen.contains(r) and not r.colliderect(panel) for r in rects)


@pytest.mark.usefixtures("headless")
@pytest.mark.parametrize("size", [(1280, 720), (1920, 1080), (720, 1280)])
def test_how_to_plays_page_number_sits_clear_of_the_panels_rim(
    monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    """Upright, "1 / 5" sat on the panel's rounded corner."""
    from client.app import App
    from client.screens import howto
    from client.settings import Settings
    from client.ui import render

    drawn: dict[str, pygame.Rect] = {}

    def spy(surface, assets, text, *args, **kwargs):  # type: ignore[no-untyped-def]
        drawn[text] = render.draw_text(surface, assets, text, *args, **kwargs)
        return drawn[text]

    monkeypatch.setattr(howto, "draw_text", spy)
    app = App(Settings(), None, size=size, sound=False)
    scene = howto.HowToScene(app)
    app.push(scene)
    app.step(0.0)
    number, panel = drawn[app.tr("howto.page", n=1, total=howto.PAGES)], scene.panel()
    radius = max(6, panel.h // 18)  # the corner and rim draw_panel gives it
    inner = panel.inflate(-2 * max(1, radius // 5), -2 * max(1, radius // 5))
    corner = pygame.Vector2(number.bottomright)
    centre = pygame.Vector2(inner.right - radius, inner.bottom - radius)
    assert inner.collidepoint(number.right - 1, number.bottom - 1)
    in_the_round = corner.x > centre.x and corner.y > centre.y
    assert not in_the_round or corner.distance_to(centre) <= radius
    app.close()
