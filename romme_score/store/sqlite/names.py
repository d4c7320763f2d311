"""The names a shell completes (sessions, their players, tournaments), read from a
romme-score file without changing it: opened read-only (SQLite's ``mode=ro``), never
created, never migrated, with no check of the whole file. A file that is missing, not
ours or unreadable gives no names; whatever goes wrong, the answer is just empty.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote

from romme_score.store.sqlite.schema import APPLICATION_ID


@dataclass(frozen=True)
class Names:
    """What the database holds by name; ``players`` in seating order, by session."""

    sessions: tuple[str, ...] = ()
    current: str | None = None
    players: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tournaments: tuple[str, ...] = ()
    current_tournament: str | None = None
    entrants: dict[str, tuple[str, ...]] = field(default_factory=dict)


def read_names(path: Path) -> Names:
    """The names in the romme-score file at ``path``, or none.

    >>> read_names(Path("/nonexistent/romme.sqlite3"))
    Names(sessions=(), current=None, players={}, tournaments=(), current_tournament=None, entrants={})
    """
    if not path.is_file():
        return Names()
    try:
        db = sqlite3.connect(f"file:{quote(str(path.resolve()))}?mode=ro", uri=True, timeout=0.5)
    except sqlite3.Error:
        return Names()
    try:
        if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
            return Names()
        players: dict[str, list[str]] = {}
        for session, player in db.execute(
            "SELECT s.name, p.name FROM sessions s JOIN players p ON p.session_id = s.id"
            " ORDER BY s.id, p.seat"
        ):
            players.setdefault(session, []).append(player)
        sessions = tuple(r[0] for r in db.execute("SELECT name FROM sessions ORDER BY id"))
        state = dict(db.execute("SELECT key, value FROM state WHERE key IN ('current', 'tournament')"))
        try:
            tournaments = tuple(r[0] for r in db.execute("SELECT name FROM tournaments ORDER BY id"))
            entrants: dict[str, list[str]] = {}
            for tournament, player in db.execute(
                "SELECT t.name, p.name FROM tournaments t JOIN tournament_players p"
                " ON p.tournament_id = t.id ORDER BY t.id, p.start"
            ):
                entrants.setdefault(tournament, []).append(player)
        except sqlite3.Error:  # a file from before tournaments
            tournaments, entrants = (), {}
        return Names(
            sessions=sessions,
            current=state.get("current"),
            players={k: tuple(v) for k, v in players.items()},
            tournaments=tournaments,
            current_tournament=state.get("tournament"),
            entrants={k: tuple(v) for k, v in entrants.items()},
        )
    except sqlite3.Error:
        return Names()
    finally:
        db.close()
