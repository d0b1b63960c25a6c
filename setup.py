"""What pyproject.toml cannot say: the engine compiled with mypyc, on request only.

``DURAK_COMPILE=1 python -m pip wheel . --no-deps -w dist`` builds a wheel whose engine
modules are compiled by mypyc (part of mypy; the build backend, packaging/durak_build.py,
then fetches it) for this system and Python: the same source, several times as fast (the
README's "The engine, pure and compiled"). Without the variable the wheel is pure Python,
and ``pip install -e .`` always is: it needs no C compiler, and nothing compiled lies
beside the .py files one edits. The build writes only into build/, never into engine/.
"""

from __future__ import annotations

import os
from pathlib import Path

from setuptools import Extension, setup

COMPILE = "DURAK_COMPILE"
# Stay interpreted: the packages' __init__ (imports only, and their docstrings kept) and
# engine/ai/base.py, as the host's RemoteBot subclasses Bot and a class compiled by mypyc
# cannot be subclassed by an interpreted one.
INTERPRETED = {"engine/__init__.py", "engine/ai/__init__.py", "engine/ai/base.py"}


def compiled_engine() -> list[Extension]:
    if os.environ.get(COMPILE) != "1":
        return []
    from mypyc.build import mypycify

    modules = sorted(path.as_posix() for path in Path("engine").rglob("*.py"))
    return mypycify([m for m in modules if m not in INTERPRETED], opt_level="3")


setup(ext_modules=compiled_engine())
