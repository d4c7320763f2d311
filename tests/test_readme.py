"""Every README promise is true: its command blocks run as written, its printed output is the
program's, and examples/demo-output.txt is what `make demo` prints (issue: hardening). The
README's reference moved into docs/ (issue 30 item 1): its examples are held there."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from romme_score.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text(encoding="utf-8")
COMMANDS = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
TOURNAMENTS = (ROOT / "docs" / "tournaments.md").read_text(encoding="utf-8")
TABLE_MODE = (ROOT / "docs" / "table-mode.md").read_text(encoding="utf-8")


def mask_clock(text: str) -> str:
    """As `make demo` writes examples/demo-output.txt: the run's dates and times masked."""
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


def block_after(heading: str, fence: str = "```sh", text: str = README) -> str:
    start = text.index(fence, text.index(heading)) + len(fence)
    return text[start : text.index("```", start)]


def romme(args: list[str], input: str | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, input=input)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result.exit_code, result.stdout, result.stderr


def test_keeping_score_block_runs_top_to_bottom_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("romme_score.cli.options.stdin_is_terminal", lambda: True)  # 'undo' asks a person
    ran = 0
    for line in block_after("## Keeping score", text=COMMANDS).strip().splitlines():
        command = line.split("#", 1)[0].strip()
        args = shlex.split(command)
        assert args[0] == "romme", line
        if args[1:] == ["round"]:  # asks on a terminal; here: what a person would answer there
            args = ["romme", "round", "--winner", "Anna", "Ben=5", "Carl=5", "Dora=5"]
        answers = "y\n" if args[1:] == ["undo"] else None
        code, out, err = romme(args[1:], input=answers)
        assert code == 0, f"{line}: {err}"
        ran += 1
    assert ran >= 12 and (tmp_path / "friday.json").exists()


def test_settle_example_prints_what_the_readme_shows() -> None:
    console = COMMANDS[COMMANDS.index("## Settling the evening") :]
    console = console[console.index("```console") + len("```console\n") :]
    console = console[: console.index("```")]
    first, _, shown = console.partition("\n")
    args = shlex.split(first.removeprefix("$ "))
    code, out, _ = romme(args[1:])
    assert code == 0 and out == shown


def test_check_help_names_exit_code_2() -> None:
    code, out, _ = romme(["check", "--help"])
    assert code == 0 and "2 when the input cannot be read" in " ".join(out.split())


@pytest.mark.parametrize("args", [["--ascii"], ["--ascii", "--notation", "en"]])
def test_money_in_plain_ascii_says_eur(args: list[str]) -> None:
    code, out, _ = romme(["settle", "A=220", "B=360", "--rate", "0.01", "--currency", "EUR", *args])
    assert code == 0 and "€" not in out and "EUR" in out and out.isascii()


def test_commands_that_print_no_cards_offer_no_notation() -> None:
    for name in ("new", "undo", "standings", "sessions", "use", "import", "rules"):
        code, out, _ = romme([name, "--help"])
        assert code == 0 and "--notation" not in out, name
    for name in ("check", "value", "best", "round", "edit"):
        assert "--notation" in romme([name, "--help"])[1], name


def test_stalemate_is_labelled_in_the_round_summary() -> None:
    romme(["new", "S", "A", "B"])
    code, out, _ = romme(["round", "--stalemate", "A=5", "B=7"])
    assert code == 0 and "Round 1 (stalemate" in out


def test_edit_of_a_stalemate_round_takes_a_winner_and_names_no_stalemate() -> None:
    romme(["new", "S", "A", "B"])
    romme(["round", "--stalemate", "A=5", "B=7"])
    code, _, err = romme(["edit", "1", "--winner", "A", "--stalemate"])
    assert code == 2 and "--no-stalemate" in err
    code, out, err = romme(["edit", "1", "--winner", "A"])
    assert code == 0, err
    assert "(stalemate" not in out and "went out" in out


