"""Write romme_score/cli/summaries.py: the first paragraph of every command's help, in
each language, so that ``romme --help`` lists the commands without importing a single
command module (issue 28 item 3: the list imported all of them, 245 modules).

Run by tools/messages.py (``make messages``) after the catalogs are compiled, and on its
own: ``python tools/summaries.py``. tests/test_startup_imports.py holds the file to what
the commands say now.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "romme_score" / "cli" / "summaries.py"

HEADER = '''# ruff: noqa: E501
"""The first paragraph of each command's help, in each language, as ``romme --help``
lists the commands (Click shortens it to the line) without importing their modules.
Written by tools/summaries.py (run by tools/messages.py); do not edit by hand."""
'''


def summaries() -> dict[str, dict[str, str]]:
    """{language: {command: the first paragraph of its help, as shown in that language}}."""
    sys.path.insert(0, str(ROOT))
    import click

    from romme_score import i18n
    from romme_score.cli import COMMANDS, main

    found: dict[str, dict[str, str]] = {}
    for lang in i18n.LANGUAGES:
        with i18n.using_language(lang):
            ctx = click.Context(main)
            shown = {}
            for name in sorted(COMMANDS):
                command = main.get_command(ctx, name)
                assert command is not None, name
                # the words Click shortens to the line (it reads only the first paragraph)
                shown[name] = " ".join((command.help or "").partition("\n\n")[0].split())
            found[lang] = shown
    return found


def text() -> str:
    lines = [HEADER, "SUMMARIES: dict[str, dict[str, str]] = {"]
    for lang, shown in summaries().items():
        lines.append(f"    {json.dumps(lang)}: {{")
        for name, summary in shown.items():  # as ruff formats them: double quotes, UTF-8
            lines.append(f"        {json.dumps(name)}: {json.dumps(summary, ensure_ascii=False)},")
        lines.append("    },")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main() -> int:
    TARGET.write_text(text(), encoding="utf-8")
    print(f"{TARGET.relative_to(ROOT)}: the commands' summaries written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
