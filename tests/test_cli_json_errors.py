"""With ``--json``, a refusal of any command is one line of JSON on standard error,
``{"error": {"code", "message", ...facts}}``, exit code as the sentence's (issue 36 item
3, the command line's half): the same ``code`` and facts as the phones' JSON answers for
the same error, so that a script and a phone read one contract."""

from __future__ import annotations

import json
from typing import Any

import click
import pytest
from clirun import run

from romme_score.cli import main

# A bad input of each command that has --json, on an empty data directory: each reaches
# the command's own refusal (a domain error, not Click's). A command added with --json
# and not listed here fails test_every_json_command_is_listed.
BAD: dict[str, list[str]] = {
    "best": ["best", "HX"],
    "chart": ["chart"],
    "check": ["check", "HX"],
    "edit": ["edit", "1", "A=3"],
    "end": ["end"],
    "import": ["import", "no-such-export.json"],
    "league add": ["league", "add", "Nope", "--session", "X"],
    "league alias": ["league", "alias", "Nope", "Hansi", "Hans"],
    "league list": ["league", "list", "--db", "/no/such/folder/romme.db"],
    "league new": ["league", "new", "="],
    "league remove": ["league", "remove", "Nope", "--session", "X"],
    "league standings": ["league", "standings", "Nope"],
    "new": ["new", "Solo", "Anna"],
    "note": ["note", "Ben dealt 11"],
    "play": ["play", "Nope"],
    "round": ["round", "--winner", "Anna", "Ben=3"],
    "rules": ["rules", "no-such-preset"],
    "serve": ["serve", "Nope"],
    "sessions": ["sessions", "--json", "rename", "Nope", "Other"],  # the group's --json
    "settle": ["settle", "Anna=x"],
    "standings": ["standings"],
    "stats": ["stats", "--player", "Nobody"],
    "tournament draw": ["tournament", "draw"],
    "tournament new": ["tournament", "new", "Cup", "Anna"],
    "tournament payout": ["tournament", "payout"],
    "tournament standings": ["tournament", "standings"],
    "tournament withdraw": ["tournament", "withdraw", "Cup", "Anna"],
    "undo": ["undo", "--yes"],
    "use": ["use", "Nope"],
    "value": ["value", "HX"],
}


def json_commands() -> list[str]:
    """Every command (and group) that takes --json, by its words."""
    ctx = click.Context(main)
    found: list[str] = []

    def walk(group: click.Group, path: list[str]) -> None:
        for name in group.list_commands(ctx):
            command = group.get_command(ctx, name)
            assert command is not None
            opts = {o for p in command.params if isinstance(p, click.Option) for o in p.opts}
            if "--json" in opts:
                found.append(" ".join([*path, name]))
            if isinstance(command, click.Group):
                walk(command, [*path, name])

    walk(main, [])
    return found


def error_line(err: str) -> dict[str, Any]:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    data = json.loads(lines[0])
    assert set(data) == {"error"}, data
    error: dict[str, Any] = data["error"]
    assert isinstance(error["code"], str) and error["code"], error
    assert isinstance(error["message"], str) and error["message"], error
    return error


def test_every_json_command_is_listed_issue_36_item_3_cli_json_error() -> None:
    assert sorted(json_commands()) == sorted(BAD)


@pytest.mark.parametrize("command", sorted(BAD))
def test_a_refusal_with_json_is_one_line_of_json_issue_36_item_3_cli_json_error(command: str) -> None:
    line = BAD[command] if "--json" in BAD[command] else [*BAD[command], "--json"]
    code, out, err = run(*line)
    assert code in (1, 2), (code, out, err)
    assert out == ""
    error = error_line(err)
    assert error["code"] not in ("usage",)
    # the same refusal without --json: the sentence, the same exit code
    plain_code, _out, plain_err = run(*[word for word in line if word != "--json"])
    assert plain_code == code and plain_err.startswith("Error: ")


@pytest.mark.parametrize("command", sorted(BAD))
def test_a_mistyped_option_with_json_is_one_line_of_json_issue_36_item_3_cli_json_error(
    command: str,
) -> None:
    words = command.split()
    code, out, err = run(*words[:1], "--json", *words[1:], "--no-such-option")  # the group's own too
    assert code == 2 and out == ""
    assert error_line(err)["code"] == "bad-input"
    code, out, err = run(*words, "--no-such-option", "--json")
    assert code == 2 and out == ""
    assert error_line(err)["code"] == "bad-input"


def test_the_codes_and_facts_are_the_phones_issue_36_item_3_cli_json_error() -> None:
    """A session that is not there: the phones' JSON says ``not-found`` with its facts."""
    run("new", "Friday", "Anna", "Ben")
    code, _out, err = run("standings", "--session", "Fridya", "--json")
    assert code == 1
    assert error_line(err) == {
        "code": "not-found",
        "name": "Fridya",
        "close": "Friday",
        "known": ["Friday"],
        "message": "no session named 'Fridya'; did you mean Friday? (sessions: Friday)",
    }
    code, _out, err = run("new", "Friday", "Carl", "Dora", "--json")
    error = error_line(err)
    assert (
        code == 1 and error["code"] == "refused" and error["name"] == "Friday" and error["action"] == "create"
    )
    code, _out, err = run("round", "--winner", "Anna", "--json")  # Ben's hand not given
    assert code == 2 and error_line(err) == {
        "code": "missing-hands",
        "missing": ["Ben"],
        "message": "no hand given for Ben: give NAME=CARDS, or NAME=0",
    }


def test_a_league_that_is_not_there_is_not_found_as_a_session_is_issue_36_item_3_cli_json_error() -> None:
    """An unknown league said ``refused``, an unknown session or tournament ``not-found``."""
    run("new", "Friday", "Anna", "Ben")
    for words in (("league", "standings", "Nix"), ("tournament", "standings", "Nix")):
        code, _out, err = run(*words, "--json")
        assert code == 1 and error_line(err)["code"] == "not-found", (words, err)
