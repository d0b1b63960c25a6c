"""Who may come in: the table's password and the throttle on wrong guesses.

A hello without a token learns of a running game or a full table before its password is
looked at (the table asks in that order), and a newcomer from an address still waiting
after wrong passwords is turned away before the password is looked at
(``host.admission.PasswordThrottle``): so no answer tells a right password from a wrong
one but a seat. A resumed table's password is a saved scrypt hash, slow to check, so the
host checks a hello's against it off the loop, after the throttle (``host.server``), before
the table sees it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .admission import PasswordThrottle, Verdict, throttled_text
from .credentials import Password

__all__ = ["Gate", "Refusal"]


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a connection is not let in: its goodbye's code and text."""

    code: str
    text: str


WRONG = Refusal("bad_password", "The password is wrong.")


class Gate:
    def __init__(self, password: Password | None, clock: Callable[[], float]) -> None:
        self.password = password  # None: anyone may come in
        self.throttle = PasswordThrottle(clock)

    def right(self, attempt: str | None, checked: bool | None) -> bool:
        """Whether ``attempt`` is the table's password (``checked``: the answer worked out
        off the loop, where the check is slow)."""
        if self.password is None:
            return True
        if checked is not None:
            return checked
        return self.password.check(attempt or "")

    def newcomer(self, address: str, attempt: str | None, checked: bool | None) -> Refusal | None:
        """A newcomer's password, throttled per address and per table (``checked``: checked
        and throttled by the host before the hello came, else here): why they are not let
        in, if not."""
        if self.password is None:
            return None
        if checked is None:
            verdict = self.throttle.check(address, attempt, self.password.check)
        else:
            verdict = Verdict(checked)
        if verdict.wait > 0:
            return Refusal("throttled", throttled_text(verdict.wait))
        return None if verdict.ok else WRONG
