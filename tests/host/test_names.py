"""Names at a table: two players who sit down under one name (two ``durak bot`` clients
both called "Normal bot") are told apart by the host, names are compared by what a person
sees, and a name that shows nothing or reads as a seat nobody plays is refused (on the
socket-free harness; a party's joins: tests/host/test_party_faults.py)."""

from __future__ import annotations

from harness import Harness

from host import HostConfig
from protocol import Watching
from protocol.fields import MAX_NAME
from protocol.names import numbered, refusal, seen


def test_a_name_already_at_the_table_gets_a_number() -> None:
    assert numbered("Anna", {"Boris"}) == "Anna"
    assert numbered("Anna", {"Anna"}) == "Anna 2"
    assert numbered("Anna", {"Anna", "Anna 2"}) == "Anna 3"
    assert numbered("Anna 2", {"Anna", "Anna 2"}) == "Anna 3"  # not "Anna 2 2"
    assert numbered("\u0410nna", {"Anna"}) == "\u0410nna 2"  # a Cyrillic A reads as A
    long = "x" * MAX_NAME
    assert numbered(long, {long}) == "x" * (MAX_NAME - 2) + " 2"  # still a valid name


def test_names_are_compared_by_what_a_person_sees() -> None:
    anna = seen("Anna")
    for alike in (
        "\u0410nna",
        "ANNA",
        "\u0391\u039d\u039d\u0391",
        "\uff21nna",
        "Ann\u00e1",
        "Anna ",
    ):
        assert seen(alike) == anna, alike
    assert seen("Anne") != anna and seen("Anna 2") != anna


def test_a_name_that_shows_nothing_or_a_seat_nobody_plays_is_refused() -> None:
    for blank in ("\u3164", "\u115f", "\uffa0", "\u2800", "\u0301"):
        assert refusal(blank) is not None, ascii(blank)
    for hidden in ("Anna\u034f", "An\u200bna", "Anna\ufe0f"):
        assert refusal(hidden) is not None, ascii(hidden)
    for word in ("Host", "the host", "Organiser", "organizer", "Random", "Easy", "Normal",
                 "HARD", "AI", "\u0410I", "Open seat", "Freier Platz", "\u0418\u0418"):  # fmt: skip
        assert refusal(word) is not None, word
    for fine in ("Anna", "Normal bot", "Host 2", "Jos\u00e9", "\u0410\u043d\u043d\u0430", "\u674e"):
        assert refusal(fine) is None, fine


def test_a_table_refuses_an_impersonating_name_and_numbers_a_look_alike() -> None:
    pair = Harness(HostConfig(seats=4, announce=False))
    anna = pair.join("Anna")
    for refused in ("\u3164", "Anna\u034f", "The host", "Normal"):
        assert pair.join(refused).closed == "bad_name", ascii(refused)
        assert pair.join(refused, role="watch").closed == "bad_name", ascii(refused)
    pair.join("\u0410nna")
    pair.join("Anna 2")
    names = [s.name for s in anna.room.seats[:3]]
    assert names == ["Anna", "\u0410nna 2", "Anna 3"]
    watcher = pair.join("Anna 2", role="watch")
    assert watcher.last(Watching).room.watching == ("Anna 4",)


def test_two_bots_of_one_name_sit_as_two_players() -> None:
    pair = Harness(HostConfig(seats=3, announce=False))
    first, second = pair.join("Normal bot"), pair.join("Normal bot")
    names = [s.name for s in first.room.seats[:2]]
    assert second.seat == 1 and names == ["Normal bot", "Normal bot 2"]
