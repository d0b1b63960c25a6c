"""``durak review FILE [--seat N] [--json OUT]``: the coach's verdict on each decision of
a kept game, from what the seat knew at that moment.

Prints what the chances assume (everyone, the player too, playing like the Normal computer
player from that move on: the window's Review screen says the same), then one line a
decision (the move, its chance of not being the Durak, and for a costly move the better
one with its chance, and under it the reason), in the language of the window's
settings; a progress bar on a terminal while it thinks; ``--json`` writes the numbers
too, and each reason as its code, its numbers and its sentence.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from client.cli.progress import Progress
from client.i18n import translator
from client.net.gamefile import GameFile, GameFileError
from client.review import action_text, decisions, verdict_text, why_text
from client.settings import Settings, Unreadable, default_path
from engine.ai.coach import review


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a kept game (see 'Past games' in the window)")
    parser.add_argument("--seat", type=int, default=None, help="review this seat (needs the log)")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT", help="write the verdicts")
    parser.add_argument("--seed", type=int, default=0, help="the coach's sampling seed")


def run(args: argparse.Namespace) -> int:
    try:
        game = GameFile.load(args.file)
        moves = decisions(game, args.seat)
    except (GameFileError, ValueError) as exc:
        print(f"durak review: {exc}", file=sys.stderr)
        return 2
    path = Path(os.environ["DURAK_SETTINGS"]) if "DURAK_SETTINGS" in os.environ else default_path()
    try:
        language = Settings.load(path).language
    except Unreadable:
        language = Settings().language
    tr = translator(language)
    seat = game.seat if args.seat is None else args.seat
    print(f"{game.names[seat]} · {game.ended} · {len(moves)} decisions")
    print(tr("review.assumes"))
    bar = Progress(len(moves), "reviewing")
    verdicts = list(review(moves, args.seed, progress=lambda done, _: bar.update(done)))
    bar.close()
    for verdict in verdicts:
        mark = "!!" if verdict.costly else "  "
        print(f"{mark} {verdict.decision.number + 1:4d}  {verdict_text(verdict, tr)}")
        if verdict.why is not None:
            print(f"{'':9}{why_text(verdict.why, tr, game.names)}")
    costly = sum(v.costly for v in verdicts)
    print(tr("review.done", count=costly, total=len(verdicts)) if costly else tr("review.none"))
    if args.json is not None:
        data = {
            "file": str(args.file),
            "seat": seat,
            "chance_assumes": tr("review.assumes"),
            "decisions": [
                {
                    "move": v.decision.number + 1,
                    "played": str(v.decision.action),
                    "played_text": action_text(v.decision.action, tr),
                    "chance": round(v.played, 4),
                    "best": str(v.best),
                    "best_chance": round(v.best_score, 4),
                    "costly": v.costly,
                    "method": v.method,
                    "exact": None if v.exact is None else list(v.exact),
                    "text": verdict_text(v, tr),
                    "why": None
                    if v.why is None
                    else {
                        "code": str(v.why.code),
                        "params": v.why.params(),
                        "text": why_text(v.why, tr, game.names),
                    },
                }
                for v in verdicts
            ],
        }
        args.json.write_text(json.dumps(data, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0
