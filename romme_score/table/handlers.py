"""What the table mode's words do (:mod:`romme_score.table.words`): each handler reads
the line's arguments, calls the session service, the referee or the solver, and prints
a view, as the ``romme`` command of the same name does, without the command line.

A handler reads the arguments and options it knows (:func:`read_args`); a line that
gives anything else is handed to the ``romme`` command of the same name (the handler
returns the line), so that every option the command line has keeps working in the
window, with the command line's own checks and usage errors.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterable, Sequence
from typing import NamedTuple, Protocol

import click

from romme_score.asking import ask_yes_no
from romme_score.cards import Card, NotationError, parse_cards
from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import _, shown
from romme_score.scoring import Hand
from romme_score.sessions import SessionInfo, SessionService
from romme_score.sessions import read_hands as read_round_hands
from romme_score.table.wrapped import unwrapped
from romme_score.views import play as views
from romme_score.views import session as session_views
from romme_score.views.output import Output

RunLine = Callable[[list[str], bool], int]  # a line's words, a person at the terminal -> exit code
# What a handler returns: an exit code, or the command line to run through the ``romme``
# group instead (the line as typed, or with something added: ``export``'s ``-o FILE``).
Outcome = int | list[str]
Handler = Callable[["Place", list[str]], Outcome]
SHOWN_ROUNDS = 30  # rounds ``standings`` shows unless --all (as ``romme standings``)
INTERNAL_ERROR = 70  # a bug of ours, as the command line says it


class TableHooks(Protocol):
    """What only a table at a terminal does (:class:`~romme_score.table.app.Table`)."""

    def record(self, first: str | None) -> None: ...

    def phones(self) -> None: ...

    def edit(self, number: int) -> None: ...

    def export_file(self, fmt: str) -> str: ...


class Said(Exception):
    """A sentence already worded, with its exit code (2 unreadable input, 1 refused)."""

    def __init__(self, text: str, code: int = 2) -> None:
        super().__init__(text)
        self.code = code


class Place:
    """Where a word runs: the service, the session played, how to print, whether a person
    answers at the terminal (``table``, with what only a terminal does), the function that
    runs a line as a ``romme`` command line, and the command line's way out of an error."""

    def __init__(
        self,
        service: SessionService,
        session: Callable[[], SessionInfo],
        out: Output,
        run_line: RunLine,
        table: TableHooks | None = None,
    ) -> None:
        self.service = service
        self._session = session
        self.out = out
        self.plain = Output("de", out.ascii, False)  # the commands that print no cards
        self.run_line = run_line
        self.table = table

    @property
    def terminal(self) -> bool:
        return self.table is not None

    @property
    def info(self) -> SessionInfo:
        return self._session()

    def hint(self, exc: BaseException, command: str) -> str:
        """The error's sentence with its way out, as the command line words it (``romme
        play`` hands the table its wording with the function that runs a line)."""
        words: Callable[[BaseException, str], str] | None = getattr(self.run_line, "hint", None)
        return words(exc, command) if words is not None else str(exc)

    def run(self, name: str, handler: Handler | None, args: list[str]) -> int:
        """Run a word: its handler, or the ``romme`` command of its name; the exit code."""
        outcome: Outcome = [name, *args] if handler is None else self._handle(name, handler, args)
        if isinstance(outcome, list):
            return self.run_line(outcome, self.terminal)
        return outcome

    def _handle(self, name: str, handler: Handler, args: list[str]) -> Outcome:
        try:
            return handler(self, args)
        except Said as exc:
            click.echo(views.error_line(str(exc)), err=True)
            return exc.code
        except (InputProblem, Refusal) as exc:
            click.echo(views.error_line(self.hint(exc, name)), err=True)
            return 2 if isinstance(exc, InputProblem) else 1
        except (KeyboardInterrupt, EOFError, BrokenPipeError):
            raise
        except Exception as exc:  # the last resort: a bug, said in one line
            click.echo(
                _("internal error: %(error)s — please report it") % {"error": f"{type(exc).__name__}: {exc}"},
                err=True,
            )
            return INTERNAL_ERROR


