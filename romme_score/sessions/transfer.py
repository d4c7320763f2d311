"""A whole session out and in (:mod:`romme_score.export`: JSON and CSV): what the database
knows of it, and an exported session written exactly as it was; and long sessions built
for benchmarks and tests (:func:`scored_rows`). Imported by export and import only, not by
every command that opens the service (issue 28 item 3)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import TYPE_CHECKING

from romme_score.i18n import _
from romme_score.inputs import clean_name
from romme_score.rules import RuleSet
from romme_score.scoring import RoundInput, game_state, replay
from romme_score.store.errors import NoSuchSession
from romme_score.store.records import HandRecord, SessionInfo, StoredRound, canonical

if TYPE_CHECKING:
    from romme_score.export import SessionExport
    from romme_score.store.protocol import Store


def scored_rows(
    players: Sequence[str], rules: RuleSet, inputs: Sequence[RoundInput], recorded_at: str = ""
) -> list[StoredRound]:
    """Rounds scored in order under the rules, as rows for :meth:`Store.write_session`
    (benchmarks and tests build long sessions with it)."""
    rows = []
    for number, (rnd, score) in enumerate(zip(inputs, replay(players, rules, inputs), strict=True), 1):
        hands = {
            p: HandRecord(
                canonical(h.cards) if (h := rnd.hands.get(p)) else None,
                h.points if h else None,
                h.never_out if h else False,
                score.points[p],
                score.bonus.get(p, 0),
                score.leaderboard.get(p),
            )
            for p in players
        }
        rows.append(
            StoredRound(
                number,
                number,
                "active",
                rnd.winner,
                rnd.hand_romme,
                rnd.stalemate,
                recorded_at,
                None,
                None,
                hands,
            )
        )
    return rows


@contextmanager
def export_session(store: Store, info: SessionInfo) -> Iterator[SessionExport]:
    """:meth:`SessionService.export <romme_score.sessions.SessionService.export>`: the
    session read again and everything of it streamed from one snapshot of the store
    (:meth:`Store.reading`), so that a round another process records meanwhile is in
    neither its rounds, its history, its totals nor its notes, but in the next export."""
    from romme_score import export as export_format

    with store.reading():
        try:
            # as it is in the snapshot: a rename since it was looked up renamed its players
            current = store.session_by_id(info.id)
        except NoSuchSession:
            raise NoSuchSession(info.name, store.session_names()) from None
        yield export_format.from_store(store, current)


def import_session(
    store: Store, export: SessionExport, name: str | None, replace: bool, use: bool
) -> tuple[str, int]:
    """:meth:`SessionService.import_ <romme_score.sessions.SessionService.import_>`."""
    from romme_score.export import ExportError, check_points

    rounds = list(export.rounds)
    history = list(export.history)
    scores = replay(export.players, export.rules, [r.to_input() for r in rounds])
    running = dict.fromkeys(export.players, 0)
    stored = []
    for rnd, score in zip(rounds, scores, strict=True):
        if rnd.number > 1 and game_state(export.players, running, rnd.number - 1, export.rules).finished:
            raise ExportError(
                _(
                    "round %(number)d comes after the game had ended in round "
                    "%(previous)d (game_end=%(game_end)s)"
                )
                % {"number": rnd.number, "previous": rnd.number - 1, "game_end": export.rules.game_end}
            )
        check_points(rnd, score, export.players)
        for p in export.players:
            running[p] += score.points[p] - score.bonus.get(p, 0)
        stored.append(
            rnd._replace(
                points=dict(score.points),
                bonus={p: b for p, b in score.bonus.items() if b},
                leaderboard=dict(score.leaderboard),
            ).to_stored(export.players)
        )
    stored += [r.to_stored(export.players) for r in history]
    stored.sort(key=lambda r: r.row)
    sname = clean_name(name, _("the new name")) if name is not None else export.name
    store.write_session(
        sname,
        export.created,
        export.players,
        export.rules,
        export.rate,
        export.currency,
        export.players.index(export.first_dealer),
        stored,
        export.notes,
        export.renames,
        overwrite=replace,
        make_current=use,
        endings=export.endings,
    )
    return sname, len(rounds)
