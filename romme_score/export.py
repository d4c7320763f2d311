"""The session export, ``romme export`` and ``romme import``: the one module that owns
the format (a JSON document, version 2, and the CSV scoresheet).

It reads an export (:meth:`SessionExport.from_json`, every field validated, one sentence
for the first thing wrong) and writes one (:func:`json_chunks`, :func:`csv_chunks`),
streamed, so that a session of 100,000 rounds needs no more memory than one of ten. The
fast path is this module's private detail: the store hands over each round as a line with
every seat's hand side by side, records with named fields
(:func:`~romme_score.store.records.round_line_type`), and one %-template per kind of line
writes it; the text is byte for byte what :meth:`ExportRound.to_json` and ``json.dumps``
would give.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from decimal import Decimal
from json.encoder import encode_basestring as json_text
from operator import itemgetter
from typing import TYPE_CHECKING, Any, NamedTuple

from romme_score.cards import NotationError, parse_cards
from romme_score.errors import InputProblem
from romme_score.i18n import _, grouped, shown
from romme_score.inputs import (
    MAX_POINTS,
    InputValueError,
    clean_currency,
    clean_name,
    clean_names,
    clean_note,
    clean_time,
    parse_rate,
)
from romme_score.rules import RuleError, RuleSet
from romme_score.scoring import Hand, RoundInput, RoundScore, places, unknown_player_message
from romme_score.store.records import Ending, HandRecord, Lines, Note, Rename, SessionInfo, StoredRound
from romme_score.stream import RawJSON, stream_json

if TYPE_CHECKING:  # a type only: no Protocol class built at start-up
    from romme_score.store.protocol import Store


class ExportError(InputProblem):
    """A session export that cannot be imported: one sentence saying what is wrong."""


EXPORT_FORMAT = "romme-score session"
# 2: the history, notes, renames and every time; version 1 is still read. 3: a game ended
# by agreement (``endings``, issue 36 item 5), written only by an export that has one, so
# that every other export stays version 2, read by the versions before; they refuse a 3
# with their sentence rather than import an ended game as one that goes on.
EXPORT_VERSION = 3
PLAIN_VERSION = 2  # an export without endings
READ_VERSIONS = (1, 2, 3)
STATUSES = ("active", "undone", "replaced")
# A round's number or row in an export, and a note's round: far beyond any evening, and
# within what SQLite stores (a whole number of 64 bits).
MAX_ROW = 10**9


class ExportHand(NamedTuple):
    """A hand as exported: the cards (canonical de letters) or points typed, never-out mark."""

    cards: str | None = None
    points: int | None = None
    never_out: bool = False

    def to_hand(self) -> Hand:
        cards = tuple(parse_cards(self.cards)) if self.cards is not None else None
        return Hand(cards, self.points, self.never_out)


class ExportRound(NamedTuple):
    """A round row as exported: what the table reported, what it scored, when, and (for
    the history) how it was taken back or replaced."""

    row: int
    number: int
    winner: str | None
    hand_romme: bool
    stalemate: bool
    hands: dict[str, ExportHand]
    points: dict[str, int] = {}
    bonus: dict[str, int] = {}
    leaderboard: dict[str, int] = {}  # in tenths; exported as 7.7
    recorded_at: str = ""
    status: str = "active"
    changed_at: str | None = None
    replaced_by: int | None = None

    def to_input(self) -> RoundInput:
        return RoundInput(
            self.winner, {p: h.to_hand() for p, h in self.hands.items()}, self.hand_romme, self.stalemate
        )

    def to_json(self) -> dict[str, Any]:
        hands: dict[str, Any] = {}
        for p, h in self.hands.items():
            entry: dict[str, Any] = {}
            if h.cards is not None:
                entry["cards"] = h.cards
            if h.points is not None:
                entry["points"] = h.points
            if h.never_out:
                entry["never_out"] = True
            hands[p] = entry
        data: dict[str, Any] = {"row": self.row, "number": self.number}
        if self.status != "active":
            data.update(
                {"status": self.status, "changed_at": self.changed_at, "replaced_by": self.replaced_by}
            )
        data.update(
            {
                "winner": self.winner,
                "hand_romme": self.hand_romme,
                "stalemate": self.stalemate,
                "recorded_at": self.recorded_at,
                "hands": hands,
                "points": dict(self.points),
                "bonus": dict(self.bonus),
                "leaderboard": {p: v / 10 for p, v in self.leaderboard.items()},  # tenths: exact text
            }
        )
        return data

    @classmethod
    def from_stored(cls, rec: StoredRound) -> ExportRound:
        hands = {
            p: ExportHand(h.cards, h.typed_points, h.never_out)
            for p, h in rec.hands.items()
            if h.cards is not None or h.typed_points is not None or h.never_out
        }
        return cls(
            rec.row,
            rec.number,
            rec.winner,
            rec.hand_romme,
            rec.stalemate,
            hands,
            {p: h.points for p, h in rec.hands.items()},
            {p: h.bonus for p, h in rec.hands.items() if h.bonus},
            {p: h.leaderboard for p, h in rec.hands.items() if h.leaderboard is not None},
            rec.recorded_at,
            rec.status,
            rec.changed_at,
            rec.replaced_by,
        )

    def to_stored(self, players: Sequence[str]) -> StoredRound:
        hands = {}
        for p in players:
            h = self.hands.get(p, ExportHand())
            hands[p] = HandRecord(
                h.cards,
                h.points,
                h.never_out,
                self.points.get(p, 0),
                self.bonus.get(p, 0),
                self.leaderboard.get(p),
            )
        return StoredRound(
            self.row,
            self.number,
            self.status,
            self.winner,
            self.hand_romme,
            self.stalemate,
            self.recorded_at,
            self.changed_at,
            self.replaced_by,
            hands,
        )


class SessionExport(NamedTuple):
    """A whole session, as written by ``romme export`` and read by ``romme import``:
    rules, players in seating order, the first dealer, every round with its time, the
    corrections history, notes and renames. ``rounds`` and ``history`` may be iterators
    (a long session streams out); :meth:`from_json` gives tuples."""

    name: str
    players: tuple[str, ...]
    rules: RuleSet
    rate: str | None
    currency: str | None
    first_dealer: str
    created: str
    rounds: Iterable[ExportRound]
    history: Iterable[ExportRound] = ()
    notes: tuple[Note, ...] = ()
    renames: tuple[Rename, ...] = ()
    endings: tuple[Ending, ...] = ()  # ended by agreement and taken back, in order
    # The same rounds as the store lines them up, for the fast path; None where only the
    # objects above are (an export read from a file).
    lines: _StoreLines | None = None

    def header(self) -> dict[str, Any]:
        """Everything but the rounds, history, notes and renames, in the export's key order."""
        return {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION if self.endings else PLAIN_VERSION,
            "name": self.name,
            "players": list(self.players),
            "rules": self.rules.to_dict(),
            "rate": self.rate,
            "currency": self.currency,
            "first_dealer": self.first_dealer,
            "created": self.created,
        }

    def to_json(self) -> dict[str, Any]:
        """The whole export as one dict (consumes ``rounds`` and ``history``)."""
        return {
            **self.header(),
            "rounds": [r.to_json() for r in self.rounds],
            "history": [r.to_json() for r in self.history],
            "notes": [{"round": n.round, "text": n.text, "at": n.at} for n in self.notes],
            "renames": [{"from": r.old, "to": r.new, "at": r.at} for r in self.renames],
            **_endings_json(self.endings),
        }

    @classmethod
    def from_json(cls, data: Any) -> SessionExport:
        """Validate an exported session completely; raise :class:`ExportError` with one sentence."""
        if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
            raise ExportError(
                _('this is not a romme-score session export (no "format": "%(format)s")')
                % {"format": EXPORT_FORMAT}
            )
        version = data.get("version")
        if version not in READ_VERSIONS or isinstance(version, bool):
            raise ExportError(
                _(
                    "export version %(version)s is not supported "
                    "(this romme-score reads versions 1 to %(latest)d)"
                )
                % {"version": shown(version), "latest": EXPORT_VERSION}
            )
        name = data.get("name")
        players = data.get("players")
        if not isinstance(name, str):
            raise ExportError(_("the export's session name must be text"))
        try:
            name = clean_name(name, _("the export's session name"))
            if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
                raise ExportError(_("the export's players must be a list of names"))
            players = clean_names(players, _("player name"))
        except InputValueError as exc:
            raise ExportError(str(exc)) from None
        rules_data = data.get("rules") or {}
        if not isinstance(rules_data, dict):
            raise ExportError(_("the export's rules must be an object of option names and values"))
        try:
            rules = RuleSet.from_dict(rules_data)
        except (RuleError, TypeError) as exc:
            raise ExportError(_("the export's rules: %(reason)s") % {"reason": exc}) from None
        if not 2 <= len(players) <= rules.max_players:
            raise ExportError(
                _("%(count)d players do not fit max_players=%(max)d")
                % {"count": len(players), "max": rules.max_players}
            )
        rate = data.get("rate")
        if rate is not None:
            if isinstance(rate, bool) or not isinstance(rate, (str, int, float)):
                raise ExportError(_("the export's rate %(rate)s is not a decimal") % {"rate": shown(rate)})
            try:
                rate = str(parse_rate(str(rate), _("the export's rate")))
            except InputValueError as exc:
                raise ExportError(str(exc)) from None
        dealer = data.get("first_dealer", players[0])
        if not isinstance(dealer, str) or dealer not in players:
            raise ExportError(
                _("the export's first dealer %(dealer)s is not a player") % {"dealer": shown(dealer)}
            )
        currency = data.get("currency")
        if currency is not None:
            if not isinstance(currency, str):
                raise ExportError(
                    _("the export's currency %(currency)s is not a currency code")
                    % {"currency": shown(currency)}
                )
            currency = _checked(clean_currency, currency, _("the export's currency"))
        created = _time(data.get("created") or "", _("the export's creation time"))
        rounds = tuple(
            _export_round(i, r, players, history=False) for i, r in enumerate(_list(data, "rounds"), 1)
        )
        history = tuple(
            _export_round(i, r, players, history=True) for i, r in enumerate(_list(data, "history"), 1)
        )
        if version == 1:  # rows in the order of the rounds, as version 1 had no history
            rounds = tuple(r._replace(row=i) for i, r in enumerate(rounds, 1))
        _check_rows(rounds, history)
        notes = tuple(_note(i, n) for i, n in enumerate(_list(data, "notes"), 1))
        renames = tuple(_rename(i, r) for i, r in enumerate(_list(data, "renames"), 1))
        endings = tuple(_ending(i, e) for i, e in enumerate(_list(data, "endings"), 1))
        return cls(
            name,
            tuple(players),
            rules,
            rate,
            currency,
            dealer,
            created,
            rounds,
            history,
            notes,
            renames,
            endings,
        )


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key) or []
    if not isinstance(value, list):
        raise ExportError(_("the export's %(key)s must be a list") % {"key": key})
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise ExportError(_("%(what)s %(value)s is not text") % {"what": what, "value": shown(value)})
    return value


