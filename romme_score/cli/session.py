"""Session commands of ``romme``: new, round, undo, edit, standings, sessions, use, end,
export, import. Each parses its arguments, calls the session service and prints a view."""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from romme_score.cli import TranslatedGroup
from romme_score.cli.options import (
    FilePath,
    InputError,
    Output,
    complete_with,
    confirm,
    db_option,
    echo_chunks,
    fail_input,
    output_options,
    plain_output_options,
    rule_options,
    session_option,
)
from romme_score.cli.service import creating_service, open_service
from romme_score.cli.terminal import terminal_columns
from romme_score.i18n import N_, _, grouped, os_reason
from romme_score.inputs import PlayerChoiceError, choose_player, clean_currency, parse_rate
from romme_score.rules import GameEnd, RuleError, RuleSet
from romme_score.scoring import Hand, RoundError, RoundInput
from romme_score.store.errors import NoDatabase
from romme_score.views import session as views

if TYPE_CHECKING:  # the service and its hand reading load when a command runs, not for its --help
    from romme_score.sessions import Recorded, SessionInfo, SessionService

SHOWN_ROUNDS = 30  # rounds shown in the standings table unless --all


# --- parsing hands ----------------------------------------------------------------


def chosen(text: str, players: Sequence[str], option: str) -> str:
    """The player an option names, read as everywhere (:func:`~romme_score.inputs.choose_player`:
    a seat number, a name or its first letters); a mistake is the input layer's sentence
    after the option's name."""
    try:
        return choose_player(text, players)
    except PlayerChoiceError as exc:
        raise InputError(f"{option}: {exc}", exc.code) from None


def parse_hands(
    items: Sequence[str], info: SessionInfo, never_out: Sequence[str], out: Output
) -> dict[str, Hand]:
    """``NAME=CARDS`` / ``NAME=POINTS`` arguments, and ``--never-out`` marks, by player, as
    the service reads them (:func:`~romme_score.sessions.read_hands`); unlikely points are
    kept with a warning on stderr (nobody is asked: a script must not wait)."""
    from romme_score.sessions.hands import read_hands  # a command that reads hands only

    marked = {chosen(n, info.players, "--never-out") for n in never_out}
    read = read_hands(info, items, marked, out.profile)
    for unlikely in read.unlikely:
        click.echo(views.unlikely_points_warning(unlikely.player, unlikely.points, unlikely.limit), err=True)
    return read.hands


# --- commands ---------------------------------------------------------------------


@click.command()
@click.argument("name")
@click.argument("players", nargs=-1, required=True)
@click.option(
    "--until",
    metavar="END",
    help="When the game ends: 500, 1000, any number of points, rounds:N, "
    "or open (default: the rules' game_end).",
)
@click.option("--rate", metavar="AMOUNT", help="Money per penalty point for the settlement, e.g. 0.01.")
@click.option("--currency", metavar="CODE", help="Currency code, e.g. EUR.")
@click.option(
    "--dealer",
    metavar="PLAYER",
    shell_complete=complete_with("players"),
    help="Who deals the first round (default: the first).",
)
@rule_options
@db_option
@plain_output_options
def new(
    name: str,
    players: tuple[str, ...],
    until: str | None,
    rate: str | None,
    currency: str | None,
    dealer: str | None,
    rules: RuleSet,
    db: str | None,
    out: Output,
) -> None:
    """Start a session (a game) and make it current.

    Players are given in seating order, the order in which the deal passes.
    The session keeps the full rule set it was created with.

    \b
    Examples:
      romme new Friday Anna Ben Carl Dora
      romme new Club --preset wiki-51 --until 1000 --rate 0.01 Anna Ben Carl
      romme new Quick --until rounds:5 --dealer Ben Anna Ben
    """
    if until is not None:
        try:
            rules = rules.replace(game_end=GameEnd.parse(until))
        except RuleError as exc:
            fail_input(f"--until: {exc}")
    rate_value = parse_rate(rate, "--rate") if rate is not None else None
    currency = clean_currency(currency, "--currency") if currency is not None else None
    with creating_service(db) as service:
        try:
            info = service.create(name, players, rules, rate_value, currency, dealer)
        except PlayerChoiceError as exc:  # the only player typed here is the dealer
            fail_input(f"--dealer: {exc}")
    if out.json:
        out.dump(views.created_json(info, rules))
    else:
        out.echo(views.render_created(info))


