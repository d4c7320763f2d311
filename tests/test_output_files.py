"""``-o FILE`` (export, report): whole or not at all, one sentence when it cannot be
written, and never a rename over something that is not a regular file (issue 21 items
5 and 6)."""

from __future__ import annotations

import os
import stat
import threading
from pathlib import Path

import pytest
from clirun import ok, run


@pytest.fixture
def evening() -> None:
    ok("new", "Fri", "Anna", "Ben")
    ok("round", "--winner", "Anna", "Ben=HK K10")


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if "partial" in p.name or p.name.startswith(".romme-"))


@pytest.mark.parametrize("command", [["export"], ["export", "--format", "csv"], ["report"]])
def test_a_file_name_too_long_is_refused_in_one_sentence_and_leaves_nothing(
    evening: None, tmp_path: Path, command: list[str]
) -> None:
    target = tmp_path / ("x" * 255 + ".json")
    code, out, err = run(*command, "-o", str(target))
    assert code == 1 and "cannot write" in err and "File name too long" in err, err
    assert "internal error" not in err and len(err.strip().splitlines()) == 1
    assert leftovers(tmp_path) == [] and target.name not in os.listdir(tmp_path)


def test_a_folder_that_is_a_file_is_refused(evening: None, tmp_path: Path) -> None:
    (tmp_path / "plain").write_text("x")
    code, _out, err = run("export", "-o", str(tmp_path / "plain" / "fri.json"))
    assert code == 1 and "cannot write" in err and "internal error" not in err


def test_a_named_pipe_is_written_into_as_a_stream(evening: None, tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()
    ok("export", "-o", str(fifo))
    reader.join(timeout=20)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)  # still the pipe
    assert b'"format": "romme-score session"' in got[0]
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(os.geteuid() != 0, reason="making a device node needs root")
def test_a_character_device_is_written_into_and_never_replaced(evening: None, tmp_path: Path) -> None:
    device = tmp_path / "null"
    os.mknod(device, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # a /dev/null of the test's own
    ok("export", "-o", str(device))
    ok("report", "-o", str(device))
    assert stat.S_ISCHR(os.stat(device).st_mode)
    assert leftovers(tmp_path) == []


def test_a_regular_file_is_replaced_whole_and_keeps_its_permissions(evening: None, tmp_path: Path) -> None:
    target = tmp_path / "fri.json"
    target.write_text("old")
    target.chmod(0o640)
    ok("export", "-o", str(target))
    assert target.read_text(encoding="utf-8").startswith("{") and stat.S_IMODE(target.stat().st_mode) == 0o640
    new = tmp_path / "new.csv"
    ok("export", "--format", "csv", "-o", str(new))
    assert new.read_text(encoding="utf-8").startswith("round,winner")
    assert leftovers(tmp_path) == []
