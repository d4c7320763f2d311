"""The store's contract (issue 18 item 8): what every backend of
:class:`romme_score.store.protocol.Store` does, run against each implementation, as
SQLAlchemy's dialect suites are. Sessions, rounds, corrections and their history, undo,
notes, renames, the change counter, statistics, the export's lines, and every refusal
leaving the database as it was.

A new backend adds one entry to ``BACKENDS`` (a factory of an empty store) and must pass
all of this unchanged.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from pgtest import fresh_database

from romme_score.cards import parse_cards
from romme_score.rules import GameEnd, find_preset
from romme_score.scoring import Hand, RoundInput, RoundScore, score_round
from romme_score.store import open_store
from romme_score.store.errors import (
    EventInLeague,
    EventNotInLeague,
    KeyTaken,
    LeagueExists,
    NoCurrentSession,
    NoCurrentTournament,
    NoRounds,
    NoSuchLeague,
    NoSuchSession,
    NoSuchTournament,
    PendingChanged,
    RoundNotThere,
    SeriesDrawn,
    SessionExists,
    SessionInLeague,
    SessionInTournament,
    StoreError,
    TournamentExists,
)
from romme_score.store.league_records import LeagueAlias
from romme_score.store.names import Names
from romme_score.store.protocol import Store
from romme_score.store.records import (
    HandRecord,
    Key,
    KeyedWrite,
    Link,
    Note,
    PendingChange,
    PendingHand,
    PendingRound,
    Rename,
    SessionInfo,
    StoredRound,
    TournamentInfo,
    TournamentPlayer,
)

PLAYERS = ("Anna", "Ben", "Carl")
RULES = find_preset("standard").replace(game_end=GameEnd.parse("open"), leaderboard=True)

Factory = Callable[..., Store]  # open_store's options (create, read_only) passed on


@contextmanager
def sqlite_store(tmp_path: Path) -> Iterator[Factory]:
    path = tmp_path / "contract.sqlite3"
    yield lambda **options: open_store(path, **options)


@contextmanager
def postgres_store(tmp_path: Path) -> Iterator[Factory]:
    with fresh_database() as url:
        yield lambda **options: open_store(url, **options)


BACKENDS: dict[str, Callable[[Path], AbstractContextManager[Factory]]] = {
    "sqlite": sqlite_store,
    "postgres": postgres_store,
}


@pytest.fixture(params=sorted(BACKENDS))
def connect(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Factory]:
    """Opens the backend's database; a second call opens a second connection to it."""
    with BACKENDS[request.param](tmp_path) as factory:
        yield factory


@pytest.fixture
def store(connect: Factory) -> Iterator[Store]:
    with connect() as opened:
        yield opened


def make(store: Store, name: str = "Fri", players: tuple[str, ...] = PLAYERS) -> SessionInfo:
    store.create_session(name, players, RULES, "0.01", "EUR", 1)
    return store.session(name)


def record(store: Store, info: SessionInfo, winner: str, **hands: str | int) -> tuple[int, RoundScore]:
    """Record a round the way the session service does: scored from the totals read in the
    store's transaction."""
    rnd = RoundInput(
        winner,
        {
            p: Hand(points=v) if isinstance(v, int) else Hand(cards=tuple(parse_cards(v)))
            for p, v in hands.items()
        },
    )

    def compute(before: dict[str, int], _played: int) -> RoundScore:
        return score_round(info.players, before, rnd, info.rules)

    return store.record_round(info, rnd, compute)


def snapshot(store: Store) -> Any:
    """Everything the store holds, read through the protocol alone."""
    sessions = []
    for row in store.session_overview():
        info = row.info
        sessions.append(
            (
                info,
                row.rounds,
                row.totals,
                store.leaderboard(info),
                list(store.all_rounds(info, active=True)),
                list(store.all_rounds(info, active=False)),
                store.notes(info),
                store.renames(info),
                store.history(info),
                store.version(info),
                store.pending(info),
                store.links(info),
            )
        )
    tournaments = [
        (info, store.tournament_tables(info), list(store.tournament_games(info)))
        for info in map(store.tournament, store.tournament_names())
    ]
    leagues = [store.league(name) for name in store.league_names()]
    return store.current_name(), sessions, store.current_tournament(), tournaments, leagues


def test_a_new_session_is_current_and_keeps_its_players_rules_and_money(store: Store) -> None:
    info = make(store)
    assert store.current_name() == "Fri" and store.session().name == "Fri"
    assert info.players == PLAYERS and info.rules == RULES
    assert (info.rate, info.currency, info.first_dealer) == ("0.01", "EUR", 1)
    assert store.session_by_id(info.id) == info
    assert store.session_names() == ["Fri"]
    assert store.totals(info) == dict.fromkeys(PLAYERS, 0) and store.round_count(info) == 0


def test_sessions_are_found_by_name_with_the_closest_name_offered(store: Store) -> None:
    with pytest.raises(NoCurrentSession):
        store.session()
    make(store)
    make(store, "Samstag")
    store.set_current("Fri")
    assert store.session().name == "Fri"
    with pytest.raises(NoSuchSession) as found:
        store.session("Samstg")
    assert found.value.close == "Samstag" and found.value.known == ("Fri", "Samstag")


def test_rounds_are_numbered_and_totalled(store: Store) -> None:
    info = make(store)
    number, _first = record(store, info, "Anna", Ben="HK K10", Carl=5)
    assert number == 1
    number, score = record(store, info, "Ben", Anna="P7 P8", Carl=0)
    assert number == 2 and score.points["Anna"] == 15 and score.bonus["Ben"] == 10  # standard: 10 struck
    assert store.round_count(info) == 2
    assert store.totals(info) == {"Anna": 15, "Ben": 20 - 10, "Carl": 5}
    rounds = store.rounds(info)
    assert [r.number for r in rounds] == [1, 2] and rounds[0].winner == "Anna"
    assert rounds[0].hands["Ben"] == HandRecord(
        "HK K10", None, False, 20, 0, rounds[0].hands["Ben"].leaderboard
    )
    assert rounds[0].hands["Carl"].typed_points == 5 and rounds[0].hands["Carl"].cards is None
    assert [r.number for r in store.rounds(info, last=1)] == [2]
    points = list(store.round_points(info))
    assert [(p.number, p.winner, dict(p.points)) for p in points] == [
        (1, "Anna", {"Anna": 0, "Ben": 20, "Carl": 5}),
        (2, "Ben", {"Anna": 15, "Ben": 0, "Carl": 0}),
    ]
    assert [p.number for p in store.round_points(info, last=1)] == [2]
    assert store.leaderboard(info) == {p: sum(r.hands[p].leaderboard or 0 for r in rounds) for p in PLAYERS}


