"""German and English (issue 10): the catalogs cover every message of the code, the language
is chosen by --lang, ROMME_LANG and the locale, Click speaks it too, JSON stays English."""

from __future__ import annotations

import ast
import gettext
import inspect
import io
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.pofile import read_po
from click.testing import CliRunner

from romme_score import i18n
from romme_score.cli import lang_from_args, main

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "romme_score"
LOCALE = PACKAGE / "locale"


# --- the catalogs against the code ------------------------------------------------


def _decorated_as_command(node: ast.FunctionDef) -> bool:
    for d in node.decorator_list:
        target = d.func if isinstance(d, ast.Call) else d
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        if name in ("command", "group"):
            return True
    return False


def code_messages() -> dict[str, str | None]:
    """msgid -> plural msgid (None for a singular) of every message in romme_score: _(),
    N_(), ngettext(), help= texts, rule option meanings and Click commands' docstrings."""
    found: dict[str, str | None] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call):
                name = node.func.id if isinstance(node.func, ast.Name) else None
                args = [
                    a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None
                    for a in node.args
                ]
                if name in ("_", "N_") and args and args[0]:
                    found[args[0]] = None
                elif name == "option" and len(args) >= 2 and args[1]:
                    found[args[1]] = None
                elif name == "ngettext" and len(args) >= 2 and args[0] and args[1]:
                    found[args[0]] = args[1]
                for kw in node.keywords:
                    if (
                        kw.arg in ("help", "short_help")
                        and isinstance(kw.value, ast.Constant)
                        and isinstance(kw.value.value, str)
                        and kw.value.value
                    ):
                        found[inspect.cleandoc(kw.value.value)] = None
            elif isinstance(node, ast.FunctionDef) and _decorated_as_command(node):
                doc = ast.get_docstring(node, clean=True)
                if doc:
                    found[doc] = None
    return found


def load_po(lang: str, domain: str = "romme") -> Catalog:
    with open(LOCALE / lang / "LC_MESSAGES" / f"{domain}.po", "rb") as fp:
        return read_po(fp, locale=lang)


def forms(value: object) -> tuple[str, ...]:
    """A catalog entry's id or string as a tuple (one item for a singular)."""
    if isinstance(value, str):
        return (value,)
    assert isinstance(value, (tuple, list)), value
    return tuple(str(v) for v in value)


PLACEHOLDER = re.compile(r"%\((\w+)\)[sdr]|\{(\w+)(?:![rs])?\}")


def placeholders(text: str) -> set[str]:
    return {a or b for a, b in PLACEHOLDER.findall(text)}


def test_every_message_of_the_code_has_a_german_and_an_english_entry() -> None:
    messages = code_messages()
    assert len(messages) > 150  # else the scan found nothing and checked nothing
    for lang in ("de", "en"):
        catalog = load_po(lang)
        for msgid, plural in messages.items():
            entry = catalog.get(msgid)
            assert entry is not None, f"{lang}: no entry for {msgid!r} (run make messages)"
            assert not entry.fuzzy, f"{lang}: fuzzy {msgid!r}"
            ids, strings = forms(entry.id), forms(entry.string)
            assert ids == ((msgid,) if plural is None else (msgid, plural)), (lang, msgid)
            assert len(strings) == len(ids), (lang, msgid)
            for form in strings:
                assert form.strip(), f"{lang}: empty {msgid!r}"
                assert placeholders(form) == set().union(*map(placeholders, ids)), (lang, msgid)


