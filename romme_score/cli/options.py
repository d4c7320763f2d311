"""What every command shares: the error classes of the edge, how to print (``Output``),
the option decorators, and reading cards from arguments (numbers and rates are read
in :mod:`romme_score.cli.service`, which only the commands that need them import).

Domain errors become one sentence with exit code 2 (input that cannot be read)
or 1 (a negative verdict or a refused action); nothing is written then.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any, NoReturn, TypeVar, cast

import click

from romme_score import i18n
from romme_score.cards import Card, NotationError, Profile, parse_cards
from romme_score.cli.asking import ask_yes_no
from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import N_, _, os_reason
from romme_score.inputs import clean_text
from romme_score.rules import RuleError, RuleSet, build_rules
from romme_score.views import output as views_output

F = TypeVar("F", bound=Callable[..., Any])


def complete_with(kind: str) -> Callable[[click.Context, click.Parameter, str], list[Any]]:
    """The shell completer ``kind`` of :mod:`romme_score.cli.complete` (``"sessions"``,
    ``"players"``, ...), imported only when a shell asks: no command pays for it."""

    def complete(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[Any]:
        from romme_score.cli.complete import COMPLETERS

        found: list[Any] = COMPLETERS[kind](ctx, param, incomplete)
        return found

    return complete


class EdgeError(click.ClickException):
    """A sentence for the person at the command line, shown ("Error: ...") in the language
    it was worded in: a ``--json`` run words its errors in English, and the line stays
    of one language when the run's own language comes back before Click shows it."""

    def __init__(
        self, message: str, code: str = "usage", error: InputProblem | Refusal | None = None
    ) -> None:
        super().__init__(message)
        self.language = i18n.language()
        self.code = code  # the domain error's code (romme_score.errors), "usage" for the line's own
        self.error = error  # the domain error it words (its facts), None for the line's own

    def show(self, file: IO[Any] | None = None) -> None:
        with i18n.using_language(self.language):
            super().show(file)


# The web's codes of a refusal that is no domain error (the line's own, Click's), by its
# exit code: as the phones' JSON answers an error of that kind (romme_score/web/errors.py).
CODE_OF_KIND = {2: "bad-input", 1: "refused"}


class JsonRefusal(click.ClickException):
    """A refusal of a ``--json`` run (issue 36 item 3), shown as one line of JSON on
    standard error instead of the sentence, exit code as the sentence's:
    ``{"error": {"code", "message", ...facts}}``. The ``code`` and facts are the ones the
    phones' JSON answers for the same error (:func:`romme_score.web.errors.classify`), the
    ``message`` the command line's sentence with its way out."""

    def __init__(self, refusal: click.ClickException) -> None:
        super().__init__(refusal.format_message())
        setattr(self, "exit_code", refusal.exit_code)  # noqa: B010  (a ClassVar of Click's, this one's own)
        self.refusal = refusal

    def error_json(self) -> dict[str, Any]:
        error = getattr(self.refusal, "error", None)
        if error is not None:
            from romme_score.web.errors import classify  # the phones' codes; no web stack needed

            _status, code, facts = classify(error)
        else:
            code, facts = CODE_OF_KIND.get(self.exit_code, "refused"), {}
        return {"error": {**facts, "code": code, "message": self.format_message()}}

    def show(self, file: IO[Any] | None = None) -> None:
        import json  # only a refused --json run needs it

        click.echo(json.dumps(self.error_json(), ensure_ascii=False), err=True)


def json_refusal(exc: click.ClickException) -> click.ClickException:
    """``exc`` as a ``--json`` run shows it (once)."""
    return exc if isinstance(exc, JsonRefusal) else JsonRefusal(exc)


def wants_json(args: Sequence[str]) -> bool:
    """Whether the line asks for JSON (``--json``, ``--format json``) before ``--``.

    >>> wants_json(["round", "--json", "X=1"]), wants_json(["standings", "--format", "json"])
    (True, True)
    >>> wants_json(["note", "--", "--json"]), wants_json(["standings"])
    (False, False)
    """
    for i, arg in enumerate(args):
        if arg == "--":
            return False
        if arg in ("--json", "--format=json") or (arg == "--format" and args[i + 1 : i + 2] == ["json"]):
            return True
    return False


class InputError(EdgeError):
    """Input that cannot be read: one sentence on stderr, exit code 2, nothing written."""

    exit_code = 2


