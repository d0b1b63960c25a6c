"""A table's rules in a few words of the player's language: "36 Karten, alle legen nach"."""

from __future__ import annotations

from collections.abc import Callable

from client.i18n import Translator
from engine import Rules, ThrowInRule

__all__ = ["comma_lines", "rules_summary"]


def rules_summary(rules: Rules, tr: Translator) -> str:
    """The deck, who throws in and every option that is on, e.g. "36 cards, throw-in all,
    first bout 5" (in English the same words as ``Rules.summary``)."""
    all_throw_in = rules.throw_in is ThrowInRule.ALL
    parts = [
        tr.plural("menu.deck_value", rules.deck_size),
        tr("summary.throw_in.all" if all_throw_in else "summary.throw_in.neighbours"),
    ]
    if rules.first_bout_five:
        parts.append(tr("summary.first_bout_five"))
    if rules.transfer:
        parts.append(
            tr("summary.transfer_show_trump" if rules.transfer_show_trump else "summary.transfer")
        )
    if rules.durak_defends_first:
        parts.append(tr("summary.durak_defends_first"))
    return ", ".join(parts)


def comma_lines(text: str, width: float, measure: Callable[[str], int]) -> list[str]:
    """``text``, a list of ", "-separated parts (a summary), broken into lines no wider
    than ``width`` (``measure``: a line's width) between its parts; where one part is
    wider, its line is too."""
    lines: list[str] = []
    for part in text.split(", "):
        if lines and measure(f"{lines[-1]}, {part},") <= width:
            lines[-1] += ", " + part
        else:
            if lines:
                lines[-1] += ","
            lines.append(part)
    return lines
