"""Writing a file the user named with ``-o``: whole or not at all, and never replacing
what is not a regular file.

A regular file (or a new one) is written beside the target under a temporary name and
renamed over it, so that a failed write leaves no half file and the old one stays. A
named pipe or a character device (``/dev/stdout``, ``/dev/null``, a FIFO a script reads)
is written into as a stream: renaming over it would replace the pipe or the device
itself. Anything else (a folder, a socket) is refused. The text is always UTF-8.
"""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from pathlib import Path

from romme_score.cli.options import Refused
from romme_score.i18n import _, os_reason


def cannot_write(path: Path, reason: object) -> Refused:
    return Refused(_("cannot write %(path)s: %(reason)s") % {"path": path, "reason": reason})


def write_output(path: Path, chunks: Iterable[str]) -> None:
    """Write the text given in pieces to ``path``; :class:`Refused` with one sentence
    (nothing left behind) when it cannot be written."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as exc:
        raise cannot_write(path, os_reason(exc)) from None
    if mode is not None and (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        try:
            with open(path, "w", encoding="utf-8", newline="") as stream:
                for chunk in chunks:
                    stream.write(chunk)
        except OSError as exc:
            raise cannot_write(path, os_reason(exc)) from None
        return
    if mode is not None and not stat.S_ISREG(mode):
        raise cannot_write(path, _("it is not a regular file"))
    folder = path.parent
    try:
        import tempfile  # only a command that writes a file pays for it (issue 28 item 3)

        handle, temporary = tempfile.mkstemp(dir=folder, prefix=".romme-", suffix=".partial")
    except OSError as exc:
        raise cannot_write(path, os_reason(exc)) from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as f:
            for chunk in chunks:
                f.write(chunk)
        if mode is not None:  # the file keeps its permissions (mkstemp makes it 0600)
            os.chmod(temporary, stat.S_IMODE(mode))
        else:
            umask = os.umask(0)
            os.umask(umask)
            os.chmod(temporary, 0o666 & ~umask)
        os.replace(temporary, path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise cannot_write(path, os_reason(exc)) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