def test_undo_keeps_the_round_in_the_history(store: Store) -> None:
    info = make(store)
    with pytest.raises(NoRounds):
        store.undo_last(info)
    record(store, info, "Anna", Ben=10, Carl=5)
    record(store, info, "Ben", Anna=7, Carl=1)
    undone = store.undo_last(info)
    assert undone.number == 2 and undone.winner == "Ben"
    assert store.round_count(info) == 1 and store.totals(info) == {"Anna": 0, "Ben": 10, "Carl": 5}
    assert [(c.number, c.status) for c in store.history(info)] == [(2, "undone")]
    assert [r.status for r in store.all_rounds(info, active=False)] == ["undone"]
    assert record(store, info, "Carl", Anna=3, Ben=4)[0] == 2  # the number is free again


def test_a_correction_replaces_the_round_and_keeps_the_old_one(store: Store) -> None:
    info = make(store)
    record(store, info, "Anna", Ben=10, Carl=5)
    record(store, info, "Ben", Anna=7, Carl=1)
    new = RoundInput("Anna", {"Ben": Hand(points=30), "Carl": Hand(points=5)})
    scores = [score_round(info.players, {}, new, info.rules)]
    second = store.rounds(info)[1].to_input(info.players)
    scores.append(score_round(info.players, {"Anna": 0, "Ben": 30, "Carl": 5}, second, info.rules))
    store.replace_rounds(info, 1, [new, second], scores, {1})
    want = {p: sum(x.points[p] - x.bonus.get(p, 0) for x in scores) for p in PLAYERS}
    assert store.totals(info) == want and want["Ben"] == 30 - 10
    history = list(store.all_rounds(info, active=False))
    assert [(r.number, r.status) for r in history] == [(1, "replaced")]
    active = list(store.all_rounds(info, active=True))
    assert history[0].replaced_by == active[0].row and active[0].hands["Ben"].typed_points == 30
    with pytest.raises(RoundNotThere):
        store.replace_rounds(info, 5, [new], scores[:1], {5})


def running_totals(store: Store, info: SessionInfo) -> list[tuple[int, dict[str, int]]]:
    """Each player's total after each active round, added up from the scoresheet."""
    running = dict.fromkeys(info.players, 0)
    out = []
    for row in store.round_points(info):
        for p in info.players:
            running[p] += row.points.get(p, 0) - row.bonus.get(p, 0)
        out.append((row.number, dict(running)))
    return out


def test_the_totals_after_each_round_are_kept_through_undo_correction_and_import_issue28(
    store: Store,
) -> None:
    info = make(store)
    other = make(store, "Sat")
    record(store, info, "Anna", Ben=10, Carl=5)
    record(store, other, "Ben", Anna=40, Carl=2)
    record(store, info, "Ben", Anna=7, Carl=1)
    record(store, info, "Carl", Anna=3, Ben=4)
    assert list(store.round_totals(info)) == running_totals(store, info)
    assert list(store.round_totals(info))[-1] == (3, store.totals(info))
    store.undo_last(info)
    assert (
        list(store.round_totals(info)) == running_totals(store, info)
        and len(running_totals(store, info)) == 2
    )
    first = store.rounds(info)[0].to_input(info.players)
    new = RoundInput("Anna", {"Ben": Hand(points=30), "Carl": Hand(points=5)})
    second = store.rounds(info)[1].to_input(info.players)
    one = score_round(info.players, {}, new, info.rules)
    two = score_round(info.players, dict(one.points), second, info.rules)
    store.replace_rounds(info, 1, [new, second], [one, two], {1})
    assert first != new and list(store.round_totals(info)) == running_totals(store, info)
    record(store, info, "Ben", Anna=9, Carl=0)
    assert list(store.round_totals(info)) == running_totals(store, info)
    assert list(store.round_totals(info, [1, 3])) == [running_totals(store, info)[i] for i in (0, 2)]
    assert list(store.round_totals(other)) == running_totals(store, other) == [(1, store.totals(other))]
    rounds = list(store.all_rounds(info, active=True)) + list(store.all_rounds(info, active=False))
    store.write_session("Copy", "", PLAYERS, RULES, None, None, 0, rounds, [], [], False)
    copy = store.session("Copy")
    assert list(store.round_totals(copy)) == running_totals(store, info)
    store.delete_session("Copy")
    assert list(store.round_totals(copy)) == []


def test_notes_renames_and_deletion(store: Store) -> None:
    info = make(store)
    record(store, info, "Anna", Ben=10, Carl=5)
    note = store.add_note(info, 1, "counted twice")
    assert store.notes(info) == [note] and note.round == 1 and note.at
    store.rename_session("Fri", "Freitag")
    renamed = store.session("Freitag")
    assert renamed.id == info.id and store.current_name() == "Freitag"
    assert [(r.old, r.new) for r in store.renames(renamed)] == [("Fri", "Freitag")]
    with pytest.raises(NoSuchSession):
        store.session("Fri")
    make(store, "Other")
    with pytest.raises(SessionExists) as taken:
        store.rename_session("Other", "Freitag")
    assert taken.value.action == "rename"
    store.delete_session("Freitag")
    assert store.session_names() == ["Other"]
    with pytest.raises(NoSuchSession):
        store.session_by_id(info.id)


def test_a_whole_session_is_written_as_exported(store: Store) -> None:
    hands = {
        "Anna": HandRecord(None, None, False, 0, 0, None),
        "Ben": HandRecord("HK", None, False, 10, 0, None),
    }
    rounds = [
        StoredRound(1, 1, "replaced", "Anna", False, False, "2026-11-30T20:00:00+00:00", "x", 2, hands),
        StoredRound(2, 1, "active", "Anna", False, False, "2026-11-30T20:01:00+00:00", None, None, hands),
    ]
    notes = [Note(1, "a note", "2026-11-30T20:02:00+00:00")]
    renames = [Rename("A", "Imported", "2026-11-30T20:03:00+00:00")]
    args = ("2026-11-30T19:00:00+00:00", ("Anna", "Ben"), RULES, None, None, 1, rounds, notes, renames)
    store.write_session("Imported", *args, overwrite=False)
    info = store.session()
    assert info.name == "Imported" and info.created_at == "2026-11-30T19:00:00+00:00"
    assert [r.row for r in store.all_rounds(info, active=True)] == [2]
    assert [(r.row, r.replaced_by) for r in store.all_rounds(info, active=False)] == [(1, 2)]
    assert store.notes(info) == notes and store.renames(info) == renames
    assert store.totals(info) == {"Anna": 0, "Ben": 10}
    with pytest.raises(SessionExists) as taken:
        store.write_session("Imported", *args, overwrite=False)
    assert taken.value.action == "import"
    store.write_session("Imported", *args[:6], [], [], [], overwrite=True)
    assert store.round_count(store.session("Imported")) == 0


