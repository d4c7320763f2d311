"""``-o FILE`` (export, report): whole or not at all, one sentence when it cannot be
written, and never a rename over something that is not a regular file (issue 21 items
5 and 6)."""

from __future__ import annotations

import errno
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from clirun import ok, run

from romme_score.i18n import os_reason


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


# --- a folder that cannot be written (issue 20 item 25) ---------------------------------
# chmod does not stop root (tests may run as root on CI), so the operating system's
# refusals are simulated where they happen: creating the file beside the target (a
# read-only folder, a read-only file system), writing it (a full disk), renaming it.

OUTPUT_COMMANDS = {
    "export": ["export"],
    "export csv": ["export", "--format", "csv"],
    "report": ["report"],
    "tournament sheets": ["tournament", "sheets"],
}
REFUSALS = {
    "read-only folder": ("tempfile.mkstemp", PermissionError(errno.EACCES, "Permission denied")),
    "read-only file system": ("tempfile.mkstemp", OSError(errno.EROFS, "Read-only file system")),
    "full disk": ("write", OSError(errno.ENOSPC, "No space left on device")),
    "rename refused": ("os.replace", PermissionError(errno.EACCES, "Permission denied")),
}


@pytest.fixture
def cup() -> None:
    ok("new", "Fri", "Anna", "Ben")
    ok("round", "--winner", "Anna", "Ben=HK K10")
    ok("tournament", "new", "Cup", "A", "B", "C", "D", "--games", "1")
    ok("tournament", "draw")
    ok("use", "Fri")


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
@pytest.mark.parametrize("command", sorted(OUTPUT_COMMANDS))
def test_a_folder_that_cannot_be_written_is_one_sentence_and_leaves_nothing(
    cup: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str, refusal: str
) -> None:
    folder = tmp_path / "out"
    folder.mkdir()
    target = folder / "evening.out"
    where, error = REFUSALS[refusal]
    if where == "write":
        real_fdopen = os.fdopen

        class Full:
            def __init__(self, *args: object, **kwargs: object) -> None:
                self.file = real_fdopen(*args, **kwargs)  # type: ignore[call-overload]

            def write(self, text: str) -> int:
                raise error

            def __enter__(self) -> Full:
                return self

            def __exit__(self, *exc: object) -> None:
                self.file.close()

        monkeypatch.setattr(os, "fdopen", Full)
    else:
        module, name = where.split(".")
        monkeypatch.setattr({"tempfile": tempfile, "os": os}[module], name, raising_(error))
    code, out, err = run(*OUTPUT_COMMANDS[command], "-o", str(target))
    assert code == 1, (code, err)
    assert err.strip() == f"Error: cannot write {target}: {os_reason(error)}", err  # worded
    assert "internal error" not in err and "Traceback" not in err
    assert os.listdir(folder) == []  # no temporary file, no half file


def raising_(error: OSError) -> object:
    def refuse(*args: object, **kwargs: object) -> object:
        raise error

    return refuse


def test_a_folder_that_cannot_be_written_keeps_the_old_file(
    evening: None, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "fri.json"
    target.write_text("old")
    monkeypatch.setattr(tempfile, "mkstemp", raising_(PermissionError(errno.EACCES, "Permission denied")))
    code, _out, err = run("export", "-o", str(target))
    assert code == 1 and "cannot write" in err and target.read_text() == "old"
    assert leftovers(tmp_path) == []


@pytest.mark.skipif(
    os.geteuid() == 0 and not shutil.which("setpriv"), reason="as root, chmod stops no write without setpriv"
)
def test_a_read_only_folder_for_real_in_a_process(evening: None, tmp_path: Path) -> None:
    """The same in a real process on a folder made read-only with chmod (as root, with
    the capability to write anyway dropped by setpriv)."""
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o555)
    command = [sys.executable, "-m", "romme_score", "export", "-o", str(folder / "fri.json")]
    if os.geteuid() == 0:
        drop = "-dac_override,-dac_read_search"
        command = ["setpriv", f"--bounding-set={drop}", f"--inh-caps={drop}", *command]
    try:
        done = subprocess.run(command, capture_output=True, text=True, env={**os.environ, "ROMME_LANG": "en"})
    finally:
        folder.chmod(0o755)
    assert done.returncode == 1, done.stderr
    reason = os_reason(PermissionError(errno.EACCES, "Permission denied"))
    assert done.stderr.strip() == f"Error: cannot write {folder / 'fri.json'}: {reason}"
    assert os.listdir(folder) == []
