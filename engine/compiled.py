"""Which engine runs: compiled by mypyc, or pure Python (``durak --version`` says which).

The wheels CI builds and the standalone app carry the engine compiled (setup.py, with
``DURAK_COMPILE=1``), the same source several times as fast; a checkout and
``pip install -e .`` run it as pure Python. A compiled module is an extension module: its
file ends with one of the interpreter's extension suffixes
(``.cpython-311-x86_64-linux-gnu.so``, ``.cp311-win_amd64.pyd``), a pure one with ``.py``
(or ``.pyc`` in the standalone app's archive).
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES

from . import state

__all__ = ["engine_kind", "is_compiled"]


def is_compiled(module_file: str | None = None) -> bool:
    """Is the module at ``module_file`` an extension module? By default: the game state's
    module, the engine's hot path, as this interpreter imported it."""
    path = state.__file__ if module_file is None else module_file
    return path is not None and path.endswith(tuple(EXTENSION_SUFFIXES))


def engine_kind() -> str:
    """``"compiled"`` or ``"pure Python"``."""
    return "compiled" if is_compiled() else "pure Python"
