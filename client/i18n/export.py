"""Writes the window's words for the phones' page: ``python -m client.i18n.export``.

One source of every word: the page (``assets/web``) shows exactly the catalogues the
window shows (``CATALOGUES``, the page's own words of ``client.i18n.web`` among them), in
every language, read from ``assets/web/static/strings.json``. Each language also names its
plural rule (``client.i18n.PLURAL_RULES``), which the page counts with as
``plural_by_rule`` does, and the file carries the window's animation speeds
(``client.settings.ANIMATION_SPEEDS``), the page's Slow, Normal and Fast;
``tests/client/test_web_strings.py`` holds the committed file to a fresh export. No
pygame: this runs wherever the package is installed.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from client.settings import ANIMATION_SPEEDS

from . import CATALOGUES, LANGUAGES, PLURAL_RULES

__all__ = ["STRINGS_PATH", "render"]

STRINGS_PATH = Path(__file__).resolve().parents[2] / "assets" / "web" / "static" / "strings.json"


def render() -> str:
    """The file's text: sorted keys, one language a line, UTF-8 (stable bytes)."""
    lines = [
        "{",
        f'"languages": {json.dumps(list(LANGUAGES))},',
        f'"plural": {json.dumps(dict(PLURAL_RULES), sort_keys=True)},',
        f'"speeds": {json.dumps(ANIMATION_SPEEDS, sort_keys=True)},',
        '"texts": {',
    ]
    for index, code in enumerate(LANGUAGES):
        texts = json.dumps(dict(CATALOGUES[code]), sort_keys=True, ensure_ascii=False)
        comma = "," if index < len(LANGUAGES) - 1 else ""
        lines.append(f"{json.dumps(code)}: {texts}{comma}")
    lines += ["}", "}", ""]
    return "\n".join(lines)


def main() -> int:
    STRINGS_PATH.write_text(render(), encoding="utf-8", newline="\n")
    print(f"wrote {STRINGS_PATH}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
