"""Why an action is refused: a stable machine-readable code and a short English text."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

__all__ = ["IllegalAction", "Reason"]


class Reason(StrEnum):
    """A refusal. ``reason.value`` is the stable code; ``reason.text`` the English text."""

    GAME_OVER = "game_over"
    NOT_YOUR_TURN = "not_your_turn"
    PLAYER_OUT = "player_out"
    NOT_DEFENDER = "not_defender"
    NOT_ATTACKER = "not_attacker"
    MUST_LEAD_FIRST = "must_lead_first"
    BOUT_IN_PROGRESS = "bout_in_progress"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    NOT_SAME_RANK = "not_same_rank"
    RANK_NOT_ON_TABLE = "rank_not_on_table"
    TABLE_FULL = "table_full"
    DEFENDER_HAND_LIMIT = "defender_hand_limit"
    NEIGHBOURS_ONLY = "neighbours_only"
    NOTHING_TO_BEAT = "nothing_to_beat"
    ALREADY_BEATEN = "already_beaten"
    DOES_NOT_BEAT = "does_not_beat"
    WRONG_SUIT = "wrong_suit"
    TRUMP_BEATS_ONLY_HIGHER = "trump_beats_only_higher"
    ALREADY_TAKING = "already_taking"
    TRANSFER_NOT_ALLOWED = "transfer_not_allowed"
    TRANSFER_AFTER_BEAT = "transfer_after_beat"
    NEXT_PLAYER_TOO_FEW_CARDS = "next_player_too_few_cards"
    NOT_A_TRUMP = "not_a_trump"
    ALREADY_SHOWN = "already_shown"
    NOT_ALL_BEATEN = "not_all_beaten"
    ALREADY_PASSED = "already_passed"

    @property
    def text(self) -> str:
        return _TEXTS[self]


_TEXTS = {
    Reason.GAME_OVER: "The game is over.",
    Reason.NOT_YOUR_TURN: "It is not your turn.",
    Reason.PLAYER_OUT: "You are out of this game.",
    Reason.NOT_DEFENDER: "Only the defender can do that.",
    Reason.NOT_ATTACKER: "The defender cannot attack.",
    Reason.MUST_LEAD_FIRST: "The attacker must lead first.",
    Reason.BOUT_IN_PROGRESS: "The bout has already been opened.",
    Reason.CARD_NOT_IN_HAND: "That card is not in your hand.",
    Reason.NOT_SAME_RANK: "The cards must all have the same rank.",
    Reason.RANK_NOT_ON_TABLE: "Its rank is not on the table.",
    Reason.TABLE_FULL: "No more cards can be added in this bout.",
    Reason.DEFENDER_HAND_LIMIT: "The defender has no cards left to answer more.",
    Reason.NEIGHBOURS_ONLY: "Only the defender's neighbours may add cards.",
    Reason.NOTHING_TO_BEAT: "There is no such card to beat.",
    Reason.ALREADY_BEATEN: "That card is already beaten.",
    Reason.DOES_NOT_BEAT: "It needs a higher card of the same suit.",
    Reason.WRONG_SUIT: "It needs the same suit or a trump.",
    Reason.TRUMP_BEATS_ONLY_HIGHER: "A trump is beaten only by a higher trump.",
    Reason.ALREADY_TAKING: "You are already taking the cards.",
    Reason.TRANSFER_NOT_ALLOWED: "Transfer is not allowed at this table.",
    Reason.TRANSFER_AFTER_BEAT: "You cannot transfer after beating a card.",
    Reason.NEXT_PLAYER_TOO_FEW_CARDS: "The next player has too few cards to take the transfer.",
    Reason.NOT_A_TRUMP: "Only a trump can be shown to transfer.",
    Reason.ALREADY_SHOWN: "You have already shown a trump in this bout.",
    Reason.NOT_ALL_BEATEN: "Not every card is beaten yet.",
    Reason.ALREADY_PASSED: "You have already passed.",
}


class IllegalAction(Exception):
    """An action the rules refuse; the game state is left untouched."""

    def __init__(self, reason: Reason, seat: int, action: Any) -> None:
        super().__init__(f"seat {seat} cannot {action}: {reason.value} ({reason.text})")
        self.reason = reason
        self.seat = seat
        self.action = action