@click.command("round")
@click.argument("hands", nargs=-1, shell_complete=complete_with("hands"))
@click.option("--winner", metavar="PLAYER", shell_complete=complete_with("players"), help="Who went out.")
@click.option("--hand-romme", is_flag=True, help="The winner went out with a Hand-Rommé.")
@click.option("--stalemate", is_flag=True, help="The stock ran out: the round ends without a winner.")
@click.option(
    "--never-out",
    multiple=True,
    metavar="PLAYER",
    shell_complete=complete_with("players"),
    help="This player never came out this round (for never_out_doubles; repeatable).",
)
@click.option(
    "--interactive",
    "-i",
    is_flag=True,
    help="Ask for the round step by step (the default on a terminal without hands).",
)
@click.option("--yes", "-y", is_flag=True, help="Save without asking (interactive mode).")
@session_option
@db_option
@output_options
def round_(
    hands: tuple[str, ...],
    winner: str | None,
    hand_romme: bool,
    stalemate: bool,
    never_out: tuple[str, ...],
    interactive: bool,
    yes: bool,
    session: str | None,
    db: str | None,
    out: Output,
) -> None:
    """Record one round: the cards each player had left, in card notation.

    Give each other player as NAME="CARDS", or NAME=POINTS when the table
    counted by hand. Cards for the winner only where call_out_max ('Rommé mit 10')
    or color_romme ('Farbenrommé') lets a player end the round holding cards: they
    are checked against that rule, shown for control, and never counted.

    A player (NAME, --winner, --never-out) is a name, its first letters or a
    seat number (1 for the first), in any case, as in the table mode.

    \b
    Examples:
      romme round --winner Anna Ben="HK K10 J" Carl="P7 P8" Dora=23
      romme round --winner Ben --hand-romme Anna="TA T2" Carl=0 Dora="J J"
      romme round --stalemate Anna=12 Ben=30 Carl="HK" Dora=5
      romme round                     (on a terminal: asks step by step)
    """
    ask = interactive or (not hands and winner is None and not stalemate and sys.stdin.isatty())
    with open_service(db) as service:
        if ask:  # asked step by step: nothing is held while a person types
            info = service.session(session)
            asked = _ask_round(service, info, out, yes)
            if asked is None:  # discarded or the input ended: a refused action (exit code 1)
                out.echo(_(views.NOT_SAVED))
                click.get_current_context().exit(1)
            rnd, revision = asked  # the round in progress it was asked as, cleared with it
            recorded = service.record(info, rnd, pending=revision, confirm=True)
        else:

            def typed() -> Recorded:
                info = service.session(session)
                service.check_open(info)  # a finished game takes no hand, whatever is typed
                parsed = parse_hands(hands, info, never_out, out)
                found = chosen(winner, info.players, "--winner") if winner is not None else None
                rnd = RoundInput(found, parsed, hand_romme, stalemate)
                return service.record(info, rnd, confirm=True)  # warned while parsed

            # the lookup, the checks and the write one transaction (issue 28)
            recorded = service.one_transaction(typed)
    if recorded.next_in_progress:
        click.echo(views.in_progress_moves_on(recorded.number + 1), err=True)
    if out.json:
        out.dump(views.recorded_json(recorded))
    else:
        out.echo(views.render_recorded(recorded, out.cards))


def _ask_round(
    service: SessionService, info: SessionInfo, out: Output, yes: bool
) -> tuple[RoundInput, int] | None:
    """The table mode's round entry, run once (issue 9 item 7); None when discarded."""
    from romme_score.table.front import ask_round  # prompt_toolkit only when asking

    service.check_open(info)
    return ask_round(service, info, out, confirm=not yes)


