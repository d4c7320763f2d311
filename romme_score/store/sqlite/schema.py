"""The schema of a romme-score SQLite file and its migrations.

Versioned with ``PRAGMA user_version``; each migration runs in its own transaction. The
file is marked with ``PRAGMA application_id``: a file that is not ours is never written to.
"""

from __future__ import annotations

APPLICATION_ID = 0x526F6D6D  # "Romm"
TOTALS_SELECT = """
    SELECT p.session_id, p.name,
        COALESCE((SELECT SUM(h.points - h.bonus) FROM hands h JOIN rounds r ON r.id = h.round_id
                  WHERE r.session_id = p.session_id AND r.status = 'active'
                  AND h.player = p.name), 0),
        COALESCE((SELECT SUM(COALESCE(h.leaderboard, 0)) FROM hands h
                  JOIN rounds r ON r.id = h.round_id
                  WHERE r.session_id = p.session_id AND r.status = 'active'
                  AND h.player = p.name), 0)
    FROM players p WHERE {where}"""

# 003's leaderboard points, kept whole-numbered (10 less a tenth of the penalty, rounded
# down) until version 7, are kept in tenths from then on, exactly (RULES.md §7: 23 penalty
# points give 7.7, stored 77): every hand's again from its points and its round's winner,
# then the running totals. Self-contained, as the tournaments' below.
LEADERBOARD_TENTHS = [
    """UPDATE hands SET leaderboard = (
        SELECT CASE WHEN r.winner = hands.player THEN CASE WHEN r.hand_romme THEN 600 ELSE 300 END
                    ELSE MAX(0, 100 - hands.points) END
        FROM rounds r WHERE r.id = hands.round_id)
    WHERE leaderboard IS NOT NULL""",
    """UPDATE totals SET leaderboard = COALESCE((SELECT SUM(COALESCE(h.leaderboard, 0)) FROM hands h
        JOIN rounds r ON r.id = h.round_id
        WHERE r.session_id = totals.session_id AND r.status = 'active' AND h.player = totals.player), 0)""",
]

# Tournaments (RULES.md §10), self-contained: its own tables only, so that it can take
# another number when migrations of other branches come first. The tournament's players
# with their start numbers and teams, its series, and its tables, each an ordinary
# session; the current tournament is the ``state`` key 'tournament'.
TOURNAMENTS = [
    """CREATE TABLE tournaments (
        id INTEGER PRIMARY KEY,
        name TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        rules TEXT NOT NULL,
        options TEXT NOT NULL,
        seed INTEGER NOT NULL
    )""",
    """CREATE TABLE tournament_players (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        start INTEGER NOT NULL,
        name TEXT NOT NULL,
        team TEXT,
        withdrawn_after INTEGER,
        withdrawn_at TEXT,
        PRIMARY KEY (tournament_id, start),
        UNIQUE (tournament_id, name)
    )""",
    """CREATE TABLE tournament_series (
        tournament_id INTEGER NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        number INTEGER NOT NULL,
        drawn_at TEXT NOT NULL,
        PRIMARY KEY (tournament_id, number)
    )""",
    """CREATE TABLE tournament_tables (
        tournament_id INTEGER NOT NULL,
        series INTEGER NOT NULL,
        number INTEGER NOT NULL,
        session_id INTEGER NOT NULL UNIQUE REFERENCES sessions(id),
        PRIMARY KEY (tournament_id, series, number),
        FOREIGN KEY (tournament_id, series)
            REFERENCES tournament_series(tournament_id, number) ON DELETE CASCADE
    )""",
]

MIGRATIONS: list[list[str]] = [
    [  # 1: sessions, players, rounds with history, hands
        """CREATE TABLE sessions (
            id INTEGER PRIMARY KEY,
            name TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            rules TEXT NOT NULL,
            rate TEXT,
            currency TEXT,
            first_dealer INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE players (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            seat INTEGER NOT NULL,
            name TEXT NOT NULL,
            PRIMARY KEY (session_id, seat),
            UNIQUE (session_id, name)
        )""",
        """CREATE TABLE rounds (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            number INTEGER NOT NULL,
            winner TEXT,
            hand_romme INTEGER NOT NULL DEFAULT 0,
            stalemate INTEGER NOT NULL DEFAULT 0,
            recorded_at TEXT NOT NULL,
            status TEXT NOT NULL DEFAULT 'active'
                CHECK (status IN ('active', 'undone', 'replaced')),
            replaced_by INTEGER REFERENCES rounds(id),
            changed_at TEXT
        )""",
        "CREATE UNIQUE INDEX rounds_active ON rounds(session_id, number) WHERE status = 'active'",
        """CREATE TABLE hands (
            round_id INTEGER NOT NULL REFERENCES rounds(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            cards TEXT,
            typed_points INTEGER,
            never_out INTEGER NOT NULL DEFAULT 0,
            points INTEGER NOT NULL,
            bonus INTEGER NOT NULL DEFAULT 0,
            leaderboard INTEGER,
            PRIMARY KEY (round_id, player)
        )""",
        "CREATE TABLE state (key TEXT PRIMARY KEY, value TEXT)",
    ],
    [  # 2: running totals kept with every write, so a long session stays fast
        """CREATE TABLE totals (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            total INTEGER NOT NULL DEFAULT 0,
            leaderboard INTEGER NOT NULL DEFAULT 0,
            PRIMARY KEY (session_id, player)
        )""",
        "CREATE INDEX rounds_by_session ON rounds(session_id, status, number)",
        "INSERT INTO totals (session_id, player, total, leaderboard) " + TOTALS_SELECT.format(where="1"),
    ],
    [  # 3: notes and renames, kept with the session's history
        """CREATE TABLE notes (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            round INTEGER,
            text TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
        """CREATE TABLE renames (
            id INTEGER PRIMARY KEY,
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            old_name TEXT NOT NULL,
            new_name TEXT NOT NULL,
            at TEXT NOT NULL
        )""",
    ],
    [  # 4: a change counter per session, so that any front end notices a change made elsewhere
        "ALTER TABLE sessions ADD COLUMN version INTEGER NOT NULL DEFAULT 0",
    ],
    [  # 5: the round in progress (hands arriving from the phones) and the phones' links
        """CREATE TABLE pending (
            session_id INTEGER PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
            revision INTEGER NOT NULL DEFAULT 0,
            winner TEXT,
            hand_romme INTEGER NOT NULL DEFAULT 0,
            stalemate INTEGER NOT NULL DEFAULT 0
        )""",
        """CREATE TABLE pending_hands (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            player TEXT NOT NULL,
            cards TEXT,
            typed_points INTEGER,
            never_out INTEGER NOT NULL DEFAULT 0,
            at TEXT NOT NULL,
            PRIMARY KEY (session_id, player)
        )""",
        """CREATE TABLE links (
            session_id INTEGER NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
            kind TEXT NOT NULL CHECK (kind IN ('board', 'scorekeeper', 'seat')),
            player TEXT NOT NULL DEFAULT '',
            token TEXT NOT NULL UNIQUE,
            created_at TEXT NOT NULL,
            PRIMARY KEY (session_id, kind, player)
        )""",
    ],
    TOURNAMENTS,  # 6: tournaments (RULES.md §10), defined above
    LEADERBOARD_TENTHS,  # 7: 003's leaderboard points exact, in tenths (defined above)
]
SCHEMA_VERSION = len(MIGRATIONS)
