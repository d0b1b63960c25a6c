"""Section 15, a fair deal, from the seats' side: malformed contributions are refused and
change nothing, a seat contributes once, and after each game every seat verifies the
deal it was dealt (the commitment, its own contribution, the seed, the replay). The
commitment before each deal is checked where the game starts (``game.Games``)."""

from __future__ import annotations

from collections.abc import Iterable

from client.cli.conformance.peer import Peer, kinds
from client.cli.conformance.report import Record
from client.cli.conformance.updates import Player
from protocol import VALUE_BYTES, Ack, Contribute, Rejected


async def bad_contributions(record: Record, anna: Peer, game: int) -> None:
    """Malformed contributions are refused and change nothing (section 15); then one
    good one is taken, and the same seat's second one refused."""
    refs = [anna.ref() for _ in range(4)]
    good = "cd" * VALUE_BYTES
    anna.send(Contribute(refs[0], game, "ab" * 3))
    anna.send_map({"type": "contribute", "ref": refs[1], "game": game, "value": 7})
    anna.send(Contribute(refs[2], game + 1, good))
    anna.send(Contribute(refs[3], game, "AB" * VALUE_BYTES))
    got = [await anna.wait_for(Rejected) for _ in refs]  # (answered in order)
    codes = ["bad_contribution", "bad_contribution", "no_commitment", "bad_contribution"]
    record.check(
        "a contribution that is not 64 lower-case hex digits, or for another game, is "
        "rejected bad_contribution or no_commitment",
        [(m.ref, m.reason) for m in got] == list(zip(refs, codes, strict=True)),
        repr([m.reason for m in got]),
    )
    ref = anna.contribute(game)
    again = anna.ref()
    anna.send(Contribute(again, game, good))
    first = await anna.next()
    second = await anna.next()
    record.check(
        "a good contribution is ack'd (seq nil); a second one of the seat is contributed",
        first == Ack(ref, None)
        and isinstance(second, Rejected)
        and (second.ref, second.reason) == (again, "contributed"),
        kinds([first, second]),
    )


def verify_deals(record: Record, players: Iterable[Player]) -> None:
    """Each of our seats checks the game it just played against what it was shown."""
    for p in players:
        verdict = p.peer.witness.verdict(p.game)
        record.invariant(
            "after each game every seat verifies the deal: the commitment matches the "
            "secret, its contribution is in, the seed follows, the actions replay to "
            "everything it was shown",
            verdict.ok,
            f"seat {p.peer.seat} game {p.game}: {verdict.text}",
        )
