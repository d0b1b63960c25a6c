"""The suite's results: one line per check as it is made, the game-long rules once at the
end, and the exit status. Every section and the client check record through one
``Record`` so that the output reads the same whichever of them made a line."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

SKIPPED = "the checks after it did not run"


class Failed(Exception):
    """A check that cannot go on (no answer, the wrong message): the text says why."""


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    passed: bool
    detail: str = ""


class Record:
    """The outcomes in order (``results``), each printed to ``out`` as it is made, and the
    game-long rules (invariants): how often each was checked and its first breach."""

    def __init__(self, out: TextIO | None = None) -> None:
        self.out = out
        self.results: list[Check] = []
        self.violations: dict[str, str] = {}  # game-long invariants: the first breach
        self.counted: dict[str, int] = {}  # how often each invariant was checked

    def check(self, name: str, passed: bool, detail: str = "") -> bool:
        self.results.append(Check(name, passed, "" if passed else detail))
        if self.out is not None:
            print(
                f"{'ok  ' if passed else 'FAIL'} {name}{'' if passed else ': ' + detail}",
                file=self.out,
                flush=True,
            )
        return passed

    def invariant(self, name: str, holds: bool, detail: str) -> None:
        """One more instance of a game-long rule; reported once, by ``invariants``."""
        self.counted[name] = self.counted.get(name, 0) + 1
        if not holds and name not in self.violations:
            self.violations[name] = detail

    def invariants(self) -> None:
        """One check for each game-long rule, in the order they were first met."""
        for name, count in self.counted.items():
            self.check(
                f"{name} ({count} times)",
                name not in self.violations,
                self.violations.get(name, ""),
            )

    def note(self, text: str) -> None:
        """A line that is not a check (it counts for nothing)."""
        if self.out is not None:
            print(f"note: {text}", file=self.out)


def report(results: list[Check]) -> int:
    """Print the last line, ``N passed, M failed``; the exit status (0: all passed)."""
    failed = sum(not r.passed for r in results)
    print(f"{len(results) - failed} passed, {failed} failed")
    return 1 if failed else 0
