"""The host's refusals read in the player's language: every code the host can send has
words in every catalogue, and the room screen and the table scene both show them; a code
from a newer host shows the host's own words."""

from __future__ import annotations

import ast
import queue
from pathlib import Path

import pytest

from client.app import App
from client.i18n import CATALOGUES, LANGUAGES, Translator
from client.i18n.refusals import PARTY_REFUSAL_KEYS, REFUSAL_KEYS, refusal_text
from client.net.scripted import ScriptedSession
from client.net.session import Rejected
from client.screens.room.screen import RoomScene
from client.screens.table.overlays import DEAL_KEYS
from client.screens.table.screen import TableScene
from client.settings import Settings
from engine import Reason, Rules, new_game
from host.lobby import REFUSALS
from protocol import DEAL_PROBLEMS, Refusal

HOST = Path(__file__).resolve().parents[2] / "host"
PARTY_PORT = HOST / "party" / "server.py"  # the party's own port and its refusals


def host_refusal_codes(party: bool = False) -> set[str]:
    """Every refusal code the host sends of its own (not an engine reason): the lobby's
    texts and every code written out in a ``_reject(...)`` or ``Rejected(...)`` in host/
    (``party``: those of a party's own port instead, section 17: host/party/server.py;
    a party's tables, host/party/tables.py, are tables and refuse as tables do)."""
    codes = set() if party else set(REFUSALS)
    for path in sorted(HOST.rglob("*.py")):
        if (path == PARTY_PORT) != party:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", None)
            at = {"_reject": 2, "Rejected": 1}.get(name or "")
            if at is None or len(node.args) <= at:
                continue
            arg = node.args[at]
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str):
                codes.add(arg.value)
    return codes


def test_the_scan_finds_the_hosts_refusals() -> None:
    codes = host_refusal_codes()
    assert {"not_owner", "seats_empty", "no_such_seat", "bad_rules"} <= codes
    assert not codes & {reason.value for reason in Reason}  # those are the engine's


def test_every_code_the_host_refuses_with_is_a_refusal_the_window_words() -> None:
    """The codes written out in host/ are all ``protocol.Refusal``'s, and the window has
    a key for each of those and for nothing else."""
    assert host_refusal_codes() == {refusal.value for refusal in Refusal}
    assert set(REFUSAL_KEYS) == set(Refusal)


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_of_the_host_has_words_in_every_language(language: str) -> None:
    tr = Translator(language)
    english = CATALOGUES["en"]
    for code in sorted(host_refusal_codes()):
        key = REFUSAL_KEYS.get(code)
        assert key is not None, f"client.i18n.refusals.REFUSAL_KEYS lacks the host's {code!r}"
        assert key in CATALOGUES[language], f"{language} lacks {key}"
        assert refusal_text(code, "host words", tr) == CATALOGUES[language][key]
        if language != "en":
            assert CATALOGUES[language][key] != english[key], f"{language} {key} is English"


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_refusal_of_a_party_has_words_in_every_language(language: str) -> None:
    """A party's port refuses with codes of its own (docs/protocol.md section 17)."""
    codes = host_refusal_codes(party=True)
    assert {"not_organiser", "board"} <= codes <= set(PARTY_REFUSAL_KEYS)
    for key in PARTY_REFUSAL_KEYS.values():
        assert key in CATALOGUES[language], f"{language} lacks {key}"
        if language != "en":
            assert CATALOGUES[language][key] != CATALOGUES["en"][key], f"{language} {key}"


def test_engine_reasons_and_unknown_codes() -> None:
    tr = Translator("nl")
    assert refusal_text("not_your_turn", "It is not your turn.", tr) == tr("reason.not_your_turn")
    assert refusal_text("from_a_newer_host", "host words", tr) == "host words"


class Lobby:
    """A room session that only says what a test puts in its inbox."""

    def __init__(self) -> None:
        self.inbox: queue.Queue[object] = queue.Queue()

    def close(self) -> None:
        pass


@pytest.mark.usefixtures("headless")
def test_the_room_and_the_table_say_a_refusal_in_the_players_language() -> None:
    app = App(Settings(language="de"), None, size=(800, 600), sound=False)
    session = Lobby()
    room = RoomScene(app, session)  # type: ignore[arg-type]
    app.push(room)
    session.inbox.put(Rejected("not_owner", REFUSALS["not_owner"]))
    app.step(0.02)
    assert room.message == "Das darf nur der Gastgeber."
    session.inbox.put(Rejected("something_new", "Words of a newer host."))
    app.step(0.02)
    assert room.message == "Words of a newer host."
    app.close()

    game = ScriptedSession(new_game(Rules(), 3))
    app = App(
        Settings(language="ru"),
        None,
        size=(800, 600),
        sound=False,
        session_factory=lambda r, s: game,
    )
    app.start_game(Rules())
    table = app.stack[-1]
    assert isinstance(table, TableScene)
    for _ in range(200):
        app.step(0.05)
        if table.board is not None and table.view is not None and table.idle:
            break
    game.inbox.put(Rejected("no_game", REFUSALS["no_game"]))
    for _ in range(5):
        app.step(0.05)
    assert table.choice.bubble is not None and table.choice.bubble[0] == "Сейчас игра не идёт."
    app.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_reason_a_deal_can_fail_has_words(language: str) -> None:
    """The end panel names why a deal could not be verified (``protocol.DEAL_PROBLEMS``)
    in the player's language."""
    assert set(DEAL_KEYS) == set(DEAL_PROBLEMS)
    tr = Translator(language)
    for key in DEAL_KEYS.values():
        why = CATALOGUES[language][key]
        assert why and tr("deal.failed", why=why).count(why) == 1