def test_the_version_changes_with_every_change_and_is_seen_by_another_connection(
    store: Store, connect: Factory
) -> None:
    info = make(store)
    seen = [store.version(info)]

    def changed() -> None:
        """A change shows at once when this connection made it; another connection's may
        take a moment to be told (PostgreSQL's NOTIFY arrives after its commit)."""
        deadline = time.monotonic() + 2
        now = store.version(info)
        while now in seen and time.monotonic() < deadline:
            time.sleep(0.01)
            now = store.version(info)
        assert now not in seen
        seen.append(now)

    assert store.version(info) == seen[-1]  # reading changes nothing
    store.totals(info)
    list(store.round_points(info))
    assert store.version(info) == seen[-1]
    record(store, info, "Anna", Ben=10, Carl=5)
    changed()
    with connect() as other:  # another process's connection, as far as the store can tell
        theirs = other.session("Fri")
        assert other.version(theirs) == seen[-1]
        record(other, theirs, "Ben", Anna=3, Carl=1)
        changed()
        other.undo_last(theirs)
        changed()
        other.add_note(theirs, None, "hi")
        changed()
        other.rename_session("Fri", "Freitag")
        changed()
    make(store, "Unrelated")
    assert store.version(info) == seen[-1]  # another session's change is not this one's
    store.delete_session("Freitag")
    assert store.version(info) == -1


def test_statistics_aggregate_per_player_and_session(store: Store) -> None:
    info = make(store)
    record(store, info, "Anna", Ben=10, Carl=5)
    record(store, info, "Anna", Ben=30, Carl=40)
    record(store, info, "Carl", Anna=2, Ben=8)
    rows = {r.player: r for r in store.player_session_stats()}
    assert rows["Anna"].rounds_won == 2 and rows["Carl"].rounds_won == 1
    assert rows["Ben"].points == 48 and rows["Ben"].worst_round == 30
    assert rows["Ben"].total == store.totals(info)["Ben"]
    assert rows["Anna"].session == "Fri" and rows["Anna"].rules and rows["Anna"].seat == 0
    assert store.player_session_stats(since="2999-01-01") == []
    against = {h.player: h for h in store.head_to_head_rounds(["Ben"])}
    assert against["Anna"].rounds == 3 and against["Anna"].fewer == 3 and against["Anna"].more == 0
    assert against["Carl"].fewer == 2 and against["Carl"].more == 1


def test_the_export_lines_hold_what_all_rounds_holds(store: Store) -> None:
    info = make(store)
    record(store, info, "Anna", Ben="HK K10", Carl=5)
    record(store, info, "Ben", Anna="P7 P8", Carl=0)
    store.undo_last(info)
    for active in (True, False):
        batches = store.round_lines(info, active=active)
        if batches is None:  # a backend may not line them up: then all_rounds is read
            continue
        lines = [dict(zip(batch.fields, row, strict=True)) for batch in batches for row in batch.rows]
        rounds = list(store.all_rounds(info, active=active))
        assert len(lines) == len(rounds)
        for fields, rnd in zip(lines, rounds, strict=True):
            assert (fields["row"], fields["number"], fields["winner"]) == (rnd.row, rnd.number, rnd.winner)
            for seat, player in enumerate(info.players):
                hand = rnd.hands[player]
                assert fields[f"cards_{seat}"] == hand.cards
                assert fields[f"typed_points_{seat}"] == hand.typed_points
                assert fields[f"points_{seat}"] == hand.points
    sheet = [dict(zip(b.fields, row, strict=True)) for b in store.scoresheet_lines(info) for row in b.rows]
    assert [(s["number"], s["winner"], s["net_1"], s["cards_1"]) for s in sheet] == [
        (1, "Anna", 20, "HK K10")
    ]


def test_export_rows_count_the_sessions_rounds_whatever_holes_their_ids_have_issue_36_item_7(
    store: Store,
) -> None:
    """A round's row is its place among its session's rounds, also where the ids between
    them belong to nobody: a game deleted since, or (PostgreSQL) ids a sequence handed to a
    phone's write that asked one ahead and saved no round. The lines were numbered by the
    ids less the other sessions' rounds between them, and said row 3 for round 2."""
    info = make(store)
    other = make(store, "Sat")
    record(store, info, "Anna", Ben=5, Carl=6)
    record(store, other, "Anna", Ben=1, Carl=2)
    record(store, other, "Anna", Ben=1, Carl=2)
    record(store, info, "Ben", Anna=7, Carl=8)
    store.delete_session("Sat")
    record(store, info, "Carl", Anna=1, Ben=2)
    store.undo_last(info)
    record(store, info, "Carl", Anna=3, Ben=4)
    for active in (True, False):
        expected = [(r.row, r.number) for r in store.all_rounds(info, active=active)]
        assert [row for row, _number in expected] == ([1, 2, 4] if active else [3])
        batches = store.round_lines(info, active=active)
        if batches is None:
            continue
        lines = [dict(zip(b.fields, row, strict=True)) for b in batches for row in b.rows]
        assert [(f["row"], f["number"]) for f in lines] == expected


def read_everything(store: Store, info: SessionInfo) -> Any:
    """What an export reads of a session: its rows, the long reads' lines and rounds (read
    two rows at a time), totals, history, notes and renames."""
    found = store.session_by_id(info.id)
    lines = store.round_lines(found, active=True, batch=2)
    return (
        found,
        store.round_count(found),
        store.totals(found),
        store.history(found),
        store.notes(found),
        store.renames(found),
        [row for batch in lines or () for row in batch.rows],
        [(r.number, r.status) for r in store.all_rounds(found, active=False)],
        [row for batch in store.scoresheet_lines(found, batch=2) for row in batch.rows],
    )