class Args(NamedTuple):
    """A line's arguments as a handler reads them: the positional ones, the flags given,
    and each option's values."""

    positional: list[str]
    flags: set[str]
    values: dict[str, list[str]]

    def value(self, option: str) -> str | None:
        given = self.values.get(option)
        return given[-1] if given else None


def read_args(
    args: Sequence[str],
    flags: Iterable[str] = (),
    values: Iterable[str] = (),
    names: dict[str, str] | None = None,
) -> Args | None:
    """The arguments, or None where the line gives anything else (an option not listed,
    ``--``, a word starting with ``-``): then the ``romme`` command reads it. ``names``
    maps a short option to its long one (``-y`` to ``--yes``).

    >>> read_args(["3", "--winner=Ben", "-y"], flags=["--yes"], values=["--winner"], names={"-y": "--yes"})
    Args(positional=['3'], flags={'--yes'}, values={'--winner': ['Ben']})
    >>> read_args(["HA", "--json"]) is None
    True
    """
    flag_set, value_set, short = set(flags), set(values), names or {}
    read = Args([], set(), {})
    at = 0
    while at < len(args):
        word = args[at]
        if not word.startswith("-"):
            read.positional.append(word)
            at += 1
            continue
        option, equals, given = word.partition("=")
        option = short.get(option, option)
        if option in flag_set and not equals:
            read.flags.add(option)
            at += 1
        elif option in value_set and equals:
            read.values.setdefault(option, []).append(given)
            at += 1
        elif option in value_set and at + 1 < len(args):
            read.values.setdefault(option, []).append(args[at + 1])
            at += 2
        else:
            return None
    return read


def _width() -> int:
    return shutil.get_terminal_size().columns


def read_cards(place: Place, text: str, what: str = "") -> list[Card]:
    """Cards from an argument; unreadable or none, an input error naming ``what``."""
    try:
        cards = parse_cards(text, place.out.profile)
    except NotationError as exc:
        raise Said(what + place.hint(exc, "check")) from None
    if not cards:
        raise Said(what + _("no cards given: type cards like HK K10 J"))
    return cards


# --- the referee --------------------------------------------------------------------------


def _rules_line(place: Place) -> None:
    """The line before a verdict: whose rules the referee judged under."""
    from romme_score.views.rules_from import preset_label, rules_from_line

    info = place.info
    click.echo(place.out.text(rules_from_line(info.name, preset_label(info.rules))))


def check(place: Place, args: list[str]) -> Outcome:
    """``check MELD ...``: each meld's verdict; at the terminal the words typed unquoted
    are one meld (``check HK KK PK``), as before."""
    from romme_score import referee
    from romme_score.views.referee import render_verdict

    read = read_args(args, flags=["--first", "--not-out"], values=["--onto"])
    if read is None or not read.positional or len(read.values.get("--onto", ())) > 1:
        return ["check", *args]
    melds = read.positional
    if place.terminal and len(melds) > 1 and not any(" " in m.strip() for m in melds):
        melds = [" ".join(melds)]
    onto, first, not_out = read.value("--onto"), "--first" in read.flags, "--not-out" in read.flags
    verdict = referee.judge_question(
        melds,
        onto,
        place.info.rules,
        lambda text, where: read_cards(place, text, where),
        first=first,
        not_out=not_out,
    )
    _rules_line(place)
    click.echo(place.out.text(render_verdict(verdict, place.out.profile, place.out.ascii)))
    if verdict.together is not None:  # a script's line, read as the shell reads it: as romme check says it
        from romme_score.views.referee import quote_as_one_meld

        click.echo(place.out.text(quote_as_one_meld(melds)))
    return 0 if verdict.valid else 1


