"""The seat the table waits for says so while its AI decides ("Thinking…"), in every
language; a human's seat, or an AI the table is not waiting for, does not."""

from __future__ import annotations

import pytest

from client.i18n import translator
from client.screens.table.board import Board
from client.screens.table.draw import seat_detail
from client.screens.table.layout import Layout
from engine import Card, Rules

pytestmark = pytest.mark.usefixtures("headless")


def board(attacker: int, defender: int, table: list[list[Card | None]]) -> Board:
    b = Board(Layout((1280, 720), 3, 0), 0, Rules(players=3))
    b.attacker, b.defender, b.table = attacker, defender, table
    return b


def test_an_ai_to_lead_is_thinking() -> None:
    tr = translator("en")
    lead = board(attacker=1, defender=2, table=[])
    assert seat_detail(lead, 1, 6, tr, "ai")[0].startswith("Thinking…")
    assert "Thinking" not in seat_detail(lead, 2, 6, tr, "ai")[0]  # waits for the lead
    assert "Thinking" not in seat_detail(lead, 1, 6, tr, "connected")[0]  # a human


def test_an_ai_stand_in_to_answer_an_attack_is_thinking_in_each_language() -> None:
    attack = board(attacker=0, defender=1, table=[[Card.parse("7h"), None]])
    words = {"en": "Thinking…", "de": "Überlegt…", "nl": "Denkt na…", "ru": "Думает…"}
    for language, word in words.items():
        text, _ = seat_detail(attack, 1, 5, translator(language), "stand_in")
        assert text.startswith(word)
    beaten = board(attacker=0, defender=1, table=[[Card.parse("7h"), Card.parse("9h")]])
    assert "Thinking" not in seat_detail(beaten, 1, 5, translator("en"), "ai")[0]
