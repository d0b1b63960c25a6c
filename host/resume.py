"""What ``durak host --resume`` takes up: the newest state the host wrote, never an older
one, and never a damaged file read as if it were whole.

A table lives in two files (``host.save``, ``host.journal``), and a crash, a full disk or a
person can leave them out of step: a journal of game 3 beside a save of the room after game
15, a save that names a game in play whose journal is gone, a journal damaged in its
middle. Each file's ``Generation`` (its game, whether that game is over, its move) says
which is newer:

- a journal of a game after the save's is the game in play; the save's last game stays
  the "last game";
- a journal of a game the save already has (or is past) is stale: it is set aside (renamed
  ``table-P.game-G.stale``, never deleted) with a note, and the save is taken up;
- a save that names a game in play (``host.save.JOURNAL_KEY``) with no journal of that game
  beside it: that game would be lost, so ``SaveError`` says so;
- a damaged journal (``host.journal.Damage``: a bad record with whole ones after it, or
  junk at its end that is no record a crash cut short): ``SaveError`` names the file and
  the offset, and the file is left as it was;
- a journal of fewer moves than the save's checkpoint of it (``host.save.ACKED_KEY``: the
  moves it held on disk, and so maybe acknowledged, when the save was written): it was cut
  in its middle and moves the players may have seen are lost, so ``SaveError`` says which.
  (A record torn at the end of a journal that holds its checkpoint's moves is the write a
  crash interrupted: dropped, and said in the notes.)

The last three are taken up anyway with ``accept_loss`` (``durak host --resume
--accept-loss``), after a note that says what is lost; a damaged journal is then kept
beside it as ``table-P.game-G.damaged``. Nothing here writes a file but those renames.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from . import durable
from .journal import journal_file, read_journal
from .save import ACKED_KEY, JOURNAL_KEY, SaveError, TableSave, decode

__all__ = ["Generation", "Loaded", "load_table"]

ACCEPT = "durak host --resume --accept-loss"


@dataclass(frozen=True, slots=True, order=True)
class Generation:
    """How new a file's table is: its game, whether that game is over (a save of the room
    after it), and the moves of it written."""

    game: int
    over: bool
    seq: int

    @classmethod
    def of(cls, saved: TableSave) -> Generation:
        current = saved.current
        return cls(saved.game, current is None, 0 if current is None else len(current.actions))

    def __str__(self) -> str:
        return f"game {self.game}" + (" (in the room)" if self.over else f" at move {self.seq}")


@dataclass(frozen=True, slots=True)
class Loaded:
    """The table to resume, the bytes of a torn last journal record dropped, and what the
    person resuming should be told (stale files set aside, losses accepted)."""

    table: TableSave
    torn: int = 0
    notes: tuple[str, ...] = field(default=())


def load_table(save_path: Path, accept_loss: bool = False) -> Loaded:
    """The newest table the files beside ``save_path`` hold (see the module docstring);
    ``SaveError`` naming the file and the problem if there is none to take up safely."""
    journal_path = journal_file(save_path)
    notes: list[str] = []
    if not save_path.exists():
        if not journal_path.exists():
            return Loaded(TableSave.load(save_path))  # (its SaveError says there is none)
        game = _read_game(journal_path, accept_loss, notes)
        return Loaded(game.table, game.torn, tuple(notes))
    saved, marked, acked = _read_save(save_path)
    stale = None
    if journal_path.exists():
        game = _read_game(journal_path, accept_loss, notes)
        if Generation.of(game.table) > Generation.of(saved) and (
            marked is None or marked <= game.table.game
        ):
            if marked == game.table.game and acked is not None:
                _check_acked(journal_path, game, acked, accept_loss, notes)
            table = TableSave(**{**_fields(game.table), "last": saved.last})
            return Loaded(table, game.torn, tuple(notes))
        stale = game.table
    if marked is not None and marked > saved.game and (stale is None or stale.game < marked):
        lost = f"the journal of game {marked}, which the save says is being played,"
        if not accept_loss:
            raise SaveError(
                f"{journal_path}: {lost} is missing, so that game would be lost."
                f" Put it back, or take up the room without it: {ACCEPT}"
            )
        notes.append(f"{lost} is missing: that game is lost; the table resumes in the room")
    if stale is not None:
        aside = _set_aside(journal_path, stale.game, "stale")
        notes.append(
            f"{journal_path} is older ({Generation.of(stale)}) than the save"
            f" ({Generation.of(saved)}): set aside as {aside.name}"
        )
    return Loaded(saved, 0, tuple(notes))


@dataclass(frozen=True, slots=True)
class _Game:
    table: TableSave
    torn: int


def _read_game(path: Path, accept_loss: bool, notes: list[str]) -> _Game:
    journal = read_journal(path)
    try:
        table = TableSave.from_dict(journal.table)
    except SaveError as exc:
        raise SaveError(f"{path}: {exc}") from None
    damage = journal.damage
    if damage is None:
        if journal.torn:
            notes.append(
                f"the journal ended in a record the crash cut short ({journal.torn} bytes,"
                " never sent to anyone): dropped"
            )
        return _Game(table, journal.torn)
    what = (
        f"the record there is bad and {damage.after} whole records follow it"
        if damage.after
        else f"the {damage.junk} bytes from there to the end are no record a crash cut short"
    )
    lost = (
        f"{path} is damaged at byte {damage.offset}: {what}, so game {table.game} would"
        f" go back to move {damage.actions} and lose what came after"
    )
    if not accept_loss:
        raise SaveError(f"{lost}. The file was left as it is; to accept that loss: {ACCEPT}")
    kept = _set_aside(path, table.game, "damaged")
    notes.append(f"{lost}: accepted; the damaged file is kept as {kept.name}")
    return _Game(table, 0)


def _check_acked(path: Path, game: _Game, acked: int, accept_loss: bool, notes: list[str]) -> None:
    """A journal of fewer moves than its checkpoint was cut in its middle: say which
    moves are lost."""
    current = game.table.current
    moves = 0 if current is None else len(current.actions)
    if moves >= acked:
        return
    lost = (
        f"{path} holds {moves} moves of game {game.table.game}, but the save says {acked}"
        f" were written and may have been shown: the journal was cut short in its middle,"
        f" and moves {moves + 1} to {acked} (after move {moves}) are lost"
    )
    if not accept_loss:
        raise SaveError(f"{lost}. The file was left as it is; to accept that loss: {ACCEPT}")
    notes.append(f"{lost}: accepted; the game goes on from move {moves}")


def _read_save(path: Path) -> tuple[TableSave, int | None, int | None]:
    """The save, the game in play it names (None: none), and its checkpoint of that
    game's journal (its moves; None: none, or a save of an older host)."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise SaveError(f"{path}: cannot read the saved table ({exc.strerror})") from None
    try:
        table: Any = decode(raw)
        saved = TableSave.from_dict(table)
    except SaveError as exc:
        raise SaveError(f"{path}: {exc}") from None
    marked = table.get(JOURNAL_KEY)
    if marked is not None and (type(marked) is not int or marked < 0):
        raise SaveError(f"{path}: '{JOURNAL_KEY}' must be a game's number or null")
    acked = table.get(ACKED_KEY)
    if acked is not None and (type(acked) is not int or acked < 0):
        raise SaveError(f"{path}: '{ACKED_KEY}' must be a count of moves or null")
    return saved, marked, acked


def _set_aside(path: Path, game: int, why: str) -> Path:
    """Rename ``path`` out of the way (``table-P.game-G.<why>``), replacing an older one."""
    target = path.with_name(f"{path.stem}.game-{game}.{why}")
    durable.replace(path, target)
    return target


def _fields(saved: TableSave) -> dict[str, Any]:
    return {name: getattr(saved, name) for name in TableSave.__dataclass_fields__}