def value(place: Place, args: list[str]) -> Outcome:
    """``value HAND``: the penalty points of the cards, under the session's rules."""
    from romme_score.melds import penalty_value
    from romme_score.views.value import render_value

    read = read_args(args)
    if read is None or not read.positional:
        return ["value", *args]
    cards = read_cards(place, " ".join(read.positional))
    rows = [(card, penalty_value(card, place.info.rules)) for card in cards]
    _rules_line(place)
    click.echo(place.out.text(render_value(rows, place.out.profile, place.out.ascii)))
    return 0


def best(place: Place, args: list[str]) -> Outcome:
    """``best HAND [--table MELD] [--came-out]``: the solver's best arrangement."""
    from romme_score.melds import IllegalMeldError, Meld, check_supply, interpret
    from romme_score.solver import solve
    from romme_score.views.best import render_best

    read = read_args(args, flags=["--came-out"], values=["--table"])
    if read is None or not read.positional:
        return ["best", *args]
    rules, came_out = place.info.rules, "--came-out" in read.flags
    cards = read_cards(place, " ".join(read.positional))
    table: list[Meld] = []
    for n, text in enumerate(read.values.get("--table", []), 1):
        table_cards = read_cards(place, text, f"--table {n}: ")
        try:
            table.append(interpret(table_cards, rules))
        except IllegalMeldError as exc:
            raise Said(
                _("--table %(number)d (%(text)s) is not a legal meld: %(reason)s")
                % {"number": n, "text": shown(text), "reason": exc}
            ) from None
    try:
        check_supply(cards + [c for m in table for c in m.cards], rules)
    except IllegalMeldError as exc:
        raise Said(_("the hand and table do not add up: %(reason)s") % {"reason": exc}) from None
    result = solve(cards, rules, table, came_out)
    _rules_line(place)
    click.echo(
        place.out.text(render_best(result, cards, table, rules, came_out, place.out.profile, place.out.ascii))
    )
    return 0


# --- the session --------------------------------------------------------------------------


def undo(place: Place, args: list[str]) -> Outcome:
    """``undo [--yes]``: take back the last round; at the terminal it asks first."""
    read = read_args(args, flags=["--yes"], names={"-y": "--yes"})
    if read is None or read.positional:
        return ["undo", *args]
    info = place.info
    rec = place.service.last_round(info)
    if "--yes" not in read.flags:
        if not place.terminal:  # nobody answers a script: only --yes confirms
            raise Said(
                _("romme undo asks before removing round %(number)d; without a terminal, give --yes")
                % {"number": rec.number},
                code=1,
            )
        summary = session_views.undo_summary(info.players, {p: h.points for p, h in rec.hands.items()})
        if not confirm(session_views.undo_question(rec.number, summary)):
            click.echo(place.plain.text(session_views.not_removed(rec.number)))
            return 0
    undone = place.service.undo(info)
    click.echo(place.plain.text(session_views.render_undone(undone, info.players)))
    return 0


def confirm(question: str) -> bool:
    """Ask the person at the terminal, default no (``[y/N]``, in German ``[j/N]``)."""
    return ask_yes_no(question)


def edit(place: Place, args: list[str]) -> Outcome:
    """``edit N`` alone at the terminal: round N in the round entry; ``edit N NAME=CARDS
    ... [--winner P] [--hand-romme/--no-hand-romme] [--stalemate/--no-stalemate]
    [--never-out P]``: the correction in one line."""
    flags = ["--hand-romme", "--no-hand-romme", "--stalemate", "--no-stalemate"]
    read = read_args(args, flags=flags, values=["--winner", "--never-out"])
    if read is None or not read.positional or not _round_number(read.positional[0]):
        return ["edit", *args]
    number = int(read.positional[0])
    if place.table is not None and len(args) == 1:
        with unwrapped():
            place.table.edit(number)
        return 0
    info = place.info
    hand_romme, stalemate = _switch(read.flags, "hand-romme"), _switch(read.flags, "stalemate")
    hands = read_hands(place, read.positional[1:], read.values.get("--never-out", []))
    winner = read.value("--winner")
    found = _chosen(winner, info.players, "--winner") if winner is not None else None
    edited = place.service.edit(info, number, hands, found, hand_romme, stalemate, confirm=True)
    click.echo(place.out.text(session_views.render_edited(edited, info.players, place.out.cards)))
    return 0


