"""The session service as the session and settlement commands open it. Kept apart
from :mod:`~romme_score.cli.options` so that ``romme check`` never loads SQLite.

Its errors need no translation here: they are :class:`~romme_score.errors.InputProblem`
or :class:`~romme_score.errors.Refusal`, which the ``romme`` group turns into one
sentence with exit code 2 or 1.
"""

from __future__ import annotations

from pathlib import Path

from romme_score.sessions import SessionService


def open_service(db: str | Path | None, create: bool = True) -> SessionService:
    """The session service on ``db`` (default: the user's database), for a ``with`` block."""
    return SessionService(db, create=create)
