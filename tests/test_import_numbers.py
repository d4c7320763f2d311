"""Issue 21 item 4: an import with a whole number that SQLite cannot store (10**30 as a
note's round or a history entry's number) ended in "internal error" (OverflowError, exit
70). Every whole number of an export is checked against the range its field allows, said
in one sentence, exit code 2, nothing written."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from clirun import ok, run

from romme_score.export import MAX_ROW


@pytest.fixture
def export(isolated_data_dir: Path, tmp_path: Path) -> dict[str, Any]:
    ok("new", "Friday", "Anna", "Ben")
    ok("round", "--winner", "Anna", "Ben=5")
    ok("round", "--winner", "Ben", "Anna=7")
    ok("note", "hi", "--round", "1")
    ok("edit", "2", "Anna=8")  # a replaced round in the history
    path = tmp_path / "friday.json"
    ok("export", "-o", str(path))
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    data["name"] = "Imported"
    return data


def refused(db: Path, tmp_path: Path, data: dict[str, Any] | str, says: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    before = db.read_bytes()
    code, _, err = run("import", str(path))
    assert code == 2 and says in err and "internal error" not in err, err[:400]
    assert len(err) < 400 and db.read_bytes() == before


RANGE = f"must be a whole number from 1 to {MAX_ROW:,}"


@pytest.mark.parametrize("value", [10**30, 2**63, MAX_ROW + 1, 0, -1])
@pytest.mark.parametrize(
    ("field", "says"),
    [
        ("notes.0.round", f"note 1: round {RANGE}, or null"),
        ("history.0.number", f"history entry 1: number {RANGE}"),
        ("history.0.row", f"history entry 1: row {RANGE}"),
        ("history.0.replaced_by", f"history entry 1: replaced_by {RANGE}"),
        ("rounds.0.row", f"round 1: row {RANGE}"),
    ],
)
def test_a_whole_number_out_of_its_fields_range_is_one_sentence(
    isolated_data_dir: Path, tmp_path: Path, export: dict[str, Any], field: str, says: str, value: int
) -> None:
    if value == 0 and field == "history.0.replaced_by":
        return  # null would be fine, 0 is below the range like the others
    *path, last = field.split(".")
    node: Any = export
    for key in path:
        node = node[int(key)] if isinstance(node, list) else node[key]
    node[last] = value
    refused(isolated_data_dir, tmp_path, export, says)


def test_a_round_number_of_10_to_the_30_is_a_round_the_export_does_not_have(
    isolated_data_dir: Path, tmp_path: Path, export: dict[str, Any]
) -> None:
    export["rounds"][0]["number"] = 10**30
    refused(isolated_data_dir, tmp_path, export, "round 1: number must be a whole number from 1 to")


def test_a_number_longer_than_python_reads_is_one_sentence(
    isolated_data_dir: Path, tmp_path: Path, export: dict[str, Any]
) -> None:
    text = json.dumps(export).replace('"version": 2', '"version": ' + "9" * 5000)
    refused(isolated_data_dir, tmp_path, text, "holds a number of more than 4,300 digits")


def test_the_largest_row_still_imports(
    isolated_data_dir: Path, tmp_path: Path, export: dict[str, Any]
) -> None:
    export["notes"][0]["round"] = MAX_ROW  # a note about a round the session never had: as before
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(export), encoding="utf-8")
    ok("import", str(path))
