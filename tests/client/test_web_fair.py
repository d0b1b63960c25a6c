"""The phones' page checks the fair deal itself (docs/protocol.md section 15): the shipped
bundle, run under node, must compute the same context, commitment, seed and deal as
``protocol.fair`` and ``engine.new_game`` for random secrets, contributions, rules and
dealers, and the document's worked example."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from engine import GameResult, Rules, ThrowInRule, new_game
from engine.cards import CARDS
from protocol.fair import commitment, deal_context, deal_seed

BUNDLE = Path(__file__).resolve().parents[2] / "assets" / "web" / "static" / "app.js"
NODE = shutil.which("node")

# The bundle sets globalThis.durakFair when there is no document (see src/main.ts).
SCRIPT = """
require(process.argv[1]);
const fair = globalThis.durakFair;
const cases = JSON.parse(require("fs").readFileSync(0, "utf8"));
const out = cases.map((c) => {
  const context = fair.dealContext(c.game, c.rules, c.seats);
  const commit = fair.commitmentOf(c.secret, context);
  const seed = fair.seedOf(commit, c.secret, c.contributions);
  const deal = fair.dealFrom(seed, c.rules.deck_size, c.rules.players, c.dealer);
  return {context, commit, seed: seed.toString(),
          hands: deal.hands.map((h) => [...h].sort()), trump: deal.trump};
});
process.stdout.write(JSON.stringify(out));
"""


def _case(rng: random.Random, index: int) -> tuple[dict[str, object], dict[str, object]]:
    players = rng.randint(2, 6)
    deck = rng.choice([36, 52] if players > 4 else [24, 36, 52])
    transfer = rng.random() < 0.5
    rules = Rules(
        players=players,
        deck_size=deck,
        throw_in=rng.choice(list(ThrowInRule)),
        first_bout_five=rng.random() < 0.5,
        transfer=transfer,
        transfer_show_trump=transfer and rng.random() < 0.5,
        durak_defends_first=rng.random() < 0.5,
    )
    seats = ["human"] + [rng.choice(["human", "ai"]) for _ in range(players - 1)]
    secret = rng.randbytes(32)
    values = [(seat, rng.randbytes(32)) for seat, kind in enumerate(seats) if kind == "human"]
    game = rng.randint(1, 5000) if index else 1
    previous = None if index % 3 == 0 else GameResult((1,) * players, rng.randrange(players))
    context = deal_context(game, rules, seats)
    commit = commitment(secret, context)
    seed = deal_seed(commit, secret, values)
    state = new_game(rules, seed, previous)
    hands = [sorted(str(CARDS[i]) for i in range(52) if hand >> i & 1) for hand in state.hands]
    given = {
        "game": game,
        "rules": rules.to_dict(),
        "seats": seats,
        "secret": secret.hex(),
        "contributions": [[seat, value.hex()] for seat, value in values],
        "dealer": players - 1 if previous is None or previous.durak is None else previous.durak,
    }
    expected = {
        "context": context.decode("ascii"),
        "commit": commit,
        "seed": str(seed),
        "hands": hands,
        "trump": str(CARDS[state.trump_card]),
    }
    return given, expected


def _run(cases: list[dict[str, object]]) -> list[dict[str, object]]:
    assert NODE is not None
    done = subprocess.run(
        [NODE, "-e", SCRIPT, str(BUNDLE)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    result: list[dict[str, object]] = json.loads(done.stdout)
    return result


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_page_checks_the_deal_as_the_host_makes_it() -> None:
    rng = random.Random(2026)
    pairs = [_case(rng, index) for index in range(40)]
    computed = _run([given for given, _ in pairs])
    for (given, expected), got in zip(pairs, computed, strict=True):
        assert got == expected, given


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_the_page_follows_the_documents_worked_example() -> None:
    rules = Rules(players=3).to_dict()
    given = {
        "game": 4,
        "rules": rules,
        "seats": ["human", "human", "ai"],
        "secret": bytes(range(32)).hex(),
        "contributions": [[0, "ab" * 32], [1, "cd" * 32]],
        "dealer": 2,
    }
    (got,) = _run([given])
    assert got["commit"] == "a93da07d4ab451ff1453b3a7f9a8715be2218cce46e9d32f27887bd727146a1a"
    assert got["seed"] == "6675444580024205182"
    assert got["trump"] == "7c"
    assert got["hands"] == [
        sorted(["7h", "Ad", "Jd", "9d", "6d", "Ks"]),
        sorted(["Td", "Tc", "Kh", "Qd", "6s", "9c"]),
        sorted(["Jh", "8c", "Qs", "8h", "9s", "Ac"]),
    ]