class Refused(EdgeError):
    """A negative verdict or a refused action: exit code 1."""

    exit_code = 1


def edge_error(exc: InputProblem | Refusal, command: str | None = None) -> EdgeError:
    """A domain error as the command line shows it, with the command line's way out
    (:mod:`romme_score.cli.hints`): unreadable input (exit code 2) or a refusal (exit code 1)."""
    from romme_score.cli.hints import with_hint  # only an error needs it (start-up)

    text = with_hint(exc, command)
    kind = InputError if exc.exit_code == InputError.exit_code else Refused
    return kind(text, exc.code, exc)


def fail_input(message: str) -> NoReturn:
    raise InputError(message)


def stdin_is_terminal() -> bool:
    """Whether a person at a terminal types what the command reads."""
    return sys.stdin.isatty()


def confirm(question: str, refusal: str) -> bool:
    """Ask the person at the terminal (default no): ``[y/N]``, in German ``[j/N]``, taking
    y, yes, j, ja and n, no, nein in either language; Enter, Ctrl-C or Ctrl-D is no. Without
    a terminal (a pipe, a script, a line of ``romme play`` read from a file) nobody is
    there to answer, and a ``y`` read from the pipe is no answer: refused with
    ``refusal``, so that only ``--yes`` confirms. Every question of the program asks here."""
    if not stdin_is_terminal():
        raise Refused(refusal)
    return ask_yes_no(question)


class FilePath(click.Path):
    """A file path option or argument; a NUL character (which no file system takes) is
    refused as unreadable input instead of failing deep inside ``open``. Its name (the
    ``FILE`` of the help, the ``File '...'`` of Click's errors) is worded when shown:
    ``click.Path`` words it once, when the command's module is imported, in the language
    of that first run."""

    @property
    def name(self) -> str:
        if self.file_okay and not self.dir_okay:
            return i18n.click_gettext("file")
        if self.dir_okay and not self.file_okay:
            return i18n.click_gettext("directory")
        return i18n.click_gettext("path")

    @name.setter
    def name(self, worded: str) -> None:
        """Click's own wording at construction, not kept."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and "\x00" in value:
            self.fail(
                _("%(value)s holds a NUL character, which no file name can hold")
                % {"value": i18n.shown(value)},
                param,
                ctx,
            )
        if isinstance(value, str):
            try:  # any bytes of a command line make a file name, but half a surrogate pair none
                os.fsencode(value)
            except UnicodeError:
                self.fail(
                    _("%(value)s holds what no file name can hold (half of a surrogate pair)")
                    % {"value": i18n.shown(value)},
                    param,
                    ctx,
                )
        return super().convert(value, param, ctx)


# What a command's text argument holds, for a message about it (an option is named by
# its flag: "--winner is not valid text ...").
ARGUMENT_FIELDS = {
    "text": N_("the note"),
    "name": N_("the session's name"),
    "session": N_("the session's name"),
    "old": N_("the session's name"),
    "new": N_("the new name"),
    "players": N_("a player's name"),
    "hands": N_("a hand"),
    "hand": N_("the hand"),
    "melds": N_("a meld"),
    "totals": N_("a total"),
    "preset_name": N_("the preset's name"),
}


class Text(click.types.StringParamType):
    """Text from the command line, as Python decoded it: refused, naming the field, where it
    holds bytes that the locale's encoding could not decode (Python keeps them as lone
    surrogates, which are no text and which SQLite cannot store). Every text option and
    argument of every command has this type (:func:`text_params`). What it gives is composed
    (NFC, :func:`~romme_score.inputs.nfc`): an umlaut typed decomposed is the same name."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> str:
        text = super().convert(value, param, ctx)
        if not (ctx is not None and ctx.resilient_parsing):
            try:
                return clean_text(text, field_name(param))  # composed (NFC): Jörg however typed
            except InputProblem as exc:
                raise InputError(str(exc)) from None
        return text

    def __repr__(self) -> str:
        return "TEXT"


TEXT = Text()


def field_name(param: click.Parameter | None) -> str:
    """How a message names what a parameter holds: an option by its flag, an argument by
    what it is (``the note``)."""
    if isinstance(param, click.Option):
        return max(param.opts, key=len)
    if param is not None and param.name in ARGUMENT_FIELDS:
        return _(ARGUMENT_FIELDS[param.name])
    return param.human_readable_name if param is not None else _("the text")