def test_reads_inside_reading_are_one_snapshot_and_keep_no_writer_waiting(
    store: Store, connect: Factory
) -> None:
    """Store.reading (romme export: one consistent read): what another connection writes
    while the block reads, between two of its reads and amid a long read's batches, is
    not seen inside the block, and seen after it; the writer does not wait for it."""
    info = make(store)
    for n in range(5):
        record(store, info, "Anna", Ben=n, Carl=5)
    store.add_note(info, 2, "before")
    as_it_was = read_everything(store, info)
    with connect() as other:
        theirs = other.session("Fri")
        with store.reading():
            first = store.session_by_id(info.id)
            rounds = store.round_lines(first, active=True, batch=2)
            started = iter(rounds or store.all_rounds(first, active=True))
            next(started)  # a long read begun, its first batch read
            record(other, theirs, "Ben", Anna=3, Carl=1)
            other.undo_last(theirs)
            record(other, theirs, "Carl", Anna=7, Ben=8)
            other.add_note(theirs, None, "meanwhile")
            other.rename_session("Fri", "Freitag")
            assert sum(1 for _ in started) == (2 if rounds is not None else 4)  # 5 rounds, 2 a batch
            assert read_everything(store, info) == as_it_was
        after = read_everything(store, info)
    assert after != as_it_was
    assert after[0].name == "Freitag" and after[1] == 6 and after[4][-1].text == "meanwhile"
    with store.reading(), store.reading():  # inside another: part of it
        assert read_everything(store, info) == after


# --- the round in progress and the phones' links (issue 19) ----------------------------


def test_the_round_in_progress_is_kept_part_by_part_and_counts_as_a_change(
    store: Store, connect: Factory
) -> None:
    info = make(store)
    assert store.pending(info) == PendingRound() and store.pending(info).empty
    before = store.version(info)
    now = store.change_pending(info, PendingChange(hands={"Ben": PendingHand("HK K10", None)}))
    assert now.hands == {"Ben": PendingHand("HK K10", None)} and now.winner is None and now.revision == 1
    assert store.version(info) != before
    store.change_pending(info, PendingChange(winner="Anna", hand_romme=True))
    store.change_pending(info, PendingChange(hands={"Carl": PendingHand(None, 23, never_out=True)}))
    with connect() as other:  # kept in the database: another connection (a restarted server) sees it
        seen = other.pending(other.session("Fri"))
    assert seen.winner == "Anna" and seen.hand_romme and not seen.stalemate
    assert list(seen.hands) == ["Ben", "Carl"] and seen.hands["Carl"] == PendingHand(None, 23, True)
    assert seen.revision == 3
    assert seen.to_input().hands["Ben"].cards is not None
    later = store.change_pending(info, PendingChange(winner=None, stalemate=True, hands={"Ben": None}))
    assert later.winner is None and later.stalemate and list(later.hands) == ["Carl"]
    version = store.version(info)
    store.clear_pending(info)
    cleared = store.pending(info)
    assert cleared.empty and cleared.revision > later.revision and store.version(info) != version
    version = store.version(info)
    store.clear_pending(info)  # nothing there: no change
    assert store.version(info) == version


def test_an_idempotency_key_is_kept_with_its_write_in_one_transaction_issue_31(
    store: Store, connect: Factory
) -> None:
    """Issue 31: a write, its key and its answer are kept together (a restarted server
    keeps them), the same key again is refused with nothing written, a refused write keeps
    no key. Issue 35: the key is a value given to the write's transaction (held()), not a
    mode of the store left for the next write."""
    info = make(store)
    key = Key("k-1", "hand Ben")
    with store.held():
        assert store.keyed_write(info, "k-1") is None
        store.change_pending(info, PendingChange(hands={"Ben": PendingHand(None, 10)}))
        store.keep_key(info, key, 200, '{"points": 10}')
    with connect() as other:  # another connection (a restarted server) sees the key and its answer
        assert other.keyed_write(other.session("Fri"), "k-1") == KeyedWrite("hand Ben", 200, '{"points": 10}')
    version = store.version(info)
    with pytest.raises(KeyTaken), store.held():
        store.change_pending(info, PendingChange(hands={"Ben": PendingHand(None, 99)}))
        store.keep_key(info, key, 200, "{}")
    assert store.pending(info).hands == {"Ben": PendingHand(None, 10)} and store.version(info) == version
    # a write refused inside the block keeps no key, nor anything else of the block
    with pytest.raises(PendingChanged), store.held():
        store.change_pending(info, PendingChange(hands={"Carl": PendingHand(None, 3)}))
        store.keep_key(info, Key("k-2", "out Anna"), 200, "{}")
        store.change_pending(info, PendingChange(winner="Anna"), expected=0)
    assert store.keyed_write(info, "k-2") is None and "Carl" not in store.pending(info).hands
    store.change_pending(info, PendingChange(hands={"Carl": PendingHand(None, 3)}))  # no key: none kept
    assert store.keyed_write(info, "k-1") is not None and store.keyed_write(info, "k-3") is None


def test_idempotency_keys_of_rounds_before_the_last_saved_are_dropped_issue_31(store: Store) -> None:
    info = make(store)

    def keyed(key: str, points: int) -> None:
        with store.held():
            store.change_pending(info, PendingChange(hands={"Ben": PendingHand(None, points)}))
            store.keep_key(info, Key(key, "x"), 200, "{}")

    keyed("round-1", 1)
    record(store, info, "Anna", Ben=1, Carl=2)
    keyed("round-2", 2)
    assert store.keyed_write(info, "round-1") is not None  # the round just saved keeps its keys
    record(store, info, "Anna", Ben=1, Carl=2)
    keyed("round-3", 3)
    assert store.keyed_write(info, "round-1") is None
    assert store.keyed_write(info, "round-2") is not None and store.keyed_write(info, "round-3") is not None


