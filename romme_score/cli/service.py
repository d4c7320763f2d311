"""The session service as the session and settlement commands open it. Kept apart
from :mod:`~romme_score.cli.options` so that ``romme check`` never loads SQLite.

Its errors need no translation here: they are :class:`~romme_score.errors.InputProblem`
or :class:`~romme_score.errors.Refusal`, which the ``romme`` group turns into one
sentence with exit code 2 or 1.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # loaded when a command opens it: not for a command's --help
    from romme_score.sessions.service import SessionService

SQLITE_SIDECARS = ("", "-wal", "-shm", "-journal")


def open_service(db: str | Path | None, create: bool = False) -> SessionService:
    """The session service on ``db`` (default: the user's database), for a ``with`` block.

    Only a command that starts something (``new``, ``import``, ``tournament new``) creates
    the database, through :func:`creating_service`: any other finds no database where
    there is none, and leaves neither a file nor a folder behind (issue 20 item 23)."""
    from romme_score.sessions.service import SessionService

    return SessionService(db, create=create)


@contextmanager
def creating_service(db: str | Path | None) -> Iterator[SessionService]:
    """The session service on ``db``, creating the database where there is none; where the
    command then fails and the database it created still holds nothing, the file and the
    folders made for it are removed again: a failed command writes nothing."""
    from romme_score.paths import default_location

    location = str(db) if db is not None else default_location()
    path = None if "://" in location else Path(location)
    missing: list[Path] = []  # the folders this run creates, innermost first
    if path is not None:
        folder = path.parent
        while not folder.exists() and folder != folder.parent:
            missing.append(folder)
            folder = folder.parent
    fresh = path is not None and not path.exists()
    service = open_service(db, create=True)
    try:
        yield service
    except BaseException:
        empty = fresh and not service.holds_anything()
        service.close()
        if empty and path is not None:
            for suffix in SQLITE_SIDECARS:
                Path(f"{path}{suffix}").unlink(missing_ok=True)
            for made in missing:
                try:
                    made.rmdir()
                except OSError:  # something else was put there meanwhile
                    break
        raise
    service.close()