def test_every_message_said_in_a_context_has_its_entry_in_both_catalogs() -> None:
    """pgettext(context, msgid): one English word German says two ways (issue 38 item 6)."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "pgettext":
                context, msgid = (a.value for a in node.args if isinstance(a, ast.Constant))
                found.append((str(context), str(msgid)))
    assert ("league event", "game") in found
    for lang in ("de", "en"):
        catalog = load_po(lang)
        for context, msgid in found:
            entry = catalog.get(msgid, context=context)
            assert entry is not None and entry.string and not entry.fuzzy, (lang, context, msgid)
    with i18n.using_language("de"):
        assert (i18n.pgettext("league event", "game"), i18n._("game")) == ("Partie", "Spiel")


def test_the_click_catalog_keeps_clicks_placeholders() -> None:
    for entry in load_po("de", "click"):
        if not entry.id:
            continue
        ids, strings = forms(entry.id), forms(entry.string)
        assert all(s.strip() for s in strings) and not entry.fuzzy, entry.id
        for form in strings:
            assert placeholders(form) <= set().union(*map(placeholders, ids)), entry.id


@pytest.mark.parametrize("lang,domain", [("de", "romme"), ("en", "romme"), ("de", "click")])
def test_compiled_catalogs_match_their_po_files(lang: str, domain: str) -> None:
    with open(LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo", "rb") as fp:
        compiled = gettext.GNUTranslations(fp)
    for entry in load_po(lang, domain):
        if not entry.id:
            continue
        ids, strings = forms(entry.id), forms(entry.string)
        if len(ids) == 2:
            assert compiled.ngettext(ids[0], ids[1], 1) == strings[0], ids
            assert compiled.ngettext(ids[0], ids[1], 5) == strings[1], ids
        elif entry.context:  # a word said two ways in German (issue 38 item 6)
            assert compiled.pgettext(entry.context, ids[0]) == strings[0], (entry.context, ids[0])
        else:
            assert compiled.gettext(ids[0]) == strings[0], f"stale .mo: run make messages ({ids[0]!r})"


@pytest.mark.parametrize("lang,domain", [("de", "romme"), ("en", "romme"), ("de", "click")])
def test_the_catalog_read_on_demand_answers_as_gnutranslations(lang: str, domain: str) -> None:
    """i18n.MoCatalog binary-searches the .mo instead of decoding it whole (start-up, issue 20
    item 31): every message, singular and plural, and a few it does not hold, answer alike."""
    data = (LOCALE / lang / "LC_MESSAGES" / f"{domain}.mo").read_bytes()
    whole = gettext.GNUTranslations(io.BytesIO(data))
    lazy = i18n.MoCatalog.read(data)
    assert isinstance(lazy, i18n.MoCatalog)
    entries = whole._catalog  # type: ignore[attr-defined]
    singulars = [k for k in entries if isinstance(k, str)]
    plurals = sorted({k[0] for k in entries if isinstance(k, tuple)})
    assert len(singulars) > 30 and (domain == "click" or plurals)
    for msgid in [*singulars, "not a message", "Zoë \udce9", "x\x00y", *plurals]:
        assert lazy.gettext(msgid) == whole.gettext(msgid), msgid
    for msgid in [*plurals, *singulars[:20], "%(count)d unknown thing"]:
        for n in (0, 1, 2, 5, 21):
            assert lazy.ngettext(msgid, "PLURAL", n) == whole.ngettext(msgid, "PLURAL", n), (msgid, n)
    assert lazy.info() == whole.info() and lazy.charset() == whole.charset()
    assert lazy.pgettext("ctx", singulars[1]) == whole.pgettext("ctx", singulars[1])
    for key in [k for k in singulars if "\x04" in k]:  # a msgctxt: found by the binary search too
        context, msgid = key.split("\x04")
        assert lazy.pgettext(context, msgid) == whole.pgettext(context, msgid), key
        assert lang == "en" or lazy.pgettext(context, msgid) != lazy.gettext(msgid), key


def test_the_catalog_read_on_demand_falls_back_to_gnutranslations() -> None:
    """A .mo written big-endian is read whole; the same answers either way; a file that is
    no catalog fails as GNUTranslations fails (OSError: the program then speaks English)."""
    data = (LOCALE / "de" / "LC_MESSAGES" / "click.mo").read_bytes()
    words = [int.from_bytes(data[i : i + 4], "little") for i in range(0, 28, 4)]
    count, originals, translations = words[2], words[3], words[4]
    big = bytearray(data)
    for at in [*range(0, 28, 4), *range(originals, originals + 8 * count, 4)]:
        big[at : at + 4] = int.from_bytes(data[at : at + 4], "little").to_bytes(4, "big")
    for at in range(translations, translations + 8 * count, 4):
        big[at : at + 4] = int.from_bytes(data[at : at + 4], "little").to_bytes(4, "big")
    read = i18n.MoCatalog.read(bytes(big))
    assert type(read) is gettext.GNUTranslations
    assert read.gettext("Show the version and exit.") == i18n.MoCatalog.read(data).gettext(
        "Show the version and exit."
    )
    with pytest.raises(OSError):
        i18n.MoCatalog.read(b"\x00" * 64)


def test_the_shipped_catalogs_keep_their_msgids_sorted() -> None:
    """What the binary search needs (the GNU .mo format's promise, Babel's and msgfmt's
    output): a catalog compiled otherwise would fail here, not silently speak English."""
    for path in sorted(LOCALE.glob("*/LC_MESSAGES/*.mo")):
        data = path.read_bytes()
        count, originals = (int.from_bytes(data[i : i + 4], "little") for i in (8, 12))
        msgids = []
        for i in range(count):
            at = originals + 8 * i
            length, offset = (int.from_bytes(data[j : j + 4], "little") for j in (at, at + 4))
            msgids.append(data[offset : offset + length])
        assert msgids == sorted(msgids), path


# --- choosing the language ---------------------------------------------------------


def test_language_order_lang_option_romme_lang_locale_english() -> None:
    assert i18n.choose_language("de", {"ROMME_LANG": "en", "LANG": "en_US.UTF-8"}) == "de"
    assert i18n.choose_language(None, {"ROMME_LANG": "de", "LANG": "en_US.UTF-8"}) == "de"
    assert i18n.choose_language(None, {"LC_ALL": "de_AT.UTF-8", "LANG": "en_US"}) == "de"
    assert i18n.choose_language(None, {"LC_MESSAGES": "de_DE", "LANG": "en_US"}) == "de"
    assert i18n.choose_language(None, {"LC_ALL": "C", "LANG": "de_DE.UTF-8"}) == "en"
    assert i18n.choose_language(None, {"LANG": "fr_FR.UTF-8"}) == "en"
    assert i18n.choose_language(None, {}) == "en"


@pytest.mark.parametrize(
    "environ, lang",
    [
        ({"LANGUAGE": "de"}, "de"),
        ({"LANGUAGE": "de", "LANG": "en_US.UTF-8"}, "de"),
        ({"LANGUAGE": "de:en", "LC_ALL": "en_GB.UTF-8"}, "de"),
        ({"LANGUAGE": "fr:de_AT:en"}, "de"),
        ({"LANGUAGE": "en:de", "LANG": "de_DE.UTF-8"}, "en"),
        ({"LANGUAGE": "fr", "LANG": "de_DE.UTF-8"}, "en"),  # gettext: the list decides, then msgids
        ({"LANGUAGE": "", "LANG": "de_DE.UTF-8"}, "de"),  # empty is not set
        ({"LANGUAGE": "de", "ROMME_LANG": "en"}, "en"),
    ],
)
def test_language_variable_comes_first_in_gettext_order(environ: dict[str, str], lang: str) -> None:
    """Issue 20 item 24: LANGUAGE=de was ignored."""
    assert i18n.choose_language(None, environ) == lang


def test_language_variable_chooses_german_for_a_command() -> None:
    env = {"ROMME_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "", "LANGUAGE": "de:en"}
    code, out, _ = romme(["value", "HK K10 J"], env=env)
    assert "Summe: 40 Punkte" in out


def romme(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_lang_option_before_and_after_the_command() -> None:
    for args in (
        ["--lang", "de", "check", "HK KK PK"],
        ["check", "--lang", "de", "HK KK PK"],
        ["check", "HK KK PK", "--lang=de"],
    ):
        code, out, _ = romme(args)
        assert code == 0 and "gültig als Satz, 30 Punkte" in out, args
    code, out, _ = romme(["check", "HK KK PK", "--lang", "en"], env={"ROMME_LANG": "de"})
    assert "legal set, 30 points" in out
    assert lang_from_args(["check", "--", "--lang", "de"]) is None


def test_locale_and_romme_lang_choose_german() -> None:
    code, out, _ = romme(
        ["value", "HK K10 J"], env={"ROMME_LANG": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": "de_DE.UTF-8"}
    )
    assert "Summe: 40 Punkte" in out
    code, out, _ = romme(["value", "HK K10 J"], env={"ROMME_LANG": "", "LC_ALL": "C", "LANG": "de_DE.UTF-8"})
    assert "Total: 40 points" in out


def test_plural_forms_one_point_three_points() -> None:
    i18n.set_language("de")
    assert i18n.ngettext("%(count)d card", "%(count)d cards", 1) % {"count": 1} == "1 Karte"
    assert i18n.ngettext("%(count)d card", "%(count)d cards", 3) % {"count": 3} == "3 Karten"
    i18n.set_language("en")
    assert i18n.ngettext("%(count)d card", "%(count)d cards", 1) % {"count": 1} == "1 card"


def test_clicks_own_messages_in_german() -> None:
    code, _, err = romme(["--lang", "de", "check", "--bogus"])
    assert code == 2
    assert "Fehler: Unbekannte Option '--bogus'" in err and "Aufruf:" in err
    assert "Hilfe mit" in err
    code, _, err = romme(["settle", "--lang", "de", "--rate"])
    assert "braucht einen Wert" in err
    code, out, _ = romme(["--lang", "de", "value", "--help"])
    assert "Optionen:" in out and "Minuspunkte der Karten" in out and "Beispiele:" in out
    code, _, err = romme(["check", "--bogus"])
    assert "Error: No such option" in err  # and back in English


def test_json_stays_english_in_german() -> None:
    for args in (
        ["check", "HK KK PK", "H2 H3"],
        ["value", "HK K10 J"],
        ["settle", "A=220", "B=360", "--rate", "0.01"],
        ["rules"],
    ):
        _, en, _ = romme([*args, "--json"])
        _, de, _ = romme([*args, "--json", "--lang", "de"])
        assert json.loads(en) == json.loads(de), args
        assert en == de, args  # byte for byte


def test_help_of_every_command_in_german_mentions_no_english_example() -> None:
    for name in ("check", "value", "best", "rules", "settle", "new", "round", "standings"):
        code, out, _ = romme(["--lang", "de", name, "--help"])
        assert code == 0 and "Beispiel" in out and "Example" not in out, name


# --- the demonstration evening in both languages -------------------------------------


def mask_clock(text: str) -> str:
    text = re.sub(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00", "YYYY-MM-DDThh:mm:ss+00:00", text)
    text = re.sub(r"\d{4}-\d{2}-\d{2}", "YYYY-MM-DD", text)
    text = re.sub(r"\b\d{1,2}\.\d{1,2}\.\d{4}, \d{2}:\d{2}", "D.M.YYYY, hh:mm", text)
    text = re.sub(
        r"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}, \d{2}:\d{2}",
        "D Mon YYYY, hh:mm",
        text,
    )
    text = re.sub(r"\b\d{1,2}\.\d{1,2}\.\d{4}\b", "DD.MM.YYYY", text)
    return re.sub(r"\b\d{1,2} (Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) \d{4}\b", "DD Mon YYYY", text)


def test_english_demo_output_is_the_kept_demo_output() -> None:
    kept = (ROOT / "examples" / "demo-output.txt").read_text(encoding="utf-8")
    assert (ROOT / "examples" / "demo-output.en.txt").read_text(encoding="utf-8") == kept


def test_german_demo_output_is_what_make_demo_prints(tmp_path: Path) -> None:
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}",
        "ROMME_LANG": "de",
    }
    env.pop("ROMME_DB", None)
    result = subprocess.run(
        ["bash", str(ROOT / "examples" / "demo.sh")],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=600,
    )
    kept = (ROOT / "examples" / "demo-output.de.txt").read_text(encoding="utf-8")
    assert mask_clock(result.stdout) == kept, "examples/demo-output.de.txt is stale: run make demo"


def test_german_demo_output_contains_no_english_msgid() -> None:
    german = (ROOT / "examples" / "demo-output.de.txt").read_text(encoding="utf-8")
    checked = 0
    for entry in load_po("de"):
        if not entry.id or forms(entry.string) == forms(entry.id):
            continue
        msgid = forms(entry.id)[0]
        for text in re.split(r"%\(\w+\)[sd]", msgid):  # the words between the placeholders
            if len(text.split()) >= 3:
                checked += 1
                assert text.strip() not in german, f"English left in the German demo: {text!r}"
    assert checked > 100


def test_readme_kurzanleitung_prints_what_the_program_prints() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    console = readme[readme.index("## Deutsch: Kurzanleitung") :]
    console = console[console.index("```console") + len("```console\n") :]
    console = console[: console.index("```")]
    first, _, shown = console.partition("\n")
    args = shlex.split(first.removeprefix("$ "))
    assert args[:3] == ["romme", "--lang", "de"]
    code, out, _ = romme(args[1:])
    assert code == 0 and out == shown


def test_the_referees_reasons_and_notation_errors_in_german() -> None:
    code, out, _ = romme(["--lang", "de", "check", "♠K ♠A ♠2"])
    assert code == 1 and "NICHT gültig: die Folge ginge um die Ecke (K-A-2)" in out
    code, _, err = romme(["--lang", "de", "check", "HK HX"])
    assert code == 2 and "Karte 'HX' (2. Karte) nicht lesbar: X ist kein Wert" in err
    code, _, err = romme(["check", "HK HX"])
    assert "cannot read card 'HX' (2nd card)" in err


def test_number_and_name_errors_of_the_input_layer_in_german(tmp_path: Path) -> None:
    code, _, err = romme(["--lang", "de", "settle", "Ben=²", "Anna=5"])
    assert code == 2 and "Ben=²: '²' ist keine ganze Zahl (die Ziffern 0-9 verwenden)" in err
    code, _, err = romme(["--lang", "de", "settle", "A=5", "B=3", "--rate", "0,0000000001"])
    assert "--rate '0,0000000001' hat mehr als 8 Nachkommastellen" in err
    db = str(tmp_path / "r.sqlite3")
    code, _, err = romme(["--lang", "de", "new", "X", "Anna", "anna", "--db", db])
    assert "Spielername anna ist doppelt angegeben: Namen müssen eindeutig sein" in err
    code, _, err = romme(["settle", "Ben=²", "Anna=5"])
    assert "Ben=²: '²' is not a whole number (use the digits 0-9)" in err


def test_session_store_and_rule_errors_in_german(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite3")
    code, _, err = romme(["--lang", "de", "use", "Nix", "--db", db])
    assert "keine Datenbank unter" in err and "mit 'romme new' beginnen" in err
    romme(["new", "Freitag", "Anna", "Ben", "--db", db])
    code, _, err = romme(["--lang", "de", "use", "Nix", "--db", db])
    assert "keine Partie namens 'Nix' (Partien: Freitag)" in err
    code, _, err = romme(["--lang", "de", "undo", "--yes", "--db", db])
    assert "die Partie 'Freitag' hat keine Runde zum Zurücknehmen" in err
    code, _, err = romme(["--lang", "de", "note", "x" * 2001, "--db", db])
    assert "eine Notiz fasst höchstens" in err
    code, _, err = romme(["--lang", "de", "rules", "--rule", "wraparund=true"])
    assert "unbekannte Regeloption 'wraparund'; war wraparound gemeint?" in err
    code, _, err = romme(["--lang", "de", "rules", "--rule", "packs=9"])
    assert "packs=9 liegt außerhalb des Bereichs: erlaubt 1-2" in err
    code, _, err = romme(["rules", "--rule", "packs=9"])
    assert "packs=9 is out of range: allowed 1-2" in err


def test_rules_line_and_export_errors_in_german(tmp_path: Path) -> None:
    db = str(tmp_path / "r.sqlite3")
    romme(["new", "Freitag", "Anna", "Ben", "--preset", "wiki-51", "--db", db])
    code, out, _ = romme(["--lang", "de", "value", "HA", "--db", db])
    assert "Regeln der Partie 'Freitag' (wiki-51)" in out
    bad = tmp_path / "bad.json"
    bad.write_text(
        '{"format": "romme-score session", "version": 2, "name": "X", "players": ["A", "B"], "rounds": [5]}',
        encoding="utf-8",
    )
    code, _, err = romme(["--lang", "de", "import", str(bad), "--db", db])
    assert "Runde 1 des Exports ist kein Objekt" in err, err