def test_a_round_saved_from_the_round_in_progress_clears_it_in_the_same_transaction(store: Store) -> None:
    info = make(store)
    pending = store.change_pending(info, PendingChange(winner="Anna", hands={"Ben": PendingHand(None, 10)}))
    store.change_pending(info, PendingChange(hands={"Carl": PendingHand(None, 5)}))
    rnd = RoundInput("Anna", {"Ben": Hand(points=10), "Carl": Hand(points=5)})

    def compute(before: dict[str, int], _played: int) -> RoundScore:
        return score_round(info.players, before, rnd, info.rules)

    with pytest.raises(PendingChanged) as stale:  # a hand came in after it was read
        store.record_round(info, rnd, compute, pending=pending.revision)
    assert stale.value.revision == pending.revision + 1
    assert store.round_count(info) == 0 and store.pending(info).hands.keys() == {"Ben", "Carl"}
    number, _score = store.record_round(info, rnd, compute, pending=stale.value.revision)
    assert number == 1 and store.pending(info).empty
    store.change_pending(info, PendingChange(hands={"Ben": PendingHand(None, 1)}))
    record(store, info, "Ben", Anna=3, Carl=4)  # a round saved otherwise leaves it alone
    assert store.pending(info).hands == {"Ben": PendingHand(None, 1)}


def test_links_are_kept_per_session_and_replaced_only_when_asked(store: Store, connect: Factory) -> None:
    info = make(store)
    other = make(store, "Other")
    assert store.links(info) == []
    made = [Link("seat", "Carl", "t-carl"), Link("board", None, "t-board"), Link("seat", "Anna", "t-anna")]
    kept = store.add_links(info, made, replace=False)
    assert [(k.kind, k.player) for k in kept] == [("board", None), ("seat", "Anna"), ("seat", "Carl")]
    again = store.add_links(
        info, [Link("board", None, "t-new"), Link("scorekeeper", None, "t-keeper")], replace=False
    )
    assert [k.token for k in again] == ["t-board", "t-keeper", "t-anna", "t-carl"]  # the old board stays
    with connect() as second:
        assert second.links(second.session("Fri")) == again
    assert store.links(other) == []
    fresh = store.add_links(info, [Link("board", None, "t-fresh")], replace=True)
    assert fresh == [Link("board", None, "t-fresh")]
    store.delete_session("Fri")
    assert store.add_links(other, [Link("board", None, "t-board")], replace=False)[0].token == "t-board"


# --- tournaments (RULES.md §10) ---------------------------------------------------------------

TOURNAMENT_RULES = RULES.replace(game_end=GameEnd.parse("rounds:2"))
# The store keeps a tournament's and a league's options as plain data, as given: the
# services build them (it imports nothing of theirs, issue 35 item 3).
OPTIONS = {"games": 2, "series": 2, "scoring": "wertung", "prizes": "none", "currency": None}
ENTRANTS = (
    TournamentPlayer(1, "Anna", "Nord"),
    TournamentPlayer(2, "Ben", None),
    TournamentPlayer(3, "Carl", "Nord"),
    TournamentPlayer(4, "Dora", "Süd"),
)


def make_tournament(store: Store, name: str = "Cup") -> TournamentInfo:
    store.create_tournament(name, TOURNAMENT_RULES, OPTIONS, 4711, ENTRANTS)
    return store.tournament(name)


def test_a_tournament_keeps_its_players_rules_options_and_seed(store: Store) -> None:
    with pytest.raises(NoCurrentTournament):
        store.tournament()
    cup = make_tournament(store)
    assert store.current_tournament() == "Cup" and store.tournament() == cup
    assert (cup.rules, cup.options, cup.seed, cup.players) == (TOURNAMENT_RULES, OPTIONS, 4711, ENTRANTS)
    assert cup.series_drawn == 0 and store.tournament_tables(cup) == []
    assert store.session_names() == []  # a tournament has no session until a series is drawn
    make_tournament(store, "Pokal")
    assert store.tournament_names() == ["Cup", "Pokal"] and store.current_tournament() == "Pokal"
    with pytest.raises(NoSuchTournament) as found:
        store.tournament("Pokl")
    assert found.value.close == "Pokal" and found.value.known == ("Cup", "Pokal")
    with pytest.raises(TournamentExists):
        make_tournament(store)


def test_names_lists_sessions_with_players_and_tournaments_with_entrants(store: Store) -> None:
    """What a shell completes, in seating and start order, the current ones named."""
    assert store.names() == Names()
    make(store, "Fri", ("Carl", "Anna"))
    make(store, "Sat")
    make_tournament(store)
    store.set_current("Fri")
    found = store.names()
    assert found.sessions == ("Fri", "Sat") and found.current == "Fri"
    assert found.players == {"Fri": ("Carl", "Anna"), "Sat": PLAYERS}
    assert found.tournaments == ("Cup",) and found.current_tournament == "Cup"
    assert found.entrants == {"Cup": tuple(p.name for p in ENTRANTS)}


def test_a_store_opened_read_only_reads_names_and_writes_nothing(connect: Factory) -> None:
    with connect() as store:
        make(store)
        before = snapshot(store)
    with connect(create=False, read_only=True) as looking:
        assert looking.names().sessions == ("Fri",)
        with pytest.raises(StoreError):
            looking.create_session("Sat", PLAYERS, RULES, None, None, 0)
    with connect() as store:
        assert snapshot(store) == before


def test_every_backend_is_the_one_sql_store_over_a_dialect() -> None:
    """A backend brings its connection and its dialect only: no method of the store of its
    own (the SQL is written once, in romme_score/store/sql/)."""
    import importlib

    from romme_score.store import BACKENDS
    from romme_score.store.sql.dialect import Dialect
    from romme_score.store.sql.store import SQLStore

    for module, name in BACKENDS.values():
        backend = getattr(importlib.import_module(module), name)
        assert issubclass(backend, SQLStore)
        assert [k for k, v in vars(backend).items() if callable(v) and k != "__init__"] == []
    from romme_score.store.postgres import POSTGRES
    from romme_score.store.sqlite.dialect import SQLITE

    assert isinstance(SQLITE, Dialect) and isinstance(POSTGRES, Dialect)


