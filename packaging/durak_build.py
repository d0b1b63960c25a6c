"""The build backend: setuptools', and mypy too when the engine is to be compiled.

pyproject.toml names this module (``backend-path``). With ``DURAK_COMPILE=1`` a wheel's
engine is compiled by mypyc (setup.py), which needs mypy in the build environment: it is
added to setuptools' own requirements then, and only then. An editable install is always
pure Python, whatever the variable says: compiled modules built in place would be
imported instead of the .py files one edits.
"""

from __future__ import annotations

import os
import sys

from setuptools import build_meta
from setuptools.build_meta import *  # noqa: F403 - every hook this module does not replace

COMPILE = "DURAK_COMPILE"
# mypyc's version decides the compiled code, as PyInstaller's decides the app: pinned
MYPYC = "mypy==2.4.1"


def get_requires_for_build_wheel(config_settings: dict[str, object] | None = None) -> list[str]:
    # setuptools runs setup.py to find its own needs: there, before mypy is installed,
    # without the request to compile
    compile_engine = os.environ.pop(COMPILE, None)
    try:
        requires = build_meta.get_requires_for_build_wheel(config_settings)
    finally:
        if compile_engine is not None:
            os.environ[COMPILE] = compile_engine
    return [*requires, MYPYC] if compile_engine == "1" else requires


def get_requires_for_build_editable(
    config_settings: dict[str, object] | None = None,
) -> list[str]:
    _stay_pure()
    return build_meta.get_requires_for_build_editable(config_settings)


def prepare_metadata_for_build_editable(
    metadata_directory: str, config_settings: dict[str, object] | None = None
) -> str:
    _stay_pure()
    return build_meta.prepare_metadata_for_build_editable(metadata_directory, config_settings)


def build_editable(
    wheel_directory: str,
    config_settings: dict[str, object] | None = None,
    metadata_directory: str | None = None,
) -> str:
    _stay_pure()
    return build_meta.build_editable(wheel_directory, config_settings, metadata_directory)


def _stay_pure() -> None:
    """Every hook of an editable install runs setup.py without the request to compile."""
    if os.environ.pop(COMPILE, None) == "1":
        print(f"durak: {COMPILE}=1 ignored: an editable install stays pure Python", file=sys.stderr)
