"""Fixtures of the browser tests: the Chromium to drive and a browser per test.

Without Chromium the tests skip and say why, except under CI (the variable ``CI`` set, as
.ci/run's machine and every CI service sets it), where they fail: .ci/run installs
Chromium, so a CI run without it is broken, not excused."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Generator

import pytest
from browser import Browser, find_chromium


@pytest.fixture(scope="session")
def chromium() -> str:
    """The path of the Chromium (or Chrome) the tests drive."""
    found = find_chromium()
    if found is None:
        if os.environ.get("CI"):
            pytest.fail("no Chromium: CI must run the browser tests (.ci/run installs it)")
        pytest.skip("no Chromium (apt-get install chromium, or set DURAK_CHROMIUM to one)")
    return found


@pytest.fixture
async def browser(chromium: str) -> AsyncIterator[Browser]:
    """A headless Chromium for one test, killed and its profile removed afterwards.
    A test asks for its servers (a host, a site) before ``browser``, so that the browser
    goes first at teardown: a page whose server goes while it is open retries its socket."""
    async with Browser.launch(chromium) as launched:
        yield launched


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