def text_params(command: click.Command) -> click.Command:
    """Give every plain text parameter of ``command`` (and of its subcommands) the type
    :class:`Text`; done once, when the command's module is loaded."""
    for param in command.params:
        if param.type is click.STRING:
            param.type = TEXT
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            text_params(sub)
    return command


class Output(views_output.Output):
    """How to print (:class:`romme_score.views.output.Output`), and printing it."""

    __slots__ = ()

    def __init__(self, profile: Profile, ascii: bool, json: bool) -> None:
        super().__init__(profile, ascii, json)

    def echo(self, text: str = "") -> None:
        click.echo(self.text(text))

    def dump(self, data: Any) -> None:
        """JSON: indented for a person at a terminal, compact (and much faster) for scripts;
        lists given as iterators stream, so a long session needs no more memory."""
        from romme_score.cli.terminal import fit_json
        from romme_score.stream import stream_json  # only JSON output pays for it

        indent = 2 if sys.stdout.isatty() else None
        echo_chunks(stream_json(data, indent), fit=fit_json)
        click.echo()


def echo_chunks(chunks: Iterable[str], size: int = 1 << 16, fit: Callable[[str], str] | None = None) -> None:
    """Print text given in pieces, some 64 KiB at a time: memory stays flat. ``fit`` makes
    each piece fit the terminal's encoding in its format's own terms (JSON's escapes:
    :func:`~romme_score.cli.terminal.fit_json`); else what the terminal cannot show is
    replaced as in every other line."""
    buffer: list[str] = []
    held = 0
    for chunk in chunks:
        buffer.append(chunk)
        held += len(chunk)
        if held >= size:
            text = "".join(buffer)
            click.echo(fit(text) if fit else text, nl=False)
            buffer, held = [], 0
    if buffer:
        text = "".join(buffer)
        click.echo(fit(text) if fit else text, nl=False)


def _terminal_can_show_symbols() -> bool:
    encoding = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "♣♠♥♦".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def output_options(func: F) -> F:
    """``--notation``, ``--ascii`` and ``--json``: for the commands that read or print cards."""

    @click.option(
        "--notation",
        type=click.Choice(["de", "en"]),
        default="de",
        show_default=True,
        envvar="ROMME_NOTATION",
        help="How letters are read: de = suit letter first (HK, K10, J joker); "
        "en = rank first (KH, 10D, JK joker).",
    )
    @click.option(
        "--ascii",
        "ascii_",
        is_flag=True,
        help="Print plain ASCII: cards as letters (HK for the king of hearts), EUR for the euro sign.",
    )
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
    @functools.wraps(func)
    def wrapper(*args: Any, notation: str, ascii_: bool, as_json: bool, **kwargs: Any) -> Any:
        out = Output(cast(Profile, notation), ascii_ or not _terminal_can_show_symbols(), as_json)
        return run_with_output(func, out, args, kwargs)

    return cast(F, wrapper)


def plain_output_options(func: F) -> F:
    """``--ascii`` and ``--json``: for the commands that print no cards."""

    @click.option("--ascii", "ascii_", is_flag=True, help="Print plain ASCII (EUR for the euro sign).")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for scripts.")
    @functools.wraps(func)
    def wrapper(*args: Any, ascii_: bool, as_json: bool, **kwargs: Any) -> Any:
        out = Output("de", ascii_ or not _terminal_can_show_symbols(), as_json)
        return run_with_output(func, out, args, kwargs)

    return cast(F, wrapper)


def run_with_output(
    func: Callable[..., Any], out: Output, args: Sequence[Any], kwargs: dict[str, Any]
) -> Any:
    """Run a command printing through ``out``. With ``--json`` it runs in English: the JSON
    output is a contract, its messages stay English whatever --lang says. That holds for
    this run only (the language before it comes back after it, a line inside ``romme play``
    included), and an error it raises is worded and shown in English too."""
    if not out.json:
        return func(*args, out=out, **kwargs)
    with i18n.using_language("en"):
        try:
            return func(*args, out=out, **kwargs)
        except (InputProblem, Refusal) as exc:
            raise edge_error(exc) from None


def _rule_choice_options(func: F) -> F:
    for option in reversed(
        (
            click.option(
                "--preset",
                metavar="NAME",
                shell_complete=complete_with("presets"),
                help="Rule preset: standard, wiki-51, classic, speedromme, basic (default standard).",
            ),
            click.option(
                "--rule",
                "rule_items",
                multiple=True,
                metavar="KEY=VALUE",
                help="Override one house rule, e.g. --rule wraparound=true (repeatable).",
            ),
            click.option(
                "--rules-file",
                type=FilePath(dir_okay=False),
                help='TOML file: preset = "NAME" plus overrides.',
            ),
        )
    ):
        func = option(func)
    return func