def test_a_series_is_drawn_with_a_session_per_table_and_its_games_are_read_at_once(store: Store) -> None:
    cup = make_tournament(store)
    store.draw_series(
        cup, 1, [("Cup S1 T1", ("Dora", "Anna")), ("Cup S1 T2", ("Carl", "Ben"))], TOURNAMENT_RULES, "EUR"
    )
    cup = store.tournament()
    assert cup.series_drawn == 1 and store.current_name() is None  # issue 36 item 4: no current game made
    first, second = store.tournament_tables(cup)
    assert (first.series, first.table, first.session, first.players, first.games) == (
        1,
        1,
        "Cup S1 T1",
        ("Dora", "Anna"),
        0,
    )
    table = store.session("Cup S1 T2")
    assert second.session_id == table.id and table.players == ("Carl", "Ben")
    assert (table.rules, table.currency, table.first_dealer, table.rate) == (TOURNAMENT_RULES, "EUR", 0, None)
    record(store, table, "Carl", Ben=12)
    record(store, table, "Ben", Carl=35)
    record(store, store.session("Cup S1 T1"), "Anna", Dora="HK")
    games = list(store.tournament_games(cup))
    assert [(sid, g.number, g.winner, dict(g.points), dict(g.bonus)) for sid, g in games] == [
        (first.session_id, 1, "Anna", {"Dora": 10, "Anna": 0}, {"Anna": 0, "Dora": 0}),
        (table.id, 1, "Carl", {"Carl": 0, "Ben": 12}, {"Carl": 0, "Ben": 0}),
        (table.id, 2, "Ben", {"Carl": 35, "Ben": 0}, {"Carl": 0, "Ben": 10}),
    ]
    assert [t.games for t in store.tournament_tables(cup)] == [1, 2]
    store.rename_session("Cup S1 T2", "Tisch 2")  # the table follows its session
    assert store.tournament_tables(cup)[1].session == "Tisch 2"
    with pytest.raises(SeriesDrawn):
        store.draw_series(cup, 1, [("Cup S1 T3", ("Anna", "Ben"))], TOURNAMENT_RULES, None)
    with pytest.raises(SessionInTournament) as kept:
        store.delete_session("Tisch 2")
    assert (kept.value.session, kept.value.tournament) == ("Tisch 2", "Cup")


def test_a_series_with_a_session_name_taken_writes_nothing(store: Store) -> None:
    cup = make_tournament(store)
    make(store, "Cup S1 T2")
    with pytest.raises(SessionExists):
        store.draw_series(
            cup, 1, [("Cup S1 T1", ("Anna", "Ben")), ("Cup S1 T2", ("Carl", "Dora"))], TOURNAMENT_RULES, None
        )
    assert store.tournament().series_drawn == 0 and store.session_names() == ["Cup S1 T2"]


def test_a_withdrawal_is_kept_with_the_series_drawn_then(store: Store) -> None:
    cup = make_tournament(store)
    store.withdraw_player(cup, 2, 1)
    store.withdraw_player(cup, 2, 2)  # a second withdrawal changes nothing
    players = store.tournament().players
    assert [(p.start, p.withdrawn_after) for p in players] == [(1, None), (2, 1), (3, None), (4, None)]


def test_a_sessions_tournament_is_found_in_one_look_issue_29(store: Store) -> None:
    cup = make_tournament(store)
    store.draw_series(cup, 1, [("Cup S1 T1", ("Anna", "Ben", "Carl"))], RULES, None)
    other = make(store, "Friday")
    assert store.session_tournament(store.session("Cup S1 T1")) == "Cup"
    assert store.session_tournament(other) is None


def test_a_table_knows_its_series_and_the_series_drawn_since_issue_36_item_2(store: Store) -> None:
    """Whose table a session is, with the series drawn now, in one read: the open check of
    every write asks it, and a later series drawn closes the tables before it."""
    from romme_score.sessions import GameOver, SessionService
    from romme_score.store.records import TableOf

    cup = make_tournament(store)
    store.draw_series(cup, 1, [("Cup S1 T1", ("Anna", "Ben", "Carl"))], RULES, None)
    table = store.session("Cup S1 T1")
    other = make(store, "Friday")
    assert store.session_table(table) == TableOf("Cup", 1, 1) and not TableOf("Cup", 1, 1).later_drawn
    assert store.session_table(other) is None and store.later_tables() == set()
    store.draw_series(store.tournament("Cup"), 2, [("Cup S2 T1", ("Anna", "Ben", "Carl"))], RULES, None)
    assert store.session_table(table) == TableOf("Cup", 1, 2) and TableOf("Cup", 1, 2).later_drawn
    assert store.session_table(store.session("Cup S2 T1")) == TableOf("Cup", 2, 2)
    assert store.later_tables() == {table.id}
    # the service refuses a round there, in its one open check, and writes nothing
    service = SessionService(store=store)
    version = store.version(table)
    with pytest.raises(GameOver) as over:
        service.record(table, RoundInput("Anna", {"Ben": Hand(points=5), "Carl": Hand(points=6)}))
    assert (over.value.tournament, over.value.series_drawn) == ("Cup", 2)
    assert service.state(table).finished and service.state(table).closed
    assert store.version(table) == version and store.round_count(table) == 0


def test_the_address_serve_printed_last_is_kept_issue_29(store: Store) -> None:
    assert store.served_address() is None
    store.set_served_address("http://192.168.1.20:8765")
    store.set_served_address("http://192.168.1.21:8765")  # the last one printed counts
    assert store.served_address() == "http://192.168.1.21:8765"
    assert store.current_name() is None and store.current_tournament() is None


REFUSALS: dict[str, Callable[[Store, SessionInfo], object]] = {
    "create a session of a name taken": lambda s, i: s.create_session("Fri", PLAYERS, RULES, None, None, 0),
    "rename onto a name taken": lambda s, i: s.rename_session("Other", "Fri"),
    "rename a session that is not there": lambda s, i: s.rename_session("Nope", "New"),
    "delete a session that is not there": lambda s, i: s.delete_session("Nope"),
    "make current a session that is not there": lambda s, i: s.set_current("Nope"),
    "undo in a session without rounds": lambda s, i: s.undo_last(s.session("Other")),
    "correct a round that is not there": lambda s, i: s.replace_rounds(
        i, 9, [RoundInput("Anna", {})], [score_round(i.players, {}, RoundInput("Anna", {}), RULES)], {9}
    ),
    "import over a session without overwrite": lambda s, i: s.write_session(
        "Fri", "", PLAYERS, RULES, None, None, 0, [], [], [], overwrite=False
    ),
}


def _fails_in_the_middle(store: Store, info: SessionInfo) -> object:
    """A round whose scoring fails inside the store's transaction."""

    def compute(before: dict[str, int], played: int) -> RoundScore:
        raise ValueError("refused halfway")

    return store.record_round(info, RoundInput("Anna", {}), compute)


REFUSALS["a write that fails halfway through"] = _fails_in_the_middle


