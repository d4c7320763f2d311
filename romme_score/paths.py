"""Where romme-score keeps its files when nothing says otherwise: one answer for every
front end (the database, the table mode's history).

Light on purpose: ``romme check`` asks where the database would be on every run, so
on Linux the XDG rule is read here directly (importing platformdirs costs more than the
rest of the referee's start-up); elsewhere platformdirs answers. A test holds both equal.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # imported where a Path is made: romme check's start-up needs none
    from pathlib import Path

APP = "romme-score"
DATABASE_FILE = "romme.sqlite3"


def _xdg_data_home() -> str:
    return os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser("~/.local/share")


def data_dir() -> Path:
    """The user's data directory for romme-score (XDG on Linux, platformdirs elsewhere)."""
    from pathlib import Path

    if sys.platform.startswith("linux"):
        return Path(_xdg_data_home()) / APP
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def default_location() -> str:
    """The database when neither ``--db`` nor anything else says: ``ROMME_DB`` (a path),
    else ``romme.sqlite3`` in the user's data directory."""
    env = os.environ.get("ROMME_DB", "").strip()
    if env:
        return env
    if sys.platform.startswith("linux"):
        base = _xdg_data_home()
        if base == os.path.normpath(base) != ".":  # then pathlib writes it as it is
            return os.path.join(base, APP, DATABASE_FILE)
    return str(data_dir() / DATABASE_FILE)


HISTORY_FILE = "play-history"


def history_location(db: str | None) -> str:
    """The table mode's command history of the database ``db`` (None: the default one).

    The default database keeps ``play-history`` beside it in the data directory; any other
    SQLite file keeps ``FILE.play-history`` beside it, so ``--db club.sqlite3`` recalls the
    club's lines and leaves the data directory alone; a PostgreSQL database, which has no
    folder, one file per server and database in the data directory.

    >>> history_location("/srv/club/club.sqlite3")
    '/srv/club/club.sqlite3.play-history'
    >>> history_location("postgresql://anna:pw@db.example:5433/club").endswith("play-history-db.example-5433-club")
    True
    """
    location = db if db else default_location()
    if "://" in location:
        import re
        from urllib.parse import urlsplit

        try:
            url = urlsplit(location)
            where = "-".join(
                str(p) for p in (url.hostname or "local", url.port or 5432, url.path.lstrip("/"))
            )
        except ValueError:  # an unreadable URL: the connection refuses it anyway
            where = "postgres"
        return str(data_dir() / f"{HISTORY_FILE}-{re.sub(r'[^A-Za-z0-9._-]', '_', where)}")
    import os.path

    if os.path.abspath(location) == os.path.abspath(str(data_dir() / DATABASE_FILE)):
        return str(data_dir() / HISTORY_FILE)
    return f"{location}.{HISTORY_FILE}"
