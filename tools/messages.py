"""`make messages`: extract the messages of romme_score, update the catalogs, compile them.

A development tool (needs Babel); the program itself reads only the compiled .mo files.
Extracted: the first argument of _() and N_(), both of ngettext(), every help= and
short_help= text, and the docstrings of Click commands (their help), cleaned as Click
cleans them. The English catalog gets msgstr = msgid; the German one keeps its
translations and shows new messages empty (fill them in, run again).
"""

from __future__ import annotations

import ast
import inspect
import sys
from datetime import datetime, timezone
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

# A fixed date in every header, so that running `make messages` again changes no file
# unless a message changed.
FIXED_DATE = datetime(2026, 1, 1, tzinfo=timezone.utc)
ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "romme_score"
LOCALE = PACKAGE / "locale"


def _is_command_decorator(node: ast.expr) -> bool:
    target = node.func if isinstance(node, ast.Call) else node
    name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
    return name in ("command", "group")


Found = tuple[str | tuple[str, str], int] | tuple[str, int, str]


def scan(path: Path) -> list[Found]:
    """(msgid or (singular, plural), line) of every message in one module, and (msgid, line,
    context) of a pgettext() message."""
    found: list[Found] = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else None
            args = [
                a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                for a in node.args
            ]
            if name in ("_", "N_") and args and args[0]:
                found.append((args[0], node.lineno))
            elif name == "option" and len(args) >= 2 and args[1]:  # an option's meaning (romme_score.options)
                found.append((args[1], node.lineno))
            elif name == "ngettext" and len(args) >= 2 and args[0] and args[1]:
                found.append(((args[0], args[1]), node.lineno))
            elif name == "pgettext" and len(args) >= 2 and args[0] and args[1]:
                found.append((args[1], node.lineno, args[0]))
            for kw in node.keywords:
                if (
                    kw.arg in ("help", "short_help")
                    and isinstance(kw.value, ast.Constant)
                    and isinstance(kw.value.value, str)
                    and kw.value.value
                ):
                    found.append((inspect.cleandoc(kw.value.value), node.lineno))
        elif isinstance(node, ast.FunctionDef):
            if any(_is_command_decorator(d) for d in node.decorator_list):
                doc = ast.get_docstring(node, clean=True)
                if doc:
                    found.append((doc, node.lineno))
    return found


def template() -> Catalog:
    cat = Catalog(project="romme-score", charset="utf-8", creation_date=FIXED_DATE)
    for path in sorted(PACKAGE.rglob("*.py")):
        for msgid, line, *context in scan(path):
            where = [(str(path.relative_to(ROOT)), line)]
            cat.add(msgid, locations=where, context=context[0] if context else None)
    return cat


def main() -> int:
    pot = template()
    for lang in ("de", "en"):
        po_path = LOCALE / lang / "LC_MESSAGES" / "romme.po"
        po_path.parent.mkdir(parents=True, exist_ok=True)
        if po_path.exists():
            with open(po_path, "rb") as fp:
                cat = read_po(fp, locale=lang)
        else:
            cat = Catalog(locale=lang, project="romme-score", charset="utf-8")
        cat.update(pot, no_fuzzy_matching=True)
        cat.creation_date = cat.revision_date = FIXED_DATE
        cat.obsolete.clear()
        if lang == "en":
            for message in cat:
                if message.id:
                    message.string = message.id
        with open(po_path, "wb") as fp:
            write_po(fp, cat, width=100, omit_header=False, sort_output=False)
    for po_path in sorted(LOCALE.glob("*/LC_MESSAGES/*.po")):
        with open(po_path, "rb") as fp:
            cat = read_po(fp, locale=po_path.parent.parent.name)
        cat.creation_date = cat.revision_date = FIXED_DATE
        empty = [
            m.id for m in cat if m.id and not (all(m.string) if isinstance(m.string, tuple) else m.string)
        ]
        for message in cat:  # a msgctxt as the .mo keys it, so that Babel sorts by that key
            if message.context:  # (i18n.MoCatalog binary-searches the keys)
                message.id, message.context = f"{message.context}\x04{message.id}", None
        with open(po_path.with_suffix(".mo"), "wb") as fp:
            write_mo(fp, cat)
        print(
            f"{po_path.relative_to(ROOT)}: {len([m for m in cat if m.id])} messages, "
            f"{len(empty)} untranslated"
        )
    # romme --help lists the commands from their summaries in each language (tools/summaries.py)
    sys.path.insert(0, str(ROOT / "tools"))
    import summaries

    return summaries.main()


if __name__ == "__main__":
    sys.exit(main())