def _saves_a_stale_round_in_progress(store: Store, info: SessionInfo) -> object:
    rnd = RoundInput("Anna", {"Ben": Hand(points=1), "Carl": Hand(points=2)})
    return store.record_round(info, rnd, lambda b, n: score_round(info.players, b, rnd, RULES), pending=99)


REFUSALS["save a round in progress that changed meanwhile"] = _saves_a_stale_round_in_progress


REFUSALS["create a tournament of a name taken"] = lambda s, i: make_tournament(s)
REFUSALS["draw a series drawn already"] = lambda s, i: s.draw_series(
    s.tournament("Cup"), 1, [("Cup S1 T9", PLAYERS)], TOURNAMENT_RULES, None
)
REFUSALS["draw a series with a session name taken"] = lambda s, i: s.draw_series(
    s.tournament("Cup"), 2, [("Cup S2 T1", PLAYERS), ("Fri", PLAYERS)], TOURNAMENT_RULES, None
)
REFUSALS["delete a session that is a tournament's table"] = lambda s, i: s.delete_session("Cup S1 T1")
REFUSALS["import over a session that is a tournament's table"] = lambda s, i: s.write_session(
    "Cup S1 T1", "", PLAYERS, RULES, None, None, 0, [], [], [], overwrite=True
)


@pytest.mark.parametrize("refusal", sorted(REFUSALS))
def test_every_refusal_leaves_the_database_unchanged(store: Store, refusal: str) -> None:
    cup = make_tournament(store)
    store.draw_series(cup, 1, [("Cup S1 T1", PLAYERS)], TOURNAMENT_RULES, "EUR")
    info = make(store)
    make(store, "Other")
    store.set_current("Fri")
    record(store, info, "Anna", Ben=10, Carl=5)
    store.add_note(info, 1, "kept")
    store.change_pending(info, PendingChange(winner="Ben", hands={"Carl": PendingHand("HK", None)}))
    store.add_links(info, [Link("board", None, "t-board")], replace=False)
    before = snapshot(store)
    with pytest.raises(ValueError):
        REFUSALS[refusal](store, info)
    assert snapshot(store) == before


# --- leagues (RULES.md §11) -------------------------------------------------------------------

LEAGUE_OPTIONS = {"points": [5, 3, 1], "best": 2, "attendance": 1, "tie_break": "most-wins"}


def make_league(store: Store, name: str = "Saison") -> Any:
    store.create_league(name, "2026", LEAGUE_OPTIONS, f"token-{name}")
    return store.league(name)


def test_a_league_keeps_its_season_options_events_and_aliases_rules_11(store: Store) -> None:
    with pytest.raises(NoSuchLeague):
        store.league("Saison")
    league = make_league(store)
    assert (league.name, league.season, league.options, league.token) == (
        "Saison",
        "2026",
        LEAGUE_OPTIONS,
        "token-Saison",
    )
    assert league.events == () and league.aliases == ()
    fri = make(store)
    sat = make(store, "Sat")
    cup = make_tournament(store)
    store.add_league_events(league, [("tournament", cup.id, "Cup"), ("session", sat.id, "Sat")])
    store.add_league_events(store.league("Saison"), [("session", fri.id, "Fri")])
    events = store.league("Saison").events
    assert [(e.position, e.kind, e.name) for e in events] == [
        (1, "tournament", "Cup"),
        (2, "session", "Sat"),
        (3, "session", "Fri"),
    ]
    assert events[0].created_at == cup.created_at and events[2].created_at == fri.created_at
    store.set_league_alias(store.league("Saison"), "Hansi", "Hans")
    store.set_league_alias(store.league("Saison"), "Ännchen", "Anna")
    store.set_league_alias(store.league("Saison"), "HANSI", "Johann")  # given again: the newer person
    assert store.league("Saison").aliases == (LeagueAlias("Ännchen", "Anna"), LeagueAlias("HANSI", "Johann"))
    store.remove_league_event(store.league("Saison"), "session", sat.id, "Sat")
    assert [e.name for e in store.league("Saison").events] == ["Cup", "Fri"]
    make_league(store, "Pokal")
    assert store.league_names() == ["Saison", "Pokal"]
    with pytest.raises(NoSuchLeague) as found:
        store.league("Saisn")
    assert found.value.close == "Saison"


def test_a_session_in_a_league_is_not_deleted_until_taken_out_issue_29(store: Store) -> None:
    fri = make(store)
    record(store, fri, "Anna", Ben=10, Carl=5)
    for name in ("Saison", "Pokal"):
        store.add_league_events(make_league(store, name), [("session", fri.id, "Fri")])
    before = snapshot(store)
    with pytest.raises(SessionInLeague) as kept:
        store.delete_session("Fri")
    assert (kept.value.session, kept.value.leagues) == ("Fri", ("Saison", "Pokal"))
    assert kept.value.code == "session-in-league" and kept.value.exit_code == 1
    assert snapshot(store) == before
    store.remove_league_event(store.league("Saison"), "session", fri.id, "Fri")
    with pytest.raises(SessionInLeague) as kept:
        store.delete_session("Fri")
    assert kept.value.leagues == ("Pokal",)
    store.remove_league_event(store.league("Pokal"), "session", fri.id, "Fri")
    store.delete_session("Fri")
    assert store.session_names() == [] and store.league("Pokal").events == ()


def test_a_session_replaced_by_an_import_keeps_its_place_in_its_leagues_issue_29(store: Store) -> None:
    fri = make(store)
    sat = make(store, "Sat")
    league = make_league(store)
    store.add_league_events(league, [("session", fri.id, "Fri"), ("session", sat.id, "Sat")])
    record(store, fri, "Anna", Ben=10, Carl=5)
    store.add_links(fri, [Link("board", None, "t-board")], replace=False)
    store.add_note(fri, 1, "counted twice")
    version = store.league_version(league)
    session_version = store.version(fri)
    rounds = [
        StoredRound(1, 1, "active", "Ben", False, False, "", None, None, {
            "Anna": HandRecord(None, 7, False, 7, 0, 3),
            "Ben": HandRecord(None, None, False, 0, 0, 30),
            "Carl": HandRecord(None, 9, False, 9, 0, 1),
        }),
    ]  # fmt: skip
    created = "2026-11-27T19:00:00+00:00"
    store.write_session("Fri", created, PLAYERS, RULES, "0.02", None, 2, rounds, [], [], overwrite=True)
    replaced = store.session("Fri")
    assert replaced.id == fri.id  # the same event of the league, not a new session
    assert (replaced.created_at, replaced.rate, replaced.currency, replaced.first_dealer) == (
        created,
        "0.02",
        None,
        2,
    )
    assert store.totals(replaced) == {"Anna": 7, "Ben": 0, "Carl": 9}
    assert [r.winner for r in store.rounds(replaced)] == ["Ben"] and store.history(replaced) == []
    assert store.notes(replaced) == [] and store.links(replaced) == []  # the file's session, whole
    events = store.league("Saison").events
    assert [(e.position, e.name, e.event_id, e.created_at) for e in events] == [
        (1, "Fri", fri.id, created),
        (2, "Sat", sat.id, sat.created_at),
    ]
    assert store.league_version(league) > version and store.version(replaced) > session_version


