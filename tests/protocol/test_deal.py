"""The fair deal's pure half (``protocol.fair``): the hash construction as docs/protocol.md
section 15 spells it out, and ``check_deal`` — a game revealed honestly is verified, and
every kind of tampering (a wrong secret, a changed or dropped contribution, another seed,
another deal, a changed action) fails with its own reason."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

from engine import GameLog, Rules, Series, Take, observe, trim
from protocol import (
    DEAL_PROBLEMS,
    PROTOCOL_VERSION,
    Commit,
    DealSeen,
    DealWitness,
    Reveal,
    Revealed,
    Room,
    SeatInfo,
    Update,
    Welcome,
    check_deal,
    commitment,
    deal_context,
    deal_seed,
)
from protocol.fair import COMMIT_DOMAIN, SEED_DOMAIN

ROOT = Path(__file__).resolve().parents[2]
RULES = Rules(players=3)
KINDS = ("human", "human", "ai")
GAME = 4
SECRET = bytes(range(32))
OURS = "ab" * 32  # seat 0's contribution: the seat that checks
THEIRS = "cd" * 32  # seat 1's
COMMIT = commitment(SECRET, deal_context(GAME, RULES, KINDS))
VALUES = ((0, OURS), (1, THEIRS))


def _seed(values: tuple[tuple[int, str], ...] = VALUES, secret: bytes = SECRET) -> int:
    return deal_seed(COMMIT, secret, [(s, bytes.fromhex(v)) for s, v in values])


def _play(seed: int, rules: Rules = RULES) -> GameLog:
    """A whole game of random legal actions from ``seed``."""
    log = GameLog(rules, seed)
    state = log.start()
    rng = random.Random(seed)
    while state.result is None:
        moves = [(s, a) for s in range(rules.players) for a in state.legal_actions(s)]
        seat, action = rng.choice(moves)
        state.apply(seat, action)
        log.actions.append((seat, action))
    return log


def _seen(log: GameLog, seat: int = 0, contribution: str | None = OURS) -> DealSeen:
    """What ``seat`` is shown of the game ``log`` records: every update and view."""
    seen = DealSeen(seat, GAME, log.rules, KINDS, None, COMMIT, contribution)
    state = log.start()
    seen.events[0] = tuple(trim(e, seat) for e in state.opening)
    seen.views[0] = observe(state, seat)
    for number, (actor, action) in enumerate(log.actions, 1):
        seen.events[number] = tuple(trim(e, seat) for e in state.apply(actor, action))
        seen.views[number] = observe(state, seat)
    return seen


def _revealed(log: GameLog, values: tuple[tuple[int, str], ...] = VALUES) -> Revealed:
    return Revealed(GAME, SECRET.hex(), values, log.seed, tuple(log.actions), False)


HONEST = _play(_seed())


def test_the_hash_construction_is_the_documented_one() -> None:
    """Byte for byte as section 15 says, computed here with hashlib alone; and the worked
    example printed there is what these functions give."""
    context = json.dumps(
        {"game": GAME, "rules": RULES.to_dict(), "seats": list(KINDS)},
        sort_keys=True,
        separators=(",", ":"),
    ).encode()
    assert COMMIT_DOMAIN == b"durak fair deal 4 commitment\n"
    assert SEED_DOMAIN == b"durak fair deal 4 seed\n"
    assert hashlib.sha256(COMMIT_DOMAIN + SECRET + context).hexdigest() == COMMIT
    digest = hashlib.sha256(
        SEED_DOMAIN
        + bytes.fromhex(COMMIT)
        + SECRET
        + b"\x00"
        + bytes.fromhex(OURS)
        + b"\x01"
        + bytes.fromhex(THEIRS)
    ).digest()
    assert _seed() == int.from_bytes(digest[:8], "big") >> 1 < 2**63
    assert _seed(VALUES[::-1]) == _seed()  # seat order, whatever order they are given in
    doc = (ROOT / "docs" / "protocol.md").read_text(encoding="utf-8")
    assert context.decode() in doc and COMMIT in doc and str(_seed()) in doc


def test_an_honest_deal_is_verified_and_gives_the_log() -> None:
    verdict = check_deal(_seen(HONEST), _revealed(HONEST))
    assert verdict.ok and verdict.problem == "" and verdict.log is not None
    assert verdict.log.seed == HONEST.seed and verdict.log.actions == HONEST.actions
    assert verdict.log.replay().result == HONEST.replay().result


def test_a_seat_that_did_not_contribute_verifies_without_its_value() -> None:
    """A client that sent nothing (or too late) knows its value was not used: the deal is
    still checked against the commitment and the rest."""
    values = ((1, THEIRS),)
    log = _play(_seed(values))
    assert check_deal(_seen(log, contribution=None), _revealed(log, values)).ok


@pytest.mark.parametrize(
    ("tamper", "problem"),
    [
        ("wrong secret", "commitment"),
        ("secret not 32 bytes", "commitment"),
        ("our contribution changed", "contribution"),
        ("our contribution dropped", "contribution"),
        ("another's contribution changed", "seed"),
        ("another seed", "seed"),
        ("a different deal", "deal"),
        ("an action changed", "log"),
        ("actions cut short", "log"),
        ("no reveal", "no_reveal"),
        ("no commitment seen", "no_commitment"),
        ("another game's reveal", "no_reveal"),
    ],
)
def test_tampering_fails_with_its_reason(tamper: str, problem: str) -> None:
    seen, revealed = _seen(HONEST), _revealed(HONEST)
    if tamper == "wrong secret":
        revealed = replace(revealed, secret=bytes(32).hex())
    elif tamper == "secret not 32 bytes":
        revealed = replace(revealed, secret="ab")
    elif tamper == "our contribution changed":
        # (the host recomputed the seed from the changed value and dealt from it)
        values = ((0, "ee" * 32), (1, THEIRS))
        log = _play(_seed(values))
        seen, revealed = _seen(log), _revealed(log, values)
    elif tamper == "our contribution dropped":
        values = ((1, THEIRS),)
        log = _play(_seed(values))
        seen, revealed = _seen(log), _revealed(log, values)
    elif tamper == "another's contribution changed":
        revealed = replace(revealed, contributions=((0, OURS), (1, "ee" * 32)))
    elif tamper == "another seed":
        revealed = replace(revealed, seed=revealed.seed ^ 1)
    elif tamper == "a different deal":
        # the host dealt from a seed of its own choosing, then revealed honest-looking
        # values and the actions of a game played from them
        chosen = _play(12345)
        seen = _seen(chosen)
    elif tamper == "an action changed":
        actions = list(revealed.actions)
        seat, _ = actions[0]
        actions[0] = (seat, Take())
        revealed = replace(revealed, actions=tuple(actions))
    elif tamper == "actions cut short":
        revealed = replace(revealed, actions=revealed.actions[:-1])
    elif tamper == "no reveal":
        revealed = None  # type: ignore[assignment]
    elif tamper == "no commitment seen":
        seen.commitment = None
    elif tamper == "another game's reveal":
        revealed = replace(revealed, game=GAME + 1)
    verdict = check_deal(seen, revealed)
    assert not verdict.ok and verdict.problem == problem and verdict.log is None
    assert verdict.problem in DEAL_PROBLEMS and verdict.text


def test_a_game_seen_in_part_is_checked_on_what_was_seen() -> None:
    """A seat that was away for a while (it saw a snapshot instead of some updates) is
    checked on the updates and views it had; a view it never had cannot fail it, a wrong
    one does."""
    seen = _seen(HONEST)
    for seq in range(3, 9):
        seen.events.pop(seq)
        seen.views.pop(seq)
    assert check_deal(seen, _revealed(HONEST)).ok
    other = _seen(_play(777))
    seen.views[10] = other.views[10]
    verdict = check_deal(seen, _revealed(HONEST))
    assert verdict.problem == "deal"


def test_the_witness_gathers_the_messages_of_a_game_and_checks_its_reveal() -> None:
    """``DealWitness`` fed the host's messages in order (the room, the commitment, every
    update, the reveal in two parts) gives the verdict at the last part."""
    seats = (SeatInfo("human", "Anna"), SeatInfo("human", "Boris"), SeatInfo("ai", "Random"))
    room = Room("t", "lobby", 0, seats, RULES, False, False, Series.new(3), GAME - 1)
    witness = DealWitness()
    witness.see(Welcome(PROTOCOL_VERSION, 0, "0" * 32, room))
    witness.see(Commit(GAME, COMMIT, 2000))
    witness.contributed(GAME, OURS)
    state = HONEST.start()
    witness.see(Update(GAME, 0, tuple(trim(e, 0) for e in state.opening), observe(state, 0)))
    for number, (actor, action) in enumerate(HONEST.actions, 1):
        events = tuple(trim(e, 0) for e in state.apply(actor, action))
        witness.see(Update(GAME, number, events, observe(state, 0)))
    half = len(HONEST.actions) // 2
    parts = [(0, HONEST.actions[:half], False), (half, HONEST.actions[half:], True)]
    verdicts = [
        witness.see(Reveal(GAME, SECRET.hex(), VALUES, HONEST.seed, at, tuple(a), False, done))
        for at, a, done in parts
    ]
    assert verdicts[0] is None and verdicts[1] is not None and verdicts[1].ok
    assert witness.verdict(GAME).ok
    assert witness.verdict(GAME + 1).problem == "no_commitment"
