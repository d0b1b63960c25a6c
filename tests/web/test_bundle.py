"""The page's bundle is what its sources build: the committed ``assets/web/static/app.js``
(so ``pip install -e .`` and the standalone app need no Node) is rebuilt from the sources
and the lock file in a copy of the folder (``npm ci``, then ``build.mjs``: the type check
and esbuild) and must come out byte for byte the same. A source edited without a rebuild
fails here. Without Node and npm it is skipped with the reason, except under CI, where it
fails (these machines have them)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from phone import ROOT

WEB = ROOT / "assets" / "web"


@pytest.mark.slow
def test_the_committed_bundle_is_what_the_sources_build(tmp_path: Path) -> None:
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        if os.environ.get("CI"):
            pytest.fail("no Node and npm: CI must rebuild the page's bundle")
        pytest.skip("no Node and npm here (the bundle is checked where they are)")
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy, ignore=shutil.ignore_patterns("node_modules", "app.js"))
    install = subprocess.run(
        [npm, "ci", "--no-audit", "--no-fund"], cwd=copy, capture_output=True, text=True
    )
    assert install.returncode == 0, install.stdout + install.stderr
    build = subprocess.run([node, "build.mjs"], cwd=copy, capture_output=True, text=True)
    assert build.returncode == 0, build.stdout + build.stderr
    built = (copy / "static" / "app.js").read_bytes()
    committed = (WEB / "static" / "app.js").read_bytes()
    assert built == committed, "assets/web/static/app.js is not what its sources build"