def _round_number(text: str) -> bool:
    return text.isdecimal() and len(text) <= 9


def _switch(flags: set[str], name: str) -> bool | None:
    """``--name`` / ``--no-name``: True, False, or None when neither (the last one counts
    on the command line; both on one line go to it)."""
    if f"--{name}" in flags and f"--no-{name}" in flags:
        raise _BothGiven
    return True if f"--{name}" in flags else False if f"--no-{name}" in flags else None


class _BothGiven(Exception):
    pass


def _chosen(text: str, players: Sequence[str], option: str) -> str:
    from romme_score.inputs import PlayerChoiceError, choose_player

    try:
        return choose_player(text, players)
    except PlayerChoiceError as exc:
        raise Said(f"{option}: {exc}") from None


def read_hands(place: Place, items: Sequence[str], never_out: Sequence[str]) -> dict[str, Hand]:
    """``NAME=CARDS`` / ``NAME=POINTS`` and ``--never-out`` marks, by player, as the service
    reads them for every door (points above what is likely kept, with a warning)."""
    info = place.info
    marked = {_chosen(n, info.players, "--never-out") for n in never_out}
    read = read_round_hands(info, items, marked, place.out.profile)
    for unlikely in read.unlikely:
        click.echo(
            session_views.unlikely_points_warning(unlikely.player, unlikely.points, unlikely.limit), err=True
        )
    return read.hands


def standings(place: Place, args: list[str]) -> Outcome:
    """``standings [--all]``: the scoresheet."""
    read = read_args(args, flags=["--all"])
    if read is None or read.positional:
        return ["standings", *args]
    shown_rounds = None if "--all" in read.flags else SHOWN_ROUNDS
    result = place.service.standings(place.info, last=shown_rounds)
    click.echo(place.plain.text(session_views.render_standings(result, _width())))
    return 0


def note(place: Place, args: list[str]) -> Outcome:
    """``note TEXT [--round N]``: a note in the session's history."""
    read = read_args(args, values=["--round"])
    about = read.value("--round") if read is not None else None
    if read is None or len(read.positional) != 1 or (about is not None and not _round_number(about)):
        return ["note", *args]
    info = place.info
    written = place.service.add_note(info, read.positional[0], int(about) if about is not None else None)
    click.echo(place.plain.text(session_views.noted(info.name, written.round)))
    return 0


def sessions(place: Place, args: list[str]) -> Outcome:
    """``sessions``: the sessions in the database (``rename``, ``delete``: the command's)."""
    if args:
        return ["sessions", *args]
    rows = place.service.overview()
    click.echo(place.plain.text(session_views.render_sessions(rows, _width())))
    return 0


def use(place: Place, args: list[str]) -> Outcome:
    """``use NAME``: make a session the current one (the table plays it from then on)."""
    read = read_args(args)
    if read is None or len(read.positional) != 1:
        return ["use", *args]
    place.service.use(read.positional[0])
    click.echo(place.plain.text(session_views.now_current(read.positional[0])))
    return 0