def test_demo_output_is_what_make_demo_prints_and_names_no_path(tmp_path: Path) -> None:
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
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
    printed = mask_clock(result.stdout)
    kept = (ROOT / "examples" / "demo-output.txt").read_text(encoding="utf-8")
    assert printed == kept, "examples/demo-output.txt is stale: run make demo"
    for path in (str(ROOT), str(Path.home()), "/tmp/"):
        assert path not in kept


def _shell_lines(block: str) -> list[list[str]]:
    """The command lines of a ```sh block: continuation lines joined, comments dropped."""
    joined = block.replace("\\\n", " ")
    return [shlex.split(line, comments=True) for line in joined.strip().splitlines() if line.strip()]


def _console_commands(section: str) -> list[tuple[list[str], str]]:
    """(arguments, output shown) of every ``$ romme ...`` line in the ```console blocks."""
    found = []
    for block in re.findall(r"```console\n(.*?)```", section, re.DOTALL):
        for chunk in re.split(r"^\$ ", block, flags=re.MULTILINE)[1:]:
            line, _, shown = chunk.partition("\n")
            found.append((shlex.split(line, comments=True), shown))
    return found


def test_the_organisers_tournament_section_runs_and_prints_what_it_shows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The section for an organiser, in English and German: the players file, every
    command of the evening as written, and each console block the program's output."""
    section = TOURNAMENTS
    monkeypatch.chdir(tmp_path)
    players = section[section.index("```text\n") + len("```text\n") :]
    (tmp_path / "players.txt").write_text(players[: players.index("```")], encoding="utf-8")
    shown = _console_commands(section)
    first_draw = next(out for args, out in shown if args == ["romme", "tournament", "draw"])
    drawn = 0
    for args in _shell_lines(section[section.index("```sh") + len("```sh") :].split("```", 1)[0]):
        assert args[0] == "romme", args
        code, out, err = romme(args[1:])
        assert code == 0, f"{args}: {err}"
        if args[1:] == ["tournament", "draw"]:
            drawn += 1
            if drawn == 1:
                assert out == first_draw
    assert drawn == 2 and (tmp_path / "club.html").exists()
    checked = 0
    for args, out in shown:
        if args == ["romme", "tournament", "draw"]:
            continue
        code, printed, err = romme(args[1:])
        assert code == 0 and printed == out, f"{args}: {err}"
        checked += 1
    assert checked == 4  # standings and payout, in English and in German


