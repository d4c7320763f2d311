"""The README for the people at the table and the pages of docs/ (issue 30 items 1 and 2):
the README is short, every relative link and ``#anchor`` of README.md and docs/*.md leads
to a file and a heading that are there (by GitHub's rules for anchors), every command has
its example in docs/commands.md, docs/rules.md names every option the program has, and
nothing the program prints or ships points outside the repository."""

from __future__ import annotations

import re
import unicodedata
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from romme_score.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^(```|~~~).*?^\1", re.DOTALL | re.MULTILINE)


def prose(text: str) -> str:
    """A Markdown text without its fenced blocks and inline code spans (no link there)."""
    return re.sub(r"`[^`\n]*`", "", FENCE.sub("", text))


def heading_text(heading: str) -> str:
    """What GitHub renders of a heading: code spans as their text, links as their text,
    images and HTML tags dropped."""
    text = re.sub(r"!\[[^\]]*\]\([^)]*\)", "", heading)
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("`", "").strip()


def slug(heading: str) -> str:
    """GitHub's anchor of a heading (github-slugger): lower case; every character that is
    not a letter, a digit, a mark, ``_``, ``-`` or a space removed; each space a hyphen.

    >>> slug("`romme check MELD [MELD ...]` — is it legal, what is it worth?")
    'romme-check-meld-meld---is-it-legal-what-is-it-worth'
    >>> slug("Glossar / glossary"), slug("A club's server: PostgreSQL")
    ('glossar--glossary', 'a-clubs-server-postgresql')
    """
    kept = []
    for char in heading_text(heading).lower():
        category = unicodedata.category(char)
        if char in "_- " or category[0] in "LNM":
            kept.append(char)
    return "".join(kept).replace(" ", "-")


def anchors(text: str) -> set[str]:
    """Every heading's anchor in a page; a repeated heading gets ``-1``, ``-2`` ... as on
    GitHub, and an explicit ``<a id="...">`` or ``name`` counts too."""
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6} (.*?)#*\s*$", FENCE.sub("", text), flags=re.MULTILINE):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    found |= set(re.findall(r"<a (?:id|name)=\"([^\"]+)\"", text))
    return found


def links(text: str) -> list[str]:
    """Every link target of a page: Markdown links and images, and HTML ``src``/``href``."""
    body = prose(text)
    targets = re.findall(r"\]\(<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\)", body)
    targets += re.findall(r"(?:src|href)=\"([^\"]+)\"", body)
    return targets


def test_the_readme_is_for_the_people_at_the_table_at_most_300_lines() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 300
    for heading in (
        "## Install",
        "## A first evening",
        "## The phones",
        "## A tournament and a season",
        "## Where the data lives",
        "## Deutsch: Kurzanleitung",
        "## Development",
    ):
        assert f"\n{heading}\n" in readme, heading
    assert "pipx install --force 'romme-score[serve]'" in readme and "pipx inject romme-score" in readme
    assert "make demo" in readme and "make test" in readme


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_every_relative_link_and_anchor_leads_somewhere(page: Path) -> None:
    """Issue 30 item 1: a link to a file names one that is there, and its ``#anchor`` a
    heading of that file (GitHub's anchors); ``#anchor`` alone, a heading of the page."""
    text = page.read_text(encoding="utf-8")
    for target in links(text):
        if re.match(r"[a-z][a-z0-9+.-]*:", target):  # https:, mailto: ... not ours to check
            continue
        file, _, anchor = target.partition("#")
        linked = (page.parent / file).resolve() if file else page
        assert linked.exists(), f"{page.name}: {target} (no such file)"
        assert linked.is_relative_to(ROOT), f"{page.name}: {target} leads out of the repository"
        if anchor:
            assert linked.suffix == ".md", f"{page.name}: {target}"
            found = anchors(linked.read_text(encoding="utf-8"))
            assert anchor in found, f"{page.name}: {target} (no such heading)"


def test_the_link_check_finds_a_link_that_leads_nowhere() -> None:
    """The checks above read what they should: a broken anchor, a heading's anchor by
    GitHub's rules, a link inside a code block ignored."""
    text = "# A club's server\n## Same\n## Same\n[x](#a-clubs-server) [y](#same-1)\n```\n[z](#nowhere)\n```\n"
    assert {"a-clubs-server", "same", "same-1"} <= anchors(text)
    assert links(text) == ["#a-clubs-server", "#same-1"]
    assert "nowhere" not in anchors(text)


def _subcommands(group: click.Group) -> list[tuple[str, click.Command]]:
    """The commands of a group, loaded (the group loads each module when first asked)."""
    ctx = click.Context(group)
    found = [(name, group.get_command(ctx, name)) for name in group.list_commands(ctx)]
    return [(name, command) for name, command in found if command is not None]


def _commands(group: click.Group, prefix: str = "romme") -> list[str]:
    found = []
    for name, command in _subcommands(group):
        if isinstance(command, click.Group):
            found += _commands(command, f"{prefix} {name}")
        else:
            found.append(f"{prefix} {name}")
    return found


def test_every_command_has_an_example_in_docs_commands() -> None:
    """docs/commands.md: every command of ``romme --help`` and every subcommand, each in the
    table of commands with an example line that starts with it."""
    text = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    table = text[text.index("| command |") :]
    table = table[: table.index("\n\n")]
    rows = {row.split("|")[1].strip().strip("`"): row for row in table.splitlines()[2:]}
    commands = _commands(main)
    assert len(commands) > 20
    for command in commands:
        assert command in rows, f"{command} is not in the table of docs/commands.md"
        example = rows[command].split("|")[2]
        assert f"`{command}" in example, f"{command}: no example"


def _help_texts(group: click.Group, args: list[str], language: str) -> list[str]:
    out = CliRunner().invoke(main, [*args, "--help", "--lang", language]).output
    texts = [out]
    for name, command in _subcommands(group):
        if isinstance(command, click.Group):
            texts += _help_texts(command, [*args, name], language)
        else:
            texts.append(CliRunner().invoke(main, [*args, name, "--help", "--lang", language]).output)
    return texts


OUTSIDE = re.compile(r"\.\./shared|(?<![\w/.-])RULES\.md|shared/RULES|seeds/")


@pytest.mark.parametrize("language", ["en", "de"])
def test_no_help_text_points_outside_the_repository(language: str) -> None:
    """Issue 30 item 2: ``romme tournament new --help`` said "every number of RULES.md §10",
    a file no clone and no installed copy has."""
    texts = _help_texts(main, [], language)
    assert len(texts) > 25
    for text in texts:
        assert not OUTSIDE.search(text), text


def test_no_page_and_no_catalog_points_outside_the_repository() -> None:
    """README, docs/ and both catalogs name docs/rules.md (or nothing), never the rules
    reference outside the repository."""
    catalogs = sorted((ROOT / "romme_score" / "locale").glob("*/LC_MESSAGES/romme.po"))
    assert len(catalogs) == 2
    for path in [*PAGES, *catalogs]:
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            assert not OUTSIDE.search(line), f"{path.name}:{number}: {line}"


def test_the_outside_pattern_finds_what_it_should() -> None:
    assert OUTSIDE.search("every number of RULES.md §10") and OUTSIDE.search("see ../shared/RULES.md")
    assert not OUTSIDE.search("every number of docs/rules.md §10")


def _table(text: str, heading: str) -> list[list[str]]:
    """The first table after ``heading``: its rows' cells, without header and rule."""
    start = text.index("| option |", text.index(heading))
    lines = text[start : text.index("\n\n", start)].splitlines()[2:]
    return [[cell.strip().strip("`") for cell in line.strip("|").split("|")] for line in lines]


RULES_PAGE = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")


def _card_values_cell(values: dict[str, dict[str, int | None]]) -> str:
    """The §9 row of ``card_values`` for one preset: the ace and the joker, which differ
    between rule sets (the other cards count as §3 says, checked beside it)."""
    ace, joker = values["ace"], values["joker"]
    return f"ace {ace['meld']} and {ace['low_run']}, in hand {ace['hand']}; joker in hand {joker['hand']}"


@pytest.mark.parametrize("preset", ["standard", "wiki-51", "classic", "speedromme", "basic"])
def test_docs_rules_names_every_key_of_romme_rules_json_with_its_value_issue_38_item_17(preset: str) -> None:
    """docs/rules.md §9 has a row for every key ``romme rules PRESET --json`` prints, in
    its order, with each preset's value as the program has it: every option (issue 30
    item 2) and ``card_values`` (issue 38 item 17), whose other cards count as §3 says."""
    import json

    result = CliRunner().invoke(main, ["rules", preset, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    rows = _table(RULES_PAGE, "## 9. House rules and presets")
    assert [row[0] for row in rows] == list(data)
    column = 2 + ["standard", "wiki-51", "classic", "speedromme", "basic"].index(preset)
    for row in rows:
        shown = data[row[0]]
        expected = "none" if shown is None else str(shown).lower() if isinstance(shown, bool) else str(shown)
        if row[0] == "card_values":
            expected = _card_values_cell(shown)
        assert row[column] == expected, (preset, row[0])
        assert row[-1], f"{row[0]}: no source"
    values = data["card_values"]
    for number in range(2, 11):  # §3: 2-10 their number, B, D, K 10, the joker what it stands for
        assert values[str(number)] == {"meld": number, "hand": number}
    for face in ("jack", "queen", "king"):
        assert values[face] == {"meld": 10, "hand": 10}
    assert list(values) == [*map(str, range(2, 11)), "jack", "queen", "king", "ace", "joker"]
    assert values["joker"]["meld"] is None and values["ace"]["low_run"] == 1
    section = RULES_PAGE[RULES_PAGE.index("## 3. Values") : RULES_PAGE.index("## 4. ")]
    for words in ("`card_values`", "`meld`", "`hand`", "`low_run`", '`"meld": null`'):
        assert words in section, words


def test_docs_rules_names_every_tournament_option_with_its_default() -> None:
    """§10: every option ``romme rules`` lists for ``romme tournament new``, with its default."""
    out = CliRunner().invoke(main, ["rules"], env={"COLUMNS": "250"}).output
    listed = out[out.index("Tournament options") :]
    rows = _table(RULES_PAGE, "## 10. Tournaments")
    assert rows
    for name, _values, default, _meaning in rows:
        assert re.search(rf"^{name}\s+{re.escape(default)}\s", listed, re.MULTILINE), name
    names = {line.split()[0] for line in listed.splitlines()[3:] if line.strip()}
    assert {row[0] for row in rows} == names


def test_docs_rules_names_the_five_rule_texts_as_the_program_does() -> None:
    from romme_score.rules import PRESET_SOURCES

    for words in ('"Rommé mit Auslegen"', "basic rummy", "the classic rule sheet", "Speedrommé"):
        assert words in RULES_PAGE
    assert "the older description" in RULES_PAGE
    for name in PRESET_SOURCES:
        assert f"`{name}`" in RULES_PAGE
    for section in range(1, 12):
        assert f"\n## {section}. " in RULES_PAGE, section


def test_the_readmes_picture_of_the_table_mode_is_the_table_modes_page() -> None:
    """The README's text screen of ``romme play`` is cut from the capture in
    docs/table-mode.md (lines left out, none changed), and its legend is the one of every
    scoresheet."""
    from romme_score.views import marks

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("```text\n") + len("```text\n")
    screen = readme[start : readme.index("```", start)].splitlines()
    page = (ROOT / "docs" / "table-mode.md").read_text(encoding="utf-8")
    start = page.index("```console\n")
    capture = page[start : page.index("\n```\n", start)].splitlines()
    assert len(screen) >= 15
    at = 0
    for line in screen:
        at = capture.index(line, at) + 1  # in the capture's order
    assert marks.legend(sep="  ") in screen


def _section(text: str, heading: str) -> str:
    """``heading``'s section of a page: up to the next heading of its level or higher."""
    start = ("\n" + text).index(f"\n{heading}\n")
    level = heading.split(" ", 1)[0]
    ends = [text.find(f"\n{'#' * n} ", start + 1) for n in range(1, len(level) + 1)]
    found = [end for end in ends if end != -1]
    return text[start : min(found)] if found else text[start:]


def _commands_in(text: str) -> list[str]:
    """The lines of the shell blocks of a text, without comments, continuations joined."""
    blocks = re.findall(r"^```sh\n(.*?)^```", text, re.DOTALL | re.MULTILINE)
    joined = "\n".join(blocks).replace("\\\n", " ")
    return [line.split("  #", 1)[0].strip() for line in joined.splitlines() if line.strip()]


def test_docs_club_server_says_how_to_start_postgresql_issue_38_item_16() -> None:
    """docs/club-server.md says how to start a PostgreSQL server on Debian and Ubuntu (the
    package, ``pg_ctlcluster``, or a cluster of one's own with ``initdb``/``pg_ctl``), on
    macOS with Homebrew and in a container, and how to make the role and the database the
    page uses (``romme`` and ``romme``), none of it only with ``sudo``."""
    page = (ROOT / "docs" / "club-server.md").read_text(encoding="utf-8")
    starting = _section(page, "## Starting PostgreSQL")
    debian = _section(starting, "### Debian and Ubuntu: the `postgresql` package")
    macos = _section(starting, "### macOS: Homebrew")
    container = _section(starting, "### In a container: docker or podman")
    debian_commands = _commands_in(debian)
    assert "apt install postgresql" in debian
    assert "pg_lsclusters" in debian_commands
    assert "pg_ctlcluster 15 main start" in debian_commands
    assert any(c.startswith("$PGBIN/initdb -D ~/") and "-U romme" in c for c in debian_commands)
    assert any(c.startswith("$PGBIN/pg_ctl -D ~/") and c.endswith(" start") for c in debian_commands)
    assert "createdb -h 127.0.0.1 -p 5433 -U romme romme" in debian_commands
    assert "su postgres -c 'createuser --pwprompt romme'" in debian_commands
    assert "su postgres -c 'createdb --owner romme romme'" in debian_commands
    macos_commands = _commands_in(macos)
    assert "brew install postgresql@16" in macos_commands
    assert "brew services start postgresql@16" in macos_commands
    assert {"createuser --pwprompt romme", "createdb --owner romme romme"} <= set(macos_commands)
    (run,) = [c for c in _commands_in(container) if c.startswith("docker run")]
    for option in ("-e POSTGRES_USER=romme", "-e POSTGRES_DB=romme", "-e POSTGRES_PASSWORD=", "-p 5432:5432"):
        assert option in run, option
    assert run.split()[-1].startswith("postgres:")
    assert "podman run" in container
    everywhere = _commands_in(starting)
    assert not [c for c in everywhere if c.startswith("sudo")], "sudo is not every reader's"
    # the role and the database the rest of the page uses
    assert "export ROMME_DB=postgresql://romme@clubhaus.local/romme" in page
    assert "(#starting-postgresql)" in _section(page, "# A club's server: PostgreSQL")