def new(place: Place, args: list[str]) -> Outcome:
    """``new NAME PLAYER ... [--until END] [--rate R] [--currency C] [--dealer P]``: a new
    game under the standard rules (with ``--preset``, ``--rule`` or ``--rules-file``: the
    command's, which reads every rule option)."""
    from romme_score.inputs import PlayerChoiceError, clean_currency, parse_rate
    from romme_score.rules import GameEnd, RuleError, build_rules

    read = read_args(args, values=["--until", "--rate", "--currency", "--dealer"])
    if read is None or len(read.positional) < 2 or any(len(v) > 1 for v in read.values.values()):
        return ["new", *args]
    rules = build_rules()
    until, rate, currency, dealer = (read.value(o) for o in ("--until", "--rate", "--currency", "--dealer"))
    if until is not None:
        try:
            rules = rules.replace(game_end=GameEnd.parse(until))
        except RuleError as exc:
            raise Said(f"--until: {exc}") from None
    rate_value = parse_rate(rate) if rate is not None else None
    currency = clean_currency(currency, "--currency") if currency is not None else None
    name, *players = read.positional
    try:
        info = place.service.create(name, players, rules, rate_value, currency, dealer)
    except PlayerChoiceError as exc:  # the only player typed here is the dealer
        raise Said(f"--dealer: {exc}") from None
    click.echo(place.plain.text(session_views.render_created(info)))
    return 0


def settle(place: Place, args: list[str]) -> Outcome:
    """``settle [--rate R] [--unit U] [--currency C]``: who pays whom for the session
    played, the service's one settlement (totals typed, ``--session``: the command's)."""
    from romme_score import settlement
    from romme_score.inputs import clean_currency, parse_rate, parse_unit
    from romme_score.views.settle import render_settlement

    read = read_args(args, values=["--rate", "--unit", "--currency"])
    if read is None or read.positional or any(len(v) > 1 for v in read.values.values()):
        return ["settle", *args]
    unit = parse_unit(read.value("--unit") or "0.01")
    rate_text, currency = read.value("--rate"), read.value("--currency")
    rate = parse_rate(rate_text) if rate_text is not None else None
    currency = clean_currency(currency, "--currency") if currency is not None else None
    try:
        settled = place.service.settle([place.info], rate=rate, unit=unit, currency=currency)
    except settlement.SettlementError as exc:
        raise Said(str(exc)) from None
    board, ascii = settled.leaderboard, place.plain.ascii
    text = render_settlement(settled.settlement, settled.currency, board, ascii, _width())
    click.echo(place.plain.text(text))
    return 0


def export(place: Place, args: list[str]) -> Outcome:
    """``export``: at the terminal without ``-o``, into a new file in this folder named
    after the session (the JSON on the table's screen helps nobody); the writing is the
    command's (``-o FILE``: whole or not at all)."""
    if place.table is not None and not _names_a_file(args):
        return ["export", *args, "-o", place.table.export_file(_given_format(args))]
    return ["export", *args]


def _names_a_file(words: Sequence[str]) -> bool:
    """Whether an ``export`` line says where to write (``-o FILE``, ``--output=FILE``), or
    asks for its help."""
    return any(w in ("-o", "--output", "--help") or w.startswith(("--output=", "-o")) for w in words)


def _given_format(words: Sequence[str]) -> str:
    """The ``--format`` an ``export`` line gives (json unless csv is asked for)."""
    for at, w in enumerate(words):
        if w == "--format" and at + 1 < len(words):
            return "csv" if words[at + 1] == "csv" else "json"
        if w.startswith("--format="):
            return "csv" if w.endswith("=csv") else "json"
    return "json"


def round_(place: Place, args: list[str]) -> Outcome:
    """``round`` alone at the terminal: the round entry; with arguments, or in a script,
    the command line's round (every option of it)."""
    if place.table is not None and not args:
        with unwrapped():
            place.table.record(None)
        return 0
    return ["round", *args]


def phones(place: Place, args: list[str]) -> Outcome:
    """``phones`` at the terminal: the round the phones sent, in the round entry."""
    if place.table is not None and not args:
        with unwrapped():
            place.table.phones()
        return 0
    return ["phones", *args]


def guarded(handler: Handler) -> Handler:
    """A handler whose line goes to the command where it gives ``--x`` and ``--no-x``."""

    def run(place: Place, args: list[str]) -> Outcome:
        try:
            return handler(place, args)
        except _BothGiven:
            return [handler.__name__, *args]

    return run