def test_the_first_evening_runs_as_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The four commands for a first evening (issue 20 item 30, issue 30 item 1), then the
    table mode's line; ``romme play`` reads its lines from standard input here, as in a
    script."""
    monkeypatch.chdir(tmp_path)
    ran = []
    start = README.index("## A first evening")
    evening = README[start : README.index("\n## ", start)]
    first = block_after("```sh", text=evening)
    play = block_after("Or the whole evening in one window", text=evening)
    for args in _shell_lines(first) + _shell_lines(play):
        assert args[0] == "romme", args
        code, out, err = romme(args[1:], input="standings\n" if args[1] == "play" else None)
        assert code == 0, f"{args}: {err}"
        ran.append((args[1], out))
    assert [name for name, _ in ran] == ["new", "round", "standings", "settle", "play"]
    assert len(_shell_lines(first)) == 4
    assert "Anna deals first" in ran[0][1] and "Next to deal: Ben" in ran[2][1]
    assert "pays" in ran[3][1] and "Ben" in ran[4][1]


def test_the_referee_example_of_the_readme_prints_what_it_shows() -> None:
    """The README's ``romme check`` (without a game: no session's rules named)."""
    first, _, shown = block_after("## A first evening", "```console\n").partition("\n")
    args = shlex.split(first.removeprefix("$ "))
    code, out, _ = romme(args[1:])
    assert args[0] == "romme" and code == 0 and out == shown


def test_the_german_keys_are_the_keys_the_table_mode_shows() -> None:
    """The German table of keys (docs/table-mode.md) names the keys of the German toolbar."""
    from romme_score import i18n
    from romme_score.views.play import HAND_TOOLBAR, summary_keys

    start = TABLE_MODE.index("## Die Tasten im Tischmodus")
    table = TABLE_MODE[start : TABLE_MODE.index("\n## ", start + 1)]
    with i18n.using_language("de"):
        keys = summary_keys(["Anna", "Ben", "Carl", "Dora"], "Anna")
        hand = i18n._(HAND_TOOLBAR)
    for key in ("Enter", "h", "s", "w"):
        assert f"{key}=" in keys and f"`{key}`" in table, key
    assert "nN=" in keys and "`n3`" in table
    assert "Strg-C" in hand and "`Strg-C`" in table


def _readme_section(heading: str) -> str:
    start = README.index(heading)
    return README[start : README.index("\n## ", start)]


def test_the_readmes_tournament_block_runs_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The README's tournament and season section (issue 30 item 1): every command of its
    block, the server's line aside (docs/tournaments.md and its tests cover that)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "players.txt").write_text("Anna\nBen\nCarl\nDora\nEmil\nFritz\nGerd\n", encoding="utf-8")
    ran = []
    for args in _shell_lines(block_after("```sh", text=_readme_section("## A tournament and a season"))):
        assert args[0] == "romme", args
        if args[1] == "serve":
            continue
        code, out, err = romme(args[1:])
        assert code == 0, f"{args}: {err}"
        ran.append(args[1:3])
    assert ran == [["tournament", t] for t in ("new", "draw", "standings", "sheets")]
    assert (tmp_path / "club.html").exists()


def test_the_readmes_backup_gives_the_game_back_on_another_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the data lives: the export of the README's first evening, imported into
    another database, is the same game (export, import, export: the same file)."""
    monkeypatch.chdir(tmp_path)
    for args in _shell_lines(block_after("## A first evening"))[:2]:
        assert romme(args[1:])[0] == 0
    export, restore = _shell_lines(block_after("```sh", text=_readme_section("## Where the data lives")))
    assert romme(export[1:])[0] == 0
    monkeypatch.setenv("ROMME_DB", str(tmp_path / "other.sqlite3"))
    code, _, err = romme(restore[1:])
    assert code == 0, err
    again = romme(["export", "--session", "Freitag"])[1]
    assert again == (tmp_path / "freitag.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    "page, heading",
    [("commands.md", "## The referee"), ("commands.md", "## Card notation"), ("rules.md", "## 1. Cards")],
)
def test_the_referees_examples_in_the_docs_print_what_they_show(
    page: str, heading: str, tmp_path: Path
) -> None:
    """docs/commands.md (once the README) and docs/rules.md: every ``$ romme`` line of the
    referee's and the notation's console blocks prints what is shown under it, each block
    run in order on a database of its own (a shown ``...`` leaves lines out; a line shown
    without output is skipped)."""
    text = (ROOT / "docs" / page).read_text(encoding="utf-8")
    start = text.index(heading)
    end = text.find("\n## ", start)
    section = text[start : end if end > 0 else None]
    checked = 0
    for number, block in enumerate(re.findall(r"```console\n(.*?)```", section, re.DOTALL)):
        env = {"ROMME_DB": str(tmp_path / f"block{number}.sqlite3")}
        for args, shown in _console_commands(f"```console\n{block}```"):
            assert args[0] == "romme", args
            result = CliRunner().invoke(main, args[1:], env=env)
            printed = result.stdout + result.stderr
            if not shown.strip():
                continue
            if "..." in shown.splitlines():
                at = 0
                for line in (line for line in shown.splitlines() if line.strip() and line != "..."):
                    at = printed.splitlines().index(line, at) + 1
            else:
                assert printed.strip() == shown.strip(), args
            checked += 1
    assert checked >= 3
