"""The fair deal between the start and the game (docs/protocol.md section 15).

A start commits to a fresh secret: every connected player is sent the commitment and may
send a contribution; the seed comes from the secret and the contributions. A ``Deal``
exists from the commitment until the deal and owns what is known meanwhile: who was asked,
what each sent, and what else arrived, which waits for the deal (``waits``) so that the
seats and rules the commitment binds cannot change under it.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from engine import Rules
from protocol import (
    MAX_MS,
    Commit,
    Contribute,
    DealSecret,
    Emote,
    Ping,
    commitment,
    deal_context,
    is_value,
)

from .items import Gone, Held, Idle, Incoming, Item

__all__ = ["Deal", "waits"]


def waits(item: Item) -> bool:
    """Whether ``item`` waits until a pending deal is dealt (it could change the seats or
    the rules the commitment binds): all but contributions, pings, emotes and the deal."""
    if isinstance(item, Incoming):
        return not isinstance(item.message, Contribute | Ping | Emote)
    return isinstance(item, Gone | Held | Idle)


@dataclass(slots=True)
class Deal:
    """A deal committed to and waiting for the players' contributions."""

    game: int
    secret: DealSecret  # the secret and the seats' kinds (no contributions yet)
    waiting: frozenset[int]  # the seats that were sent the commitment
    commit: Commit  # what each of them was sent
    values: dict[int, bytes] = field(default_factory=dict)  # seat -> its contribution
    deferred: list[Item] = field(default_factory=list)  # what came meanwhile, for after

    @classmethod
    def committed(
        cls,
        game: int,
        secret: bytes,
        kinds: tuple[str, ...],
        rules: Rules,
        waiting: frozenset[int],
        wait: float,
    ) -> Deal:
        """The deal of ``game`` from ``secret``, for seats of ``kinds``; ``waiting`` are
        asked for a contribution within ``wait`` seconds."""
        deal = DealSecret(secret, kinds, ())
        sealed = commitment(deal.secret, deal_context(game, rules, kinds))
        return cls(game, deal, waiting, Commit(game, sealed, min(round(wait * 1000), MAX_MS)))

    def contribute(self, seat: int | None, message: Contribute) -> str | None:
        """Take ``seat``'s contribution, once, if it is 32 bytes as 64 hex digits; the
        refusal's code otherwise."""
        if message.game != self.game or seat not in self.waiting:
            return "no_commitment"
        if not is_value(message.value):
            return "bad_contribution"
        if seat in self.values:
            return "contributed"
        assert isinstance(message.value, str) and seat is not None
        self.values[seat] = bytes.fromhex(message.value)
        return None

    @property
    def complete(self) -> bool:
        """Every seat asked has contributed."""
        return self.waiting <= self.values.keys()

    def dealt(self) -> DealSecret:
        """The secret with the contributions it was dealt with."""
        return replace(self.secret, contributions=tuple(sorted(self.values.items())))