def raw_rule_options(func: F) -> F:
    """``--preset``, ``--rule KEY=VALUE`` and ``--rules-file`` as given (``preset``,
    ``rule_items``, ``rules_file``), for a command whose items hold more than the house
    rules (``romme tournament new``: the tournament's options too)."""
    return _rule_choice_options(func)


def rule_options(func: F) -> F:
    """``--preset``, ``--rule KEY=VALUE`` and ``--rules-file``: the table's house rules."""

    @_rule_choice_options
    @functools.wraps(func)
    def wrapper(
        *args: Any, preset: str | None, rule_items: tuple[str, ...], rules_file: str | None, **kwargs: Any
    ) -> Any:
        rules = load_rules(preset, rule_items, rules_file)
        return func(*args, rules=rules, **kwargs)

    return cast(F, wrapper)


class RulesFrom:
    """Where the referee's rules came from: ``session`` (with its name and the preset it
    matches), ``options`` (--preset, --rule, --rules-file) or ``default``."""

    __slots__ = ("kind", "session", "label")

    def __init__(self, kind: str, session: str | None = None, label: str | None = None) -> None:
        self.kind = kind
        self.session = session
        self.label = label

    def json(self) -> dict[str, Any]:
        from romme_score.views.rules_from import rules_from_json

        return rules_from_json(self.kind, self.session, self.label)


def echo_rules_from(source: RulesFrom, out: Output) -> None:
    """One line before the verdict when the rules are a session's."""
    if source.kind == "session" and source.session is not None and source.label is not None:
        from romme_score.views.rules_from import rules_from_line

        out.echo(rules_from_line(source.session, source.label))


def referee_rule_options(func: F) -> F:
    """The rule options plus ``--session`` and ``--db``: without --preset, --rule or
    --rules-file, the referee judges under the rules of the session given or current
    (issue 9). Without a database file nothing changes: no file is created and SQLite is
    not even loaded, so ``romme check`` stays fast."""

    @_rule_choice_options
    @click.option(
        "--session",
        metavar="NAME",
        shell_complete=complete_with("sessions"),
        help="Judge under this session's rules (default: the current session's, "
        "unless --preset, --rule or --rules-file is given).",
    )
    @db_option
    @functools.wraps(func)
    def wrapper(
        *args: Any,
        preset: str | None,
        rule_items: tuple[str, ...],
        rules_file: str | None,
        session: str | None,
        db: str | None,
        **kwargs: Any,
    ) -> Any:
        if preset is not None or rule_items or rules_file is not None:
            rules, source = load_rules(preset, rule_items, rules_file), RulesFrom("options")
        else:
            found = session_rules(db, session)
            if found is None:
                rules, source = load_rules(None, (), None), RulesFrom("default")
            else:
                rules, source = found
        return func(*args, rules=rules, rules_from=source, **kwargs)

    return cast(F, wrapper)


def session_rules(db: str | None, name: str | None) -> tuple[RuleSet, RulesFrom] | None:
    """The rules of session ``name`` (or the current one), or None where there is no
    database file or no current session. A database that cannot be read is an error only
    when a session was asked for by name. The current session's rules come from the
    store's quick look (:mod:`romme_score.store.peek`) where it can give them; anything
    else asks the session service, and only where a file exists, so the referee pays for
    SQLite only then."""
    from romme_score.paths import default_location

    location = db if db is not None else default_location()
    if name is None and "://" not in location and _no_such_file(location):
        return None  # the common case of romme check, decided without importing pathlib
    if name is None and "://" not in location:
        from romme_score.store.peek import LookFailed

        try:
            return _current_rules_quickly(location)
        except LookFailed:
            pass  # out of the ordinary: the store opens the file below and says what
    from pathlib import Path

    path = Path(location)
    if "://" not in location and (not path.is_file() or path.stat().st_size == 0):
        if name is not None:
            raise Refused(
                _("no database at %(path)s, so no session '%(session)s'") % {"path": path, "session": name}
            )
        return None
    from romme_score.cli.service import open_service
    from romme_score.store import StoreError

    try:
        with open_service(location if "://" in location else path, create=False) as service:
            if name is None and service.current_name() is None:
                return None
            info = service.session(name)
    except StoreError as exc:
        if name is not None:
            from romme_score.cli.hints import with_hint

            raise Refused(with_hint(exc)) from None
        return None
    from romme_score.views.rules_from import preset_label

    return info.rules, RulesFrom("session", info.name, preset_label(info.rules))