def test_the_league_version_changes_with_its_events_and_their_rounds_rules_11(
    store: Store, connect: Factory
) -> None:
    league = make_league(store)
    fri = make(store)
    seen = [store.league_version(league)]
    store.add_league_events(league, [("session", fri.id, "Fri")])
    seen.append(store.league_version(league))
    record(store, fri, "Anna", Ben=10, Carl=5)
    seen.append(store.league_version(league))
    with connect() as other:
        assert other.league_version(other.league("Saison")) == seen[-1]
        cup = make_tournament(other)
        other.add_league_events(other.league("Saison"), [("tournament", cup.id, "Cup")])
        other.draw_series(cup, 1, [("Cup S1 T1", PLAYERS)], TOURNAMENT_RULES, None)
    seen.append(store.league_version(league))
    table = store.session("Cup S1 T1")
    record(store, table, "Anna", Ben=1, Carl=2)
    seen.append(store.league_version(league))
    assert len(set(seen)) == len(seen), seen


LEAGUE_REFUSALS: dict[str, Callable[[Store, Any, SessionInfo], object]] = {
    "create a league of a name taken": lambda s, lg, i: s.create_league("Saison", None, {}, "x"),
    "add an event that is in the league": lambda s, lg, i: s.add_league_events(
        lg, [("session", s.session("Other").id, "Other"), ("session", i.id, "Fri")]
    ),
    "add an event twice at once": lambda s, lg, i: s.add_league_events(
        lg, [("session", s.session("Other").id, "Other"), ("session", s.session("Other").id, "Other")]
    ),
    "remove an event not in the league": lambda s, lg, i: s.remove_league_event(
        lg, "session", s.session("Other").id, "Other"
    ),
}


@pytest.mark.parametrize("refusal", sorted(LEAGUE_REFUSALS))
def test_every_league_refusal_leaves_the_database_unchanged_rules_11(store: Store, refusal: str) -> None:
    league = make_league(store)
    info = make(store)
    make(store, "Other")
    store.add_league_events(league, [("session", info.id, "Fri")])
    league = store.league("Saison")
    before = snapshot(store)
    with pytest.raises((LeagueExists, EventInLeague, EventNotInLeague)):
        LEAGUE_REFUSALS[refusal](store, league, info)
    assert snapshot(store) == before


def test_a_game_ended_by_agreement_is_kept_with_its_history_issue_36_item_5(store: Store) -> None:
    """``end_session`` marks the game ended (``SessionInfo.ended``, read by every lookup)
    and keeps each end and its taking back in the history; an import writes them whole."""
    from romme_score.store.records import Ending

    info = make(store)
    record(store, info, "Anna", Ben=10, Carl=20)
    version = store.version(info)
    ended = store.end_session(info, True, 1)
    assert ended.ended and ended.round == 1 and store.version(info) > version
    assert store.session(info.name).ended and store.session_by_id(info.id).ended
    store.end_session(store.session(info.name), False, 1)
    assert not store.session(info.name).ended
    assert [(e.ended, e.round) for e in store.endings(info)] == [(True, 1), (False, 1)]
    endings = [Ending(True, 0, "2026-01-09T20:00:00+00:00")]
    store.write_session("Copy", "", PLAYERS, RULES, None, None, 0, [], [], [], False, endings=endings)
    copy = store.session("Copy")
    assert copy.ended and store.endings(copy) == endings
    store.write_session("Copy", "", PLAYERS, RULES, None, None, 0, [], [], [], True)  # replaced: open again
    assert not store.session("Copy").ended and store.endings(store.session("Copy")) == []


def test_every_session_read_at_once_is_what_each_sessions_own_reads_give_issue_36_item_3(
    store: Store,
) -> None:
    """What the organiser's page reads of every session at once (one query each, however
    many there are) is what the reads of each session give: the session with its players,
    its links in their order, its totals and rounds played, the times it was last played
    or ended, and the tournament tables with their series."""
    cup = make_tournament(store)
    store.draw_series(cup, 1, [("Cup S1 T1", ("Dora", "Anna")), ("Cup S1 T2", ("Carl", "Ben"))], RULES, None)
    friday = make(store, "Fri")
    empty = make(store, "Empty", ("Eva", "Finn"))
    record(store, friday, "Anna", Ben=10, Carl=20)
    record(store, friday, "Ben", Anna=5, Carl=7)
    store.end_session(friday, True, 2)
    store.end_session(store.session("Fri"), False, 2)
    table = store.session("Cup S1 T2")
    record(store, table, "Carl", Ben=12)
    store.add_links(
        friday,
        [Link("seat", "Carl", "t-c"), Link("board", None, "t-b"), Link("seat", "Anna", "t-a")],
        replace=False,
    )
    store.add_links(table, [Link("scorekeeper", None, "t-k")], replace=False)
    infos = [store.session(name) for name in store.session_names()]
    assert store.every_session() == infos
    assert store.every_link(infos) == {i.id: store.links(i) for i in infos if store.links(i)}
    assert store.every_totals_played(infos) == {i.id: store.totals_played(i) for i in infos}
    assert store.every_totals_played([empty])[empty.id] == ({"Eva": 0, "Finn": 0}, 0)
    last = store.every_last_played()
    for info in infos:
        stamps = [r.recorded_at for r in store.rounds(info, last=1)] + [e.at for e in store.endings(info)]
        assert last.get(info.id, []) == stamps, info.name
    assert [tuple(t) for t in store.every_table()] == [
        ("Cup", 1, t.series, t.table, t.session_id) for t in store.tournament_tables(store.tournament("Cup"))
    ]