@click.command()
@click.option("--yes", "-y", is_flag=True, help="Do not ask.")
@session_option
@db_option
@plain_output_options
def undo(yes: bool, session: str | None, db: str | None, out: Output) -> None:
    """Remove the last round (kept in the history).

    \b
    Examples:
      romme undo
      romme undo --yes --session Friday
    """
    with open_service(db) as service:
        info = service.session(session)
        rec = service.last_round(info)
        if not yes:
            summary = views.undo_summary(info.players, {p: h.points for p, h in rec.hands.items()})
            refusal = _(
                "romme undo asks before removing round %(number)d; without a terminal, give --yes"
            ) % {"number": rec.number}
            if not confirm(views.undo_question(rec.number, summary), refusal):
                out.echo(views.not_removed(rec.number))
                return
        undone = service.undo(info)
    if out.json:
        out.dump(views.undone_json(undone))
    else:
        out.echo(views.render_undone(undone, info.players))


@click.command()
@click.argument("round_number", metavar="ROUND", type=int)
@click.argument("hands", nargs=-1, shell_complete=complete_with("hands"))
@click.option(
    "--winner", metavar="PLAYER", shell_complete=complete_with("players"), help="Change who went out."
)
@click.option("--hand-romme/--no-hand-romme", default=None, help="Change the Hand-Rommé mark.")
@click.option("--stalemate/--no-stalemate", default=None, help="Change the stalemate mark.")
@click.option(
    "--never-out",
    multiple=True,
    metavar="PLAYER",
    shell_complete=complete_with("players"),
    help="Mark a player as never out in this round (repeatable).",
)
@session_option
@db_option
@output_options
def edit(
    round_number: int,
    hands: tuple[str, ...],
    winner: str | None,
    hand_romme: bool | None,
    stalemate: bool | None,
    never_out: tuple[str, ...],
    session: str | None,
    db: str | None,
    out: Output,
) -> None:
    """Correct a recorded round; every later total is recomputed.

    Only what is given changes. The old version stays in the history.

    \b
    Examples:
      romme edit 3 Ben="HK K10"
      romme edit 3 --winner Carl Anna="P7 P8"
      romme edit 5 --no-hand-romme
    """
    with open_service(db) as service:
        info = service.session(session)
        changed = parse_hands(hands, info, never_out, out)
        new_winner = chosen(winner, info.players, "--winner") if winner is not None else None
        edited = service.edit(info, round_number, changed, new_winner, hand_romme, stalemate, confirm=True)
    if out.json:
        out.dump(views.edited_json(edited))
    else:
        out.echo(views.render_edited(edited, info.players, out.cards))


@click.command()
@click.option("--all", "show_all", is_flag=True, help="Show every round (default: the last 30).")
@session_option
@db_option
@plain_output_options
def standings(show_all: bool, session: str | None, db: str | None, out: Output) -> None:
    """The scoresheet: points per round and player, totals, who deals next.

    \b
    Examples:
      romme standings
      romme standings --session Friday --json
    """
    with open_service(db) as service:
        info = service.session(session)
        if out.json:  # every round, streamed while the database is open
            rounds = views.rounds_json(
                info.players, service.points_lines(info), lambda: service.round_rows(info)
            )
            out.dump(views.standings_with_corrections_json(service.standings(info, last=0), rounds))
            return
        result = service.standings(info, last=None if show_all else SHOWN_ROUNDS)
    out.echo(views.render_standings(result, terminal_columns()))


@click.group(cls=TranslatedGroup, invoke_without_command=True)
@db_option
@plain_output_options
@click.pass_context
def sessions(ctx: click.Context, db: str | None, out: Output) -> None:
    """List the sessions: players, rounds, date, finished; rename or delete one.

    \b
    Examples:
      romme sessions
      romme sessions rename Friday "Friday 28 Nov"
      romme sessions delete Test --yes
    """
    ctx.obj = db
    if ctx.invoked_subcommand is not None:
        return
    try:
        with open_service(db) as service:
            rows = service.overview()
    except NoDatabase:  # nothing to list, and nothing created
        rows = []
    if out.json:
        out.dump(views.sessions_json(rows))
    else:
        out.echo(views.render_sessions(rows, terminal_columns()))


