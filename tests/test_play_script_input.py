"""``import -`` inside a ``romme play`` script (issue 30 item 6): standard input is the
script itself, so the line is refused in one sentence (exit code 2) and the next line
runs; no internal error."""

from __future__ import annotations

import json

from clirun import ok, run


def test_import_dash_in_a_play_script_is_one_sentence_and_the_next_line_runs_issue30_item6() -> None:
    ok("new", "Freitag", "Anna", "Ben")
    script = "import -\nround --winner Anna Ben=7\n"
    code, _out, err = run("play", "Freitag", input=script)
    assert code == 1  # a line failed
    assert "internal error" not in err and "AttributeError" not in err
    lines = err.strip().splitlines()
    assert (
        lines[0] == "Error: import -: standard input is the script itself in romme play; give a file instead"
    )
    assert lines[1] == "line 1 failed (exit code 2): import -"
    assert len(lines) == 2
    assert json.loads(ok("standings", "--json"))["players"][1]["total"] == 7  # line 2 ran
    exported = ok("export", "--session", "Freitag")  # outside play, - is standard input still
    assert "imported" in ok("import", "-", "--name", "Copy", input=exported).lower()


def test_a_players_file_dash_in_a_play_script_is_refused_alike_issue30_item6() -> None:
    ok("new", "Freitag", "Anna", "Ben")
    code, _out, err = run("--lang", "de", "play", "Freitag", input="tournament new Cup --players-file -\n")
    assert code == 1 and "Zeile 1 ist gescheitert (Rückgabewert 2)" in err
    assert "in romme play ist die Standardeingabe das Skript selbst" in err
    assert run("tournament", "standings")[0] != 0  # nothing was made