def _checked(clean: Callable[[str, str], str], value: str, what: str) -> str:
    """``value`` as the input layer's ``clean`` takes it, the rules of the same field on
    every path in; its sentence as the export's error."""
    try:
        return clean(value, what)
    except InputValueError as exc:
        raise ExportError(str(exc)) from None


def _time(value: Any, what: str) -> str:
    return _checked(clean_time, _text(value, what), what)


def _is_whole(value: Any, lo: int, hi: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and lo <= value <= hi


def _whole(value: Any, where: str, key: str) -> int:
    """A round's number or row: a whole number from 1 to :data:`MAX_ROW`."""
    if not _is_whole(value, 1, MAX_ROW):
        raise ExportError(
            _("%(where)s: %(key)s must be a whole number from 1 to %(max)s")
            % {"where": where, "key": key, "max": grouped(MAX_ROW)}
        )
    return int(value)


def _int_map(value: Any, players: Sequence[str], what: str, lo: int, hi: int) -> dict[str, int]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ExportError(_("%(what)s must be an object of player names and numbers") % {"what": what})
    for p, v in value.items():
        if p not in players:
            raise ExportError(f"{what}: {unknown_player_message(p, players)}")
        if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
            raise ExportError(
                _("%(what)s, %(player)s: %(value)s is not a whole number from %(lo)d to %(hi)d")
                % {"what": what, "player": p, "value": shown(v), "lo": lo, "hi": hi}
            )
    return dict(value)


def _tenths_map(value: Any, players: Sequence[str], what: str, hi: int) -> dict[str, int]:
    """003's leaderboard points by player, as exported: numbers with at most one decimal
    (whole numbers before version 7 of the store kept them rounded down), in tenths."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise ExportError(_("%(what)s must be an object of player names and numbers") % {"what": what})
    found = {}
    for p, v in value.items():
        if p not in players:
            raise ExportError(f"{what}: {unknown_player_message(p, players)}")
        tenths = None
        if isinstance(v, int | float) and not isinstance(v, bool) and 0 <= v <= hi:
            exact = Decimal(repr(v)) * 10  # the number as written (json reads 7.7 as that float)
            if exact == exact.to_integral_value():
                tenths = int(exact)
        if tenths is None:
            raise ExportError(
                _("%(what)s, %(player)s: %(value)s is not a number from 0 to %(hi)d with at most one decimal")
                % {"what": what, "player": p, "value": shown(v), "hi": hi}
            )
        found[p] = tenths
    return found


def _export_round(i: int, r: Any, players: Sequence[str], history: bool) -> ExportRound:
    where = (_("history entry %(number)d") if history else _("round %(number)d")) % {"number": i}
    if not isinstance(r, dict):
        raise ExportError(_("%(where)s of the export is not an object") % {"where": where})
    number = r.get("number", i)
    row = r.get("row", i)
    for key, value in (("number", number), ("row", row)):
        _whole(value, where, key)
    if not history and number != i:
        raise ExportError(
            _("%(where)s has the number %(number)s: rounds are numbered 1, 2, 3 ...")
            % {"where": where, "number": number}
        )
    winner = r.get("winner")
    if winner is not None and (not isinstance(winner, str) or winner not in players):
        raise ExportError(
            _("%(where)s: the winner %(winner)s is not a player") % {"where": where, "winner": shown(winner)}
        )
    for key in ("hand_romme", "stalemate"):
        if not isinstance(r.get(key, False), bool):
            raise ExportError(_("%(where)s: %(key)s must be true or false") % {"where": where, "key": key})
    hands_data = r.get("hands") or {}
    if not isinstance(hands_data, dict):
        raise ExportError(_("%(where)s: hands must be an object of player names") % {"where": where})
    hands: dict[str, ExportHand] = {}
    for p, h in hands_data.items():
        if p not in players:
            raise ExportError(f"{where}: {unknown_player_message(p, players)}")
        if not isinstance(h, dict):
            raise ExportError(
                _("%(where)s: the hand of %(player)s is not an object") % {"where": where, "player": p}
            )
        cards = None
        if h.get("cards") is not None:
            if not isinstance(h["cards"], str):
                raise ExportError(
                    _("%(where)s, %(player)s: cards must be text in card notation")
                    % {"where": where, "player": p}
                )
            try:
                cards = " ".join(c.format("de", ascii=True) for c in parse_cards(h["cards"]))
            except NotationError as exc:
                raise ExportError(f"{where}, {p}: {exc}") from None
        points = h.get("points")
        if points is not None and (
            not isinstance(points, int) or isinstance(points, bool) or not 0 <= points <= MAX_POINTS
        ):
            raise ExportError(
                _("%(where)s, %(player)s: points must be a whole number from 0 to %(max)d")
                % {"where": where, "player": p, "max": MAX_POINTS}
            )
        never_out = h.get("never_out", False)
        if not isinstance(never_out, bool):
            raise ExportError(
                _("%(where)s, %(player)s: never_out must be true or false") % {"where": where, "player": p}
            )
        hands[p] = ExportHand(cards, points, never_out)
    big = 10**9
    scored = _int_map(r.get("points"), players, f"{where}: points", 0, big)
    bonus = _int_map(r.get("bonus"), players, f"{where}: bonus", 0, big)
    board = _tenths_map(r.get("leaderboard"), players, f"{where}: leaderboard", big)
    recorded_at = _time(r.get("recorded_at") or "", f"{where}: recorded_at")
    status, changed_at, replaced_by = "active", None, None
    if history:
        given = r.get("status")
        if given not in ("undone", "replaced"):
            raise ExportError(
                _("%(where)s: status must be undone or replaced, not %(given)s")
                % {"where": where, "given": shown(given)}
            )
        status = str(given)
        changed_at = _time(r.get("changed_at") or "", f"{where}: changed_at") or None
        replaced_by = r.get("replaced_by")
        if replaced_by is not None:
            _whole(replaced_by, where, "replaced_by")
    return ExportRound(
        row,
        number,
        winner,
        r.get("hand_romme", False),
        r.get("stalemate", False),
        hands,
        scored,
        bonus,
        board,
        recorded_at,
        status,
        changed_at,
        replaced_by,
    )


def _check_rows(rounds: Sequence[ExportRound], history: Sequence[ExportRound]) -> None:
    rows = [r.row for r in (*rounds, *history)]
    if len(set(rows)) != len(rows):
        raise ExportError(_("the export names a round row twice"))
    known = set(rows)
    for r in history:
        if r.replaced_by is not None and (r.replaced_by not in known or r.replaced_by <= r.row):
            raise ExportError(
                _("history row %(row)d is replaced by row %(by)d, which is not a later round of the export")
                % {"row": r.row, "by": r.replaced_by}
            )


def _note(i: int, n: Any) -> Note:
    if not isinstance(n, dict):
        raise ExportError(_("note %(number)d of the export is not an object") % {"number": i})
    round_number = n.get("round")
    if round_number is not None and not _is_whole(round_number, 1, MAX_ROW):
        raise ExportError(
            _("note %(number)d: round must be a whole number from 1 to %(max)s, or null")
            % {"number": i, "max": grouped(MAX_ROW)}
        )
    text = _text(n.get("text"), f"note {i}: the text")
    try:
        text = clean_note(text, _("the text"))
    except InputValueError as exc:
        raise ExportError(f"note {i}: {exc}") from None
    return Note(round_number, text, _time(n.get("at") or "", f"note {i}: at"))


def _rename(i: int, r: Any) -> Rename:
    if not isinstance(r, dict):
        raise ExportError(_("rename %(number)d of the export is not an object") % {"number": i})
    return Rename(
        _checked(clean_name, _text(r.get("from"), f"rename {i}: from"), f"rename {i}: from"),
        _checked(clean_name, _text(r.get("to"), f"rename {i}: to"), f"rename {i}: to"),
        _time(r.get("at") or "", f"rename {i}: at"),
    )


def _ending(i: int, e: Any) -> Ending:
    """An end by agreement (``"ended": true``) or its taking back, with the rounds played then."""
    if not isinstance(e, dict) or not isinstance(e.get("ended"), bool):
        raise ExportError(
            _('ending %(number)d of the export is not an object with "ended": true or false') % {"number": i}
        )
    played: Any = e.get("round")
    if not _is_whole(played, 0, MAX_ROW):
        raise ExportError(
            _("ending %(number)d: round must be a whole number from 0 to %(max)s")
            % {"number": i, "max": grouped(MAX_ROW)}
        )
    return Ending(e["ended"], played, _time(e.get("at") or "", f"ending {i}: at"))


def _endings_json(endings: Sequence[Ending]) -> dict[str, Any]:
    """The ``endings`` key of an export that has any (version 3); none in version 2."""
    if not endings:
        return {}
    return {"endings": [{"ended": e.ended, "round": e.round, "at": e.at} for e in endings]}


def check_points(rnd: ExportRound, score: RoundScore, players: Sequence[str]) -> None:
    """Refuse an imported round whose points are not what its cards and the rules give
    (a round written without points, by hand, is scored and taken as it is)."""
    if not rnd.points:
        return
    for p in players:
        for what, got, want in (
            (_("points"), rnd.points.get(p), score.points[p]),
            (_("bonus"), rnd.bonus.get(p, 0), score.bonus.get(p, 0)),
        ):
            if got is not None and got != want:
                raise ExportError(
                    _(
                        "round %(number)d, %(player)s: the export says %(got)d "
                        "%(what)s, but the hand and the rules give %(want)d (a "
                        "difference of %(diff)+d); nothing was imported"
                    )
                    % {
                        "number": rnd.number,
                        "player": p,
                        "got": got,
                        "what": what,
                        "want": want,
                        "diff": got - want,
                    }
                )


# --- reading the store ---------------------------------------------------------------


class _StoreLines(NamedTuple):
    """A session's rounds as the store lines them up, in batches whose fields are named
    (:func:`~romme_score.store.records.round_line_fields` and
    :func:`~romme_score.store.records.scoresheet_line_fields`)."""

    rounds: Iterable[Lines]
    history: Iterable[Lines]
    scoresheet: Iterable[Lines]


def from_store(store: Store, info: SessionInfo) -> SessionExport:
    """Everything the store knows of a session; rounds and history stream, read when
    consumed (the store must stay open until then), as objects or, for the writers, as
    the store's lines (the same rounds, a few times faster)."""
    rounds = (ExportRound.from_stored(r) for r in store.all_rounds(info, active=True))
    history = (ExportRound.from_stored(r) for r in store.all_rounds(info, active=False))
    active_lines = store.round_lines(info, active=True)
    history_lines = store.round_lines(info, active=False)
    lines = None
    if active_lines is not None and history_lines is not None:
        lines = _StoreLines(active_lines, history_lines, store.scoresheet_lines(info))
    return SessionExport(
        info.name,
        info.players,
        info.rules,
        info.rate,
        info.currency,
        info.players[info.first_dealer],
        info.created_at,
        rounds,
        history,
        tuple(store.notes(info)),
        tuple(store.renames(info)),
        tuple(store.endings(info)),
        lines,
    )


# --- writing -------------------------------------------------------------------------


def json_chunks(export: SessionExport) -> Iterator[str]:
    """``romme export`` as JSON, streamed: memory stays the same however long the session.
    The text is what ``json.dumps(export.to_json(), indent=2)`` gives, plus a newline; from
    the store's lines each round's line is made by :class:`_RoundLines`, else by
    :meth:`ExportRound.to_json`."""
    if export.lines is not None:
        rounds: Iterator[Any] = _RoundLines(export.players).batches(export.lines.rounds)
        history: Iterator[Any] = _RoundLines(export.players, history=True).batches(export.lines.history)
    else:
        rounds = (r.to_json() for r in export.rounds)
        history = (r.to_json() for r in export.history)
    whole = {
        **export.header(),
        "rounds": rounds,
        "history": history,
        "notes": iter([{"round": n.round, "text": n.text, "at": n.at} for n in export.notes]),
        "renames": iter([{"from": r.old, "to": r.new, "at": r.at} for r in export.renames]),
        **_endings_json(export.endings),
    }
    yield from stream_json(whole, indent=2)
    yield "\n"


_TRUE = ("false", "true")
# What JSON escapes (with the newlines between a batch's lines): a batch whose text holds
# no more of these than its templates write themselves holds its values as they are.
_JSON_SPECIAL = bytes([*range(32), ord('"'), ord("\\")])
# What CSV quotes: the same check for the scoresheet's lines.
_CSV_SPECIAL = b',"\r\n'


class _Template(NamedTuple):
    text: str  # %-template of one round's line
    pick: Callable[[Sequence[Any]], tuple[Any, ...]]  # its values, from a line
    texts: tuple[int, ...]  # the line's places of text values (cards, winner, time)
    special: int  # how many of _JSON_SPECIAL the template writes itself


class _RoundLines:
    """Export lines of the store's round lines: the text ``ExportRound.to_json`` would give,
    dumped compact, without building a dict per round.

    Lines of one ``kind`` have the same keys (a bonus here, typed points there): for each
    kind a %-template is made from its first line, with the players' names escaped once,
    and kept. A batch of rounds is first written with its texts as they are, which is
    right when the batch holds no quote, backslash or control character but the templates'
    own (cards never do); else that batch is written again with each text escaped."""

    CACHE = 4096  # kinds kept; a session has a handful, so memory stays flat

    def __init__(self, players: Sequence[str], history: bool = False) -> None:
        self.keys = [_pct(json_text(p)) + ": " for p in players]
        self.history = history
        self.templates: dict[Any, _Template] = {}
        self.at: dict[str, int] = {}  # a field's place in the lines, by its name

    def template(self, line: Sequence[Any]) -> _Template:
        """The template of the lines of this one's kind."""
        at = self.at
        head = '{"row": %d, "number": %d, '
        picks = [at["row"], at["number"]]
        if self.history:
            head += '"status": %s, "changed_at": %s, "replaced_by": %s, '
            picks += [at["status"], at["changed_at"], at["replaced_by"]]
        texts = [at["recorded_at"]]
        if line[at["winner"]] is None:
            head += '"winner": null, '
        else:
            head += '"winner": "%s", '
            picks.append(at["winner"])
            texts.append(at["winner"])
        hand_romme, stalemate = _TRUE[bool(line[at["hand_romme"]])], _TRUE[bool(line[at["stalemate"]])]
        head += f'"hand_romme": {hand_romme}, "stalemate": {stalemate}, "recorded_at": "%s", '
        picks.append(at["recorded_at"])
        parts: dict[str, list[str]] = {"hands": [], "points": [], "bonus": [], "leaderboard": []}
        places: dict[str, list[int]] = {name: [] for name in parts}
        for seat, key in enumerate(self.keys):
            if line[at[f"points_{seat}"]] is None:  # no hand of this player
                continue
            cards, typed = at[f"cards_{seat}"], at[f"typed_points_{seat}"]
            entry = []
            if line[cards] is not None:
                entry.append('"cards": "%s"')
                places["hands"].append(cards)
                texts.append(cards)
            if line[typed] is not None:
                entry.append('"points": %d')
                places["hands"].append(typed)
            if line[at[f"never_out_{seat}"]]:
                entry.append('"never_out": true')
            if entry:
                parts["hands"].append(key + "{" + ", ".join(entry) + "}")
            parts["points"].append(key + "%d")
            places["points"].append(at[f"points_{seat}"])
            if line[at[f"bonus_{seat}"]]:
                parts["bonus"].append(key + "%d")
                places["bonus"].append(at[f"bonus_{seat}"])
            if line[at[f"leaderboard_{seat}"]] is not None:  # tenths, written 7.7
                parts["leaderboard"].append(key + "%d.%d")
                places["leaderboard"].append(at[f"leaderboard_{seat}"])
        text = head + ", ".join(f'"{name}": {{{", ".join(items)}}}' for name, items in parts.items()) + "}"
        for name in ("hands", "points", "bonus"):
            picks += places[name]
        pick: Callable[[Sequence[Any]], tuple[Any, ...]] = itemgetter(*picks)
        if places["leaderboard"]:
            pick = _with_tenths(pick, tuple(places["leaderboard"]))
        return _Template(
            text,
            pick,
            tuple(texts),
            len(text) - len(text.encode().translate(None, _JSON_SPECIAL)),
        )

    def batches(self, batches: Iterable[Lines]) -> Iterator[RawJSON]:
        """Each batch of lines as the text of its rounds, joined as a streamed list joins
        its items (so that the batch stands where one item would)."""
        templates = self.templates
        kind = -1
        for batch in batches:
            rows = batch.rows
            if not rows:
                continue
            if kind < 0:
                self.at = batch.places()
                kind = self.at["kind"]
            text = None
            if not self.history:
                lines = []
                special = len(rows) - 1  # the newlines between the lines
                for row in rows:
                    found = templates.get(row[kind]) or self.add(row[kind], row)
                    lines.append(found[0] % found[1](row))
                    special += found[3]
                text = ",\n    ".join(lines)
                data = text.encode()
                if len(data) - len(data.translate(None, _JSON_SPECIAL)) != special:
                    text = None
            if text is None:
                text = ",\n    ".join(
                    [self.escaped(templates.get(row[kind]) or self.add(row[kind], row), row) for row in rows]
                )
            yield RawJSON(text)

    def add(self, kind: Any, line: Sequence[Any]) -> _Template:
        """Make and keep the template of a kind not seen yet, from one of its lines."""
        if len(self.templates) >= self.CACHE:
            self.templates.clear()
        made = self.templates[kind] = self.template(line)
        return made

    def escaped(self, template: _Template, row: Sequence[Any]) -> str:
        """One round's line with each text escaped (the history's, and a batch with texts
        that JSON escapes)."""
        values = list(row)
        for column in template.texts:
            values[column] = json_text(values[column])[1:-1]
        if self.history:
            status, changed, by = self.at["status"], self.at["changed_at"], self.at["replaced_by"]
            values[status] = json_text(values[status])
            values[changed] = "null" if values[changed] is None else json_text(values[changed])
            values[by] = "null" if values[by] is None else str(values[by])
        return template.text % template.pick(values)


def _with_tenths(
    pick: Callable[[Sequence[Any]], tuple[Any, ...]], columns: tuple[int, ...]
) -> Callable[[Sequence[Any]], tuple[Any, ...]]:
    """``pick``'s values, then each of the columns (tenths) as its whole part and its tenth."""

    def picked(line: Sequence[Any]) -> tuple[Any, ...]:
        return pick(line) + tuple(part for c in columns for part in divmod(line[c], 10))

    return picked


def _pct(text: str) -> str:
    """Text to stand as it is in a %-template."""
    return text.replace("%", "%%")


class _Sink:
    """A file-like sink for csv.writer that keeps what was written since the last take."""

    def __init__(self) -> None:
        self.parts: list[str] = []

    def write(self, text: str) -> int:
        self.parts.append(text)
        return len(text)

    def take(self) -> str:
        text = "".join(self.parts)
        self.parts.clear()
        return text


def csv_chunks(export: SessionExport) -> Iterator[str]:
    """The scoresheet as CSV, streamed: per round its winner, marks, points and cards per
    player, who dealt and when; then the totals and places. From the store's lines a batch
    of rounds is written by one template, checked as :class:`_RoundLines` checks its
    batches: a field that CSV quotes sends the batch to the csv writer."""
    sink = _Sink()
    import csv  # only --format csv writes it

    writer = csv.writer(sink)
    players = export.players
    seats = len(players)
    first = players.index(export.first_dealer)
    writer.writerow(
        [
            "round",
            "winner",
            "hand_romme",
            "stalemate",
            *players,
            *(f"{p} cards" for p in players),
            "dealer",
            "time",
        ]
    )
    yield sink.take()
    totals = dict.fromkeys(players, 0)
    if export.lines is not None:
        plain = not any(set(p) & set(',"\r\n') for p in players)
        lines: list[str] = []
        number = time = 0
        nets: list[int] = []
        for batch in export.lines.scoresheet:
            rows = batch.rows
            if not rows:
                continue
            if not lines:
                # The fields by name, in the CSV's order (the dealer before the time), and one
                # template per dealer: round n is dealt by the seat n-1 after the first dealer.
                at = batch.places()
                number, time = at["number"], at["recorded_at"]
                nets = [at[f"net_{seat}"] for seat in range(seats)]
                order = [at["number"], at["winner"], at["hand_romme"], at["stalemate"], *nets]
                order += [at[f"cards_{seat}"] for seat in range(seats)]
                # lines already in that order are written as they are
                pick = (
                    (lambda row: row) if [*order, time] == list(range(len(at))) else itemgetter(*order, time)
                )
                lines = [
                    f"%d,%s,%d,%d,{'%d,' * seats}{'%s,' * seats}{_pct(dealer)},%s\r\n" for dealer in players
                ]
                special = lines[0].count(",") + 2  # and the line's end, \r\n
            text = ""
            if plain:
                text = "".join([lines[(first + row[number] - 1) % seats] % pick(row) for row in rows])
                data = text.encode()
                if len(data) - len(data.translate(None, _CSV_SPECIAL)) != special * len(rows):
                    text = ""
            if not text:
                writer.writerows(
                    [(*pick(row)[:-1], players[(first + row[number] - 1) % seats], row[time]) for row in rows]
                )
                text = sink.take()
            columns = list(zip(*rows, strict=True))
            for seat, p in enumerate(players):
                totals[p] += sum(columns[nets[seat]])
            yield text
    else:
        for r in export.rounds:
            for p in players:
                totals[p] += r.points.get(p, 0) - r.bonus.get(p, 0)
            hands = [r.hands.get(p) for p in players]
            writer.writerow(
                [
                    r.number,
                    r.winner or "",
                    int(r.hand_romme),
                    int(r.stalemate),
                    *(r.points.get(p, 0) - r.bonus.get(p, 0) for p in players),
                    *((h.cards or "") if h is not None else "" for h in hands),
                    players[(first + r.number - 1) % seats],
                    r.recorded_at,
                ]
            )
            yield sink.take()
    writer.writerow(["total", "", "", "", *(totals[p] for p in players)])
    ranks = places(totals)
    writer.writerow(["place", "", "", "", *(ranks[p] for p in players)])
    yield sink.take()