# What Python's json module says of a file it cannot read, in the language in use; any
# other of its sentences as it says it.
JSON_REASONS = {
    "Expecting value": N_("a value is expected"),
    "Expecting property name enclosed in double quotes": N_("a name in double quotes is expected"),
    "Expecting ':' delimiter": N_("a ':' is expected"),
    "Expecting ',' delimiter": N_("a ',' is expected"),
    "Unterminated string starting at": N_("a text in quotes is not closed"),
    "Invalid control character at": N_("a control character stands in a text"),
    "Invalid \\escape": N_("a backslash escape is not valid"),
    "Invalid \\uXXXX escape": N_("a \\u escape is not valid"),
    "Extra data": N_("more follows after the end of the data"),
}


def json_reason(message: str) -> str:
    """``json``'s reason (``Expecting value``) in the language in use."""
    worded = JSON_REASONS.get(message)
    return _(worded) if worded is not None else message


def sessions_db(ctx: click.Context, db: str | None) -> str | None:
    """The database of ``romme sessions ... rename|delete``: the subcommand's own ``--db``
    when typed, else the group's (``romme sessions --db X rename``), else ROMME_DB."""
    from click.core import ParameterSource

    if db is not None and ctx.get_parameter_source("db") is ParameterSource.COMMANDLINE:
        return db
    return ctx.obj if ctx.obj is not None else db


@sessions.command()
@click.argument("old", shell_complete=complete_with("sessions"))
@click.argument("new")
@db_option
@click.pass_context
def rename(ctx: click.Context, old: str, new: str, db: str | None) -> None:
    """Rename a session; the old name stays in its history.

    \b
    Example:
      romme sessions rename Friday "Friday 28 Nov"
    """
    with open_service(sessions_db(ctx, db)) as service:
        name = service.rename(old, new)
    click.echo(views.renamed(old, name))


@sessions.command()
@click.argument("name", shell_complete=complete_with("sessions"))
@click.option("--yes", "-y", is_flag=True, help="Do not ask.")
@db_option
@click.pass_context
def delete(ctx: click.Context, name: str, yes: bool, db: str | None) -> None:
    """Delete a session with all its rounds, history and notes (asks first).

    \b
    Example:
      romme sessions delete Test --yes
    """
    with open_service(sessions_db(ctx, db)) as service:
        info = service.session(name)
        if not yes:
            service.check_delete(info.name)  # refused before the question, not after its answer
            refusal = _(
                "romme sessions delete asks before deleting '%(session)s'; without a terminal, give --yes"
            ) % {"session": info.name}
            if not confirm(views.delete_question(info.name), refusal):
                click.echo(views.not_deleted(info.name))
                return
        service.delete(info.name)
    click.echo(views.deleted(info.name))


@click.command()
@click.argument("text")
@click.option(
    "--round",
    "round_number",
    type=int,
    metavar="N",
    help="The round the note is about (default: the whole game).",
)
@session_option
@db_option
@plain_output_options
def note(text: str, round_number: int | None, session: str | None, db: str | None, out: Output) -> None:
    """Write a note into the session's history (shown by standings and kept by export).

    \b
    Examples:
      romme note "Ben dealt 11 cards, redealt"
      romme note "counted twice, agreed on 35" --round 3
    """
    with open_service(db) as service:
        info = service.session(session)
        written = service.add_note(info, text, round_number)
    if out.json:
        out.dump({"session": info.name, "round": written.round, "text": written.text, "at": written.at})
    else:
        out.echo(views.noted(info.name, written.round))


@click.command()
@click.option("--reopen", is_flag=True, help="Take back the end by agreement: the game goes on.")
@session_option
@db_option
@plain_output_options
def end(reopen: bool, session: str | None, db: str | None, out: Output) -> None:
    """End the game by agreement where it stands, before its rules end it.

    The game is then finished everywhere: standings, the phones, the report, the
    league; a round after it is refused until --reopen takes the end back. A game
    without a round may be ended too.

    \b
    Examples:
      romme end
      romme end --session Friday
      romme end --reopen
    """
    with open_service(db) as service:
        result = service.end(session, reopen)
    if out.json:
        out.dump(views.ended_json(result))
    else:
        out.echo(views.ended(result))


