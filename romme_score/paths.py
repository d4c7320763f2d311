"""Where romme-score keeps its files when nothing says otherwise: one answer for every
front end (the database, the table mode's history).

Light on purpose: ``romme check`` asks where the database would be on every run, so
on Linux the XDG rule is read here directly (importing platformdirs costs more than the
rest of the referee's start-up); elsewhere platformdirs answers. A test holds both equal.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

APP = "romme-score"
DATABASE_FILE = "romme.sqlite3"


def data_dir() -> Path:
    """The user's data directory for romme-score (XDG on Linux, platformdirs elsewhere)."""
    if sys.platform.startswith("linux"):
        base = os.environ.get("XDG_DATA_HOME", "").strip() or os.path.expanduser("~/.local/share")
        return Path(base) / APP
    import platformdirs

    return Path(platformdirs.user_data_dir(APP, appauthor=False))


def default_location() -> str:
    """The database when neither ``--db`` nor anything else says: ``ROMME_DB`` (a path),
    else ``romme.sqlite3`` in the user's data directory."""
    env = os.environ.get("ROMME_DB", "").strip()
    if env:
        return env
    return str(data_dir() / DATABASE_FILE)
