"""``durak review FILE``: what its chances assume (in the window's language), a line per
decision and the summary, ``--json`` with the numbers; another seat needs the log; a bad
file is a clear error (exit 2)."""

from __future__ import annotations

import json
from functools import partial
from pathlib import Path

import pytest
from kept import kept

import client.cli.review
from client.cli.main import main
from client.i18n import CATALOGUES
from client.settings import Settings
from engine.ai.coach import review
from engine.ai.reasons import WhyCode


@pytest.fixture(autouse=True)
def quick_coach(monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's words and numbers, not the coach's judgement (tests/engine proves
    that): two sampled deals a move, not 48. The solved endings stay exact, and the
    command took 7.4 s of the quick suite at 48."""
    monkeypatch.setattr(client.cli.review, "review", partial(review, samples=2))


def test_review_prints_each_decision_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DURAK_SETTINGS", str(tmp_path / "settings.json"))  # none: English
    path = kept(tmp_path, with_log=True)
    out = tmp_path / "review.json"
    assert main(["review", str(path), "--seat", "1", "--json", str(out)]) == 0
    data = json.loads(out.read_text(encoding="utf-8"))
    lines = capsys.readouterr().out.splitlines()
    assert data["seat"] == 1 and data["decisions"]
    flagged = [d for d in data["decisions"] if d["costly"]]
    # the heading, the note, the summary, and under each flagged move its reason
    assert len(lines) == len(data["decisions"]) + len(flagged) + 3
    assert flagged and all(d["why"]["code"] in set(WhyCode) for d in flagged)
    assert all(d["why"] is None for d in data["decisions"] if not d["costly"])
    for d in flagged:
        below = lines[lines.index(next(x for x in lines if x.endswith(d["text"]))) + 1]
        assert below.strip() == d["why"]["text"] and d["why"]["text"]
    assert lines[1] == data["chance_assumes"] == CATALOGUES["en"]["review.assumes"]
    for d in data["decisions"]:
        assert 0 <= d["chance"] <= 1 and 0 <= d["best_chance"] <= 1
        if d["exact"] is None:
            assert d["chance"] <= d["best_chance"]
        else:  # solved: the exact values rank the moves, the playouts give the chances
            assert d["exact"][0] <= d["exact"][1] and d["method"] == "solver"
            assert d["costly"] == (d["exact"][0] < d["exact"][1])


def test_review_says_what_its_chances_assume_in_the_windows_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = tmp_path / "settings.json"
    Settings(language="ru").save(settings)
    monkeypatch.setenv("DURAK_SETTINGS", str(settings))
    path = kept(tmp_path, with_log=True)
    assert main(["review", str(path), "--json", str(tmp_path / "review.json")]) == 0
    said = CATALOGUES["ru"]["review.assumes"]
    assert said != CATALOGUES["en"]["review.assumes"]
    assert capsys.readouterr().out.splitlines()[1] == said
    data = json.loads((tmp_path / "review.json").read_text(encoding="utf-8"))
    assert data["chance_assumes"] == said


def test_another_seat_needs_the_log_and_a_bad_file_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = kept(tmp_path, with_log=False)
    assert main(["review", str(path), "--seat", "1"]) == 2
    assert "seat 0's view only" in capsys.readouterr().err
    path.write_bytes(b"junk")
    assert main(["review", str(path)]) == 2
    assert main(["replay", str(path)]) == 2
    assert "not a game file" in capsys.readouterr().err