@click.command()
@click.argument("name", shell_complete=complete_with("sessions"))
@db_option
@plain_output_options
def use(name: str, db: str | None, out: Output) -> None:
    """Make a session the current one.

    \b
    Example:
      romme use Friday
    """
    with open_service(db) as service:
        service.use(name)
    out.echo(views.now_current(name))


@click.command()
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json", show_default=True)
@click.option(
    "-o",
    "--output",
    type=FilePath(dir_okay=False, path_type=Path),
    help="Write to this file (default: standard output).",
)
@session_option
@db_option
def export(fmt: str, output: Path | None, session: str | None, db: str | None) -> None:
    """Export a session: JSON (complete, for 'romme import') or CSV (a scoresheet).

    \b
    Examples:
      romme export -o friday.json
      romme export --format csv --session Friday -o friday.csv
    """
    from romme_score import export as export_format

    with open_service(db) as service, service.export(service.session(session)) as data:
        # written inside the block: every round, the history and the notes from one read
        chunks = export_format.json_chunks(data) if fmt == "json" else export_format.csv_chunks(data)
        if output is None:
            from romme_score.cli.terminal import fit_json

            echo_chunks(chunks, fit=fit_json if fmt == "json" else None)
            return
        from romme_score.cli.files import write_output  # export -o only, not at every start

        write_output(output, chunks)
    click.echo(views.exported(data.name, str(output)))


@click.command("import")
@click.argument("file", type=FilePath(dir_okay=False, path_type=Path, allow_dash=True))
@click.option("--name", metavar="NAME", help="Import under this session name.")
@click.option("--replace", is_flag=True, help="Overwrite a session of the same name.")
@click.option("--use", "make_current", is_flag=True, help="Make the imported session the current one.")
@db_option
@plain_output_options
def import_(
    file: Path, name: str | None, replace: bool, make_current: bool, db: str | None, out: Output
) -> None:
    """Import a session exported as JSON; checks everything before writing anything.

    The current session stays current unless --use is given (or none is current).

    \b
    Examples:
      romme import friday.json
      romme import friday.json --name Friday-copy
      romme import friday.json --replace --use
    """
    if str(file) == "-":
        from romme_score.cli.inside import refuse_script_input

        refuse_script_input("import -")

    from romme_score.export import ExportError, SessionExport

    try:
        data_bytes = sys.stdin.buffer.read() if str(file) == "-" else file.read_bytes()
        text = data_bytes.decode("utf-8")
    except OSError as exc:
        fail_input(_("cannot read %(path)s: %(reason)s") % {"path": file, "reason": os_reason(exc)})
    except UnicodeDecodeError:
        fail_input(_("%(path)s is not a text file") % {"path": file})
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as exc:
        fail_input(
            _("%(path)s is not valid JSON: %(reason)s at line %(line)d")
            % {"path": file, "reason": json_reason(exc.msg), "line": exc.lineno}
        )
    except RecursionError:
        fail_input(_("%(path)s is nested too deeply to be a romme-score export") % {"path": file})
    except ValueError:  # a number longer than Python reads (json gives no JSONDecodeError)
        fail_input(
            _("%(path)s holds a number of more than %(digits)s digits, more than any field takes")
            % {"path": file, "digits": grouped(sys.get_int_max_str_digits())}
        )
    try:
        data = SessionExport.from_json(loaded)
    except ExportError as exc:
        fail_input(f"{file}: {exc}")
    with creating_service(db) as service:
        try:
            sname, count = service.import_(data, name, replace, make_current)
        except RoundError as exc:  # a round that does not add up under the export's rules
            fail_input(f"{file}: {exc}")
        current = service.current_name()
    out.echo(views.imported(sname, count, current))
