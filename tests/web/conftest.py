"""Fixtures of the browser tests: the Chromium to drive, a browser per test, and tables
serving the phones' page.

Without Chromium, or without the built page (assets/web/static), the tests skip and say
why, except under CI (the variable ``CI`` set, as .ci/run's machine and every CI service
sets it), where they fail: .ci/run installs Chromium and the page is committed, so a CI
run without either is broken, not excused."""

from __future__ import annotations

import asyncio
import os
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from contextlib import AsyncExitStack
from typing import NoReturn

import pytest
from browser import Browser, Chromium, find_chromium
from phone import ROOT
from web_tables import OpenTable, WebTable, web_table

PAGE = ROOT / "assets" / "web" / "static" / "index.html"


def missing(what: str, remedy: str) -> NoReturn:
    """Skips the test for want of ``what``, or fails it under CI."""
    if os.environ.get("CI"):
        pytest.fail(f"no {what}: CI must run the browser tests")
    pytest.skip(f"no {what} ({remedy})")


@pytest.fixture(scope="session")
def chromium() -> str:
    """The path of the Chromium (or Chrome) the tests drive."""
    found = find_chromium()
    if found is None:
        missing("Chromium", "apt-get install chromium, or set DURAK_CHROMIUM to one")
    return found


@pytest.fixture(scope="session")
def chromium_process(chromium: str) -> Iterator[Callable[[], Chromium]]:
    """The running Chromium of this worker's browser tests, started when first asked for
    (again if it has died) and stopped, its profile removed, when the session ends. One
    process serves every test: starting one costs about 0.7 s of CPU, and each test's
    pages live in browser contexts of their own, closed after it."""
    started: list[Chromium] = []

    def running() -> Chromium:
        if not started or not started[-1].alive:
            if started:
                started.pop().stop()
            started.append(Chromium.start(chromium))
        return started[-1]

    try:
        yield running
    finally:
        for process in started:
            process.stop()


@pytest.fixture
async def browser(chromium_process: Callable[[], Chromium]) -> AsyncIterator[Browser]:
    """A headless Chromium for one test, its pages closed afterwards (the process serves
    the next test). A test asks for its servers (a host, a site) before ``browser``, so
    that the pages go first at teardown: a page whose server goes while it is open
    retries its socket. Its pages play at the page's Fast animations, a player's own
    choice: the cards fly and the steps hold 1.8 times as briefly, which changes nothing
    these tests look at and shortens their waits (tests/benchmarks/web_page.py times the
    page at Normal)."""
    process = await asyncio.to_thread(chromium_process)
    async with Browser.attached(process, speed="fast") as attached:
        yield attached


@pytest.fixture
async def tables() -> AsyncIterator[OpenTable]:
    """Opens tables (``await tables(**options)``, HostConfig's fields), all stopped at
    teardown. Asked for before ``browser``, it is torn down after it."""
    if not PAGE.is_file():
        missing("phones' page", f"{PAGE.relative_to(ROOT)} is built from assets/web/src")
    async with AsyncExitStack() as stack:

        async def open_table(**options: object) -> WebTable:
            return await stack.enter_async_context(web_table(**options))

        yield open_table


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """A test that passed fails when any of its pages threw or logged an error the test
    did not take out of ``page.errors`` itself. Looked at when the test's own code ends,
    not at teardown, where the servers it used go down under the still open pages."""
    result = yield
    launched = getattr(item, "funcargs", {}).get("browser")
    if isinstance(launched, Browser):
        errors = {page.target: page.errors for page in launched.pages if page.errors}
        assert not errors, f"page errors: {errors}"
    return result