def _current_rules_quickly(location: str) -> tuple[RuleSet, RulesFrom] | None:
    """The current session's rules from the store's quick look (:mod:`romme_score.store.peek`),
    None where no session is current; :class:`~romme_score.store.peek.LookFailed` where
    the quick look found anything out of the ordinary."""
    from romme_score.store.peek import current_rules

    current = current_rules(os.path.abspath(location))
    if current is None:
        return None
    name, rules = current
    from romme_score.views.rules_from import preset_label

    return rules, RulesFrom("session", name, preset_label(rules))


def _no_such_file(location: str) -> bool:
    """Whether nothing is at ``location``: then nothing is at what ``Path(location)`` makes
    of it either (pathlib drops only ``.`` parts, doubled and trailing slashes)."""
    try:
        os.stat(location)
    except FileNotFoundError:
        return True
    except (OSError, ValueError):
        pass
    return False


DB_HELP = N_("Database file (default: romme-score/romme.sqlite3 in the user data directory; env ROMME_DB).")

# Where a group keeps the ``--db`` typed before the command's name (``romme --db FILE new
# ...``, ``romme tournament --db FILE draw``) for the command that opens the database:
# ``ctx.meta`` is shared by every context of one run, and of that run only.
DB_BEFORE = "romme_score.cli.db"


def _keep_db(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value is not None:
        ctx.meta[DB_BEFORE] = value


def group_db_option(func: F) -> F:
    """``--db FILE`` of a group (``romme``, ``romme tournament``): anywhere on the line, as
    ``--lang`` is (issue 30 item 3); the command after it opens that database."""
    return click.option(  # no FilePath: made at import, before Click's words are ours
        "--db",
        metavar="FILE",
        expose_value=False,
        callback=_keep_db,
        help=DB_HELP,
    )(func)


def _db_typed_before(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """A command's ``--db``: as typed after its name, else as typed before it (a group's
    ``--db``, :func:`group_db_option`, read as this one reads it), else ``ROMME_DB``."""
    from click.core import ParameterSource

    if ctx.get_parameter_source(param.name or "db") is not ParameterSource.COMMANDLINE:
        before = ctx.meta.get(DB_BEFORE)
        if before is not None:
            return cast("str", param.type.convert(before, param, ctx))
    return value


def db_option(func: F) -> F:
    """``--db FILE``: the database (default: the user data directory; env ROMME_DB)."""
    return click.option(
        "--db",
        type=FilePath(dir_okay=False, path_type=str),
        envvar="ROMME_DB",
        callback=_db_typed_before,
        help=DB_HELP,
    )(func)


def session_option(func: F) -> F:
    """``--session NAME``: which session (default: the current one)."""
    return click.option(
        "--session",
        metavar="NAME",
        shell_complete=complete_with("sessions"),
        help="The session (default: the current one).",
    )(func)


def read_rules_file(rules_file: str | None) -> str | None:
    """The text of ``--rules-file`` (None without one); one sentence when it cannot be read."""
    if rules_file is None:
        return None
    try:
        with open(rules_file, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError) as exc:
        reason = os_reason(exc) if isinstance(exc, OSError) else _("not a UTF-8 text file")
        fail_input(
            _("cannot read the rules file %(path)s: %(reason)s") % {"path": rules_file, "reason": reason}
        )


def load_rules(preset: str | None, rule_items: Sequence[str], rules_file: str | None) -> RuleSet:
    text = read_rules_file(rules_file)
    try:
        return build_rules(preset, tuple(rule_items), text, str(rules_file or "rules file"))
    except RuleError as exc:
        from romme_score.cli.hints import with_hint

        fail_input(with_hint(exc))


def read_cards(text: str, out: Output, what: str = "") -> list[Card]:
    """Cards from an argument; an unreadable or empty one is an input error naming ``what``."""
    try:
        cards = parse_cards(text, out.profile)
    except NotationError as exc:
        from romme_score.cli.hints import with_hint

        fail_input(what + with_hint(exc))
    if not cards:
        fail_input(what + _("no cards given: type cards like HK K10 J"))
    return cards
