"""A hello storm against a resumed password table (issue 23: the owner's ping p99 went to
851 ms and a newcomer waited 2.9 s): from 40 addresses of 127.0.0.0/8 at once, the throttle
decides before any scrypt, so the table checks no more than its budget; every check runs
in the password thread, never on the event loop; and a seated player's token gets back in
meanwhile. The table's clock stands still, so the budget does not refill (no timing)."""

from __future__ import annotations

import asyncio
import sys
import threading
from pathlib import Path

import pytest
from journals import free_port
from test_host import serving

from client.net.client import NetClient
from engine import Rules, Series
from host.credentials import Password, new_token
from host.save import SavedSeat, TableSave, save_file
from protocol import PROTOCOL_VERSION, Connection, Goodbye, Hello, Role

GUESSERS = 40
BUDGET = 20  # password checks a table makes at once (host.admission.TABLE_BURST)


class Clock:
    def __call__(self) -> float:
        return 1000.0


async def guess(port: int, source: str, password: str) -> str:
    """A hello with ``password`` from ``source``: the goodbye code it gets."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(source, 0))
    conn = Connection(Role.CLIENT)
    writer.write(conn.send(Hello(PROTOCOL_VERSION, "Guess", password)))
    try:
        while (data := await reader.read(4096)) or not conn.eof:
            conn.receive_data(data)
            message = conn.next_message()
            if message is not None:
                return message.code if isinstance(message, Goodbye) else type(message).__name__
            if not data:
                break
        return "closed"
    finally:
        writer.close()


@pytest.mark.skipif(sys.platform != "linux", reason="needs the whole of 127.0.0.0/8")
async def test_a_hello_storm_is_throttled_before_scrypt_and_a_seat_gets_back_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    anna, anna_hash = new_token()
    seats = (
        SavedSeat("human", "Anna", None, anna_hash),
        SavedSeat("empty", "", None, None),
        SavedSeat("empty", "", None, None),
    )
    port = free_port()
    saved = Password.of("kitchen").text  # a resumed table has only the hash: scrypt
    rules = Rules(players=3)
    TableSave(
        "Kitchen", rules, seats, 0, Series.new(3), 0, None, None, hold=30.0, password=saved
    ).save(save_file(tmp_path, port))
    checks: list[str] = []  # the thread each check ran in
    check = Password.check

    def counted(self: Password, attempt: str) -> bool:
        checks.append(threading.current_thread().name)
        return check(self, attempt)

    monkeypatch.setattr(Password, "check", counted)
    options = {"seats": 3, "save_dir": str(tmp_path), "resume": True}
    async with serving(port=port, **options) as host:  # type: ignore[arg-type]
        host.table.clock = Clock()
        storm = [guess(port, f"127.0.1.{n + 1}", f"guess{n}") for n in range(GUESSERS)]
        back = NetClient.connect("127.0.0.1", port, "Anna", password="kitchen", token=anna)
        *codes, anna_client = await asyncio.gather(*storm, back)
        assert anna_client.seat == 0  # a seat's token is never throttled
        assert set(codes) <= {"bad_password", "throttled"} and "throttled" in codes
        guesses = [name for name in checks if name.startswith("durak-password")]
        print(f"{len(checks)} checks, {codes.count('throttled')} hellos throttled unchecked")
        assert len(guesses) == codes.count("bad_password") <= BUDGET
        assert all(name.startswith("durak-") for name in checks), checks  # never the loop's
        late = await guess(port, "127.0.2.1", "kitchen")  # the budget is spent: unchecked
        assert late == "throttled"
        await anna_client.close()
