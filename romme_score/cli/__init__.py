"""The ``romme`` command line: one Click group whose commands are loaded lazily.

Each command lives in its own module under :mod:`romme_score.cli` and is
imported only when it runs (Click's documented lazy-group pattern), so that
``romme check`` never pays for SQLite, tabulate or the solver. A command
parses its arguments, calls the core or the session service, and hands the
result to a view (:mod:`romme_score.views`).
"""

from __future__ import annotations

import importlib
import inspect
import sys
from collections.abc import Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

import click

from romme_score import i18n
from romme_score.cli.options import (
    InputError,
    Refused,
    edge_error,
    group_db_option,
    json_refusal,
    text_params,
    wants_json,
)
from romme_score.cli.terminal import showable_streams
from romme_score.errors import InputProblem, Refusal
from romme_score.i18n import N_, _

_Item = TypeVar("_Item", click.Command, click.Parameter)

INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug of ours, never the user's input
# Whether the line being run asked for JSON (``--json``): then a refusal is one line of
# JSON on standard error (issue 36 item 3). Per run, as the language is: a line run inside
# ``romme play`` says it for itself.
JSON_ERRORS: ContextVar[bool] = ContextVar("json_errors", default=False)

# command name -> "module:attribute", relative to this package
COMMANDS = {
    "check": "check:check",
    "value": "value:value",
    "best": "best:best",
    "rules": "rules:rules",
    "settle": "settle:settle",
    "new": "session:new",
    "round": "session:round_",
    "undo": "session:undo",
    "edit": "session:edit",
    "standings": "session:standings",
    "sessions": "session:sessions",
    "use": "session:use",
    "end": "session:end",
    "export": "session:export",
    "import": "session:import_",
    "note": "session:note",
    "chart": "chart:chart",
    "stats": "stats:stats",
    "report": "report:report",
    "play": "play:play",
    "serve": "serve:serve",
    "tournament": "tournament:tournament",
    "league": "league:league",
}


# Click's modules that print messages through their module-level ``_``/``ngettext``
# (``from gettext import gettext as _``): pointed at our "click" catalog, so that
# "Usage:", "Error:", "Missing argument" follow --lang like the rest of the program.
CLICK_MODULES = (
    "click.core",
    "click.exceptions",
    "click.parser",
    "click.types",
    "click.decorators",
    "click.formatting",
    "click.termui",
    "click.utils",
    "click.shell_completion",
    "click._termui_impl",
)


def install_click_translation() -> None:
    for name in CLICK_MODULES:
        module = sys.modules.get(name)
        if module is None:
            continue
        if hasattr(module, "_"):
            module._ = i18n.click_gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = i18n.click_ngettext  # type: ignore[attr-defined]


def lang_from_args(args: Sequence[str]) -> str | None:
    """The value of ``--lang`` wherever it stands on the line (before ``--``).

    >>> lang_from_args(["check", "--lang", "de", "HK"]), lang_from_args(["--lang=en", "value"])
    ('de', 'en')
    >>> lang_from_args(["check", "--", "--lang", "de"]) is None
    True
    """
    for i, arg in enumerate(args):
        if arg == "--":
            return None
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--lang="):
            return arg.split("=", 1)[1]
    return None


def _set_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    if value:
        i18n.set_language(value)


LANG_HELP = N_("Language of the messages: de or en (else ROMME_LANG, else the locale, else en).")


def lang_option() -> click.Option:
    return click.Option(
        ["--lang"],
        type=click.Choice(i18n.LANGUAGES),
        expose_value=False,
        is_eager=True,
        callback=_set_lang,
        help=LANG_HELP,
    )


# (command, language) -> the command as shown in that language. One command object
# serves every language at once (two threads, two requests), so it is never changed:
# each language gets its own copy, made once; two threads making the same one at once
# each make a whole copy, and setdefault keeps the first.
_translated: dict[tuple[click.Command, str], click.Command] = {}


def translate_command(command: click.Command) -> click.Command:
    """The command in the language in use: its help texts and placeholders (English
    msgids, defined at import) translated, in a copy of the command and its parameters
    made once per language, each text worded when it is first read. Every command gets
    ``--lang`` too, so that it may stand after the command's name."""
    key = (command, i18n.language())
    found = _translated.get(key)
    if found is None:
        found = _translated.setdefault(key, _translated_copy(command))
    return found


def _shallow_copy(item: _Item) -> _Item:
    """What ``copy.copy`` makes of a command or a parameter (a new object sharing the
    attributes), without importing :mod:`copy` on every run."""
    new = object.__new__(type(item))
    new.__dict__.update(item.__dict__)
    new.__dict__.pop("_worded", None)  # a copy of a translated copy words its own texts
    return new


def _translated_copy(command: click.Command) -> click.Command:
    translated = _shallow_copy(command)
    params = list(command.params)
    if not any(p.name == "lang" for p in params):
        params.append(lang_option())
    translated.params = [_shallow_copy(p) for p in params]
    # Click keeps the --help option it made first, its text in the language of then.
    translated._help_option = None
    language = i18n.language()
    for item in [translated, *translated.params]:
        _word_when_read(item, language)
    return translated


def _word_help(item: Any, text: str | None) -> str | None:
    return _help_text(inspect.cleandoc(text)) if text else text


def _word_usage(item: Any, text: str | None) -> str | None:
    return worded_metavar(text) if text else text


def _word_param_metavar(item: Any, text: str | None) -> str | None:
    worded = _param_metavar(item, text)
    return worded if worded is not None else text


class _WordedWhenRead:
    """An attribute of Click's commands and parameters (a help text, a placeholder) that a
    translated copy words in its language the first time it is read, not when the copy is
    made: a run that shows no help (most runs: ``romme check ...``) words none of them
    (issue 20 item 31). Every instance keeps what it was given under the attribute's name;
    one that is no translated copy (no ``_worded_in``) reads it as it is."""

    def __init__(self, name: str, word: Any) -> None:
        self.name = name
        self.word = word

    def __get__(self, item: Any, owner: Any = None) -> Any:
        if item is None:
            return self
        state = item.__dict__
        try:
            original = state[self.name]
        except KeyError:
            raise AttributeError(self.name) from None
        language = state.get("_worded_in")
        if language is None:
            return original
        worded = state.setdefault("_worded", {})
        if self.name not in worded:
            with i18n.using_language(language):
                worded[self.name] = self.word(item, original)
        return worded[self.name]

    def __set__(self, item: Any, value: Any) -> None:
        state = item.__dict__
        state[self.name] = value
        worded = state.get("_worded")
        if worded:
            worded.pop(self.name, None)


for _owner, _name, _word in (
    (click.Command, "help", _word_help),
    (click.Command, "short_help", _word_help),
    (click.Command, "options_metavar", _word_usage),
    (click.Group, "subcommand_metavar", _word_usage),
    (click.Parameter, "help", _word_help),
    (click.Parameter, "metavar", _word_param_metavar),
):
    setattr(_owner, _name, _WordedWhenRead(_name, _word))


def _word_when_read(item: Any, language: str) -> None:
    """Mark ``item`` (a translated copy) to word its texts in ``language`` when read."""
    item.__dict__["_worded_in"] = language


# The placeholders of the usage lines and of option values, Click's and ours, worded when
# shown: ``romme [OPTIONEN] BEFEHL [ARGUMENTE]...``, ``--winner SPIELER``. A word not
# listed (N, K) stays as it is.
METAVARS = (
    N_("OPTIONS"),
    N_("COMMAND"),
    N_("ARGS"),
    N_("NAME"),
    N_("PLAYER"),
    N_("PLAYERS"),
    N_("MELD"),
    N_("MELDS"),
    N_("HAND"),
    N_("HANDS"),
    N_("TOTALS"),
    N_("PRESET"),
    N_("ROUND"),
    N_("SESSION"),
    N_("FILE"),
    N_("TEXT"),
    N_("OLD"),
    N_("NEW"),
    N_("INTEGER"),
    N_("INTEGER RANGE"),
    N_("KEY=VALUE"),
    N_("YYYY-MM-DD"),
    N_("AMOUNT"),
    N_("LIST"),
    N_("CODE"),
    N_("END"),
    N_("ADDRESS"),
)
_METAVAR_WORD = r"[A-Z][A-Z =-]*[A-Z]"  # compiled by re's cache when a usage line is shown


def worded_metavar(text: str) -> str:
    """A usage placeholder in the language in use (``[OPTIONS]`` -> ``[OPTIONEN]``); in
    English the msgids are the words, so the text as it is."""
    if i18n.language() == "en":
        return text
    return "".join(_(part) if word else part for word, part in metavar_words(text))


def _is_upper(char: str) -> bool:
    return "A" <= char <= "Z"


def metavar_words(text: str) -> list[tuple[bool, str]]:
    """``text`` cut into its placeholder words (what ``_METAVAR_WORD`` matches: capitals,
    with spaces, ``=`` and ``-`` inside) and what lies between, in order; without
    compiling the pattern on every start of romme (tests/test_cli.py holds the two alike).

    >>> metavar_words("[OPTIONS] KEY=VALUE...")
    [(False, '['), (True, 'OPTIONS'), (False, '] '), (True, 'KEY=VALUE'), (False, '...')]
    """
    parts: list[tuple[bool, str]] = []
    plain = start = 0
    end = len(text)
    while start < end:
        if _is_upper(text[start]):
            stop = start + 1
            while stop < end and (_is_upper(text[stop]) or text[stop] in " =-"):
                stop += 1
            while not _is_upper(text[stop - 1]):
                stop -= 1
            if stop - start >= 2:
                if plain < start:
                    parts.append((False, text[plain:start]))
                parts.append((True, text[start:stop]))
                plain = start = stop
                continue
        start += 1
    if plain < end:
        parts.append((False, text[plain:]))
    return parts


def _param_metavar(param: click.Parameter, metavar: str | None) -> str | None:
    """The placeholder of a parameter worded, as Click would write it (``[PLAYERS]...``),
    or None where it stays Click's: the same words, a flag, or a type that writes its own
    (a choice ``[de|en]``, a file ``DATEI``)."""
    if isinstance(param, click.Option) and (param.is_flag or param.count):
        return None
    if metavar is not None:
        written = metavar
    elif type(param.type).get_metavar is not click.ParamType.get_metavar or (
        isinstance(param, click.Option) and isinstance(param.type, click.Path)
    ):
        return None
    else:
        written = (param.name or "").upper() if isinstance(param, click.Argument) else param.type.name.upper()
        if isinstance(param, click.Argument) and not param.required:
            written = f"[{written}]"
        if param.nargs != 1:
            written += "..."
    worded = worded_metavar(written)
    return worded if worded != written else None


def _help_text(msgid: str) -> str:
    """Ours, else Click's own (``--version``'s help is Click's, English since import)."""
    text = _(msgid)
    return text if text != msgid else i18n.click_gettext(msgid)


class TranslatedGroup(click.Group):
    """A group of subcommands (``romme sessions rename|delete``), each shown in the language
    of the run, as the ``romme`` group's are."""

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        command = super().get_command(ctx, cmd_name)
        return translate_command(command) if command is not None else None


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command is used."""

    def __init__(
        self, *args: object, lazy_subcommands: dict[str, str] | None = None, **kwargs: object
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy_subcommands = lazy_subcommands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_subcommands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            module_name, attr = self.lazy_subcommands[cmd_name].split(":")
            module = importlib.import_module(f"{__name__}.{module_name}")
            command = getattr(module, attr)
            if not isinstance(command, click.Command):
                raise TypeError(f"{module_name}:{attr} is not a Click command")
            return translate_command(text_params(command))
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands of ``romme --help``, as Click writes it, from the summaries
        kept in :mod:`romme_score.cli.summaries` (the first paragraph of each command's
        help in each language): Click's own list imports every command's module to read
        its help (issue 28 item 3). Click shortens each summary to the line, as it
        shortens a command's help."""
        from romme_score.cli.summaries import SUMMARIES

        shown = SUMMARIES.get(i18n.language(), SUMMARIES["en"])
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in self.lazy_subcommands and name in shown:
                summary = click.Command(name, help=shown[name]).get_short_help_str(limit)
            else:  # a command added to the group itself, or one the summaries miss
                command = self.get_command(ctx, name)
                if command is None or command.hidden:
                    continue
                summary = command.get_short_help_str(limit)
            rows.append((name, summary))
        with formatter.section(i18n.click_gettext("Commands")):
            formatter.write_dl(rows)

    def resolve_command(
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        """Click's, with a long unknown command name quoted shortened (a line of a script)."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as exc:
            raise click.exceptions.NoSuchCommand(
                exc.command_name,
                exc.message.replace(repr(args[0]), i18n.shown(args[0])),
                exc.possibilities,
                ctx,
            ) from None

    def main(self, args: Sequence[str] | None = None, *posargs: Any, **kwargs: Any) -> Any:
        """Choose the language before Click reads the line, so that its own messages
        (usage errors, help) and every help text come out in it. The run speaks it inside
        :func:`i18n.using_language`: a line run inside ``romme play`` keeps the table's
        language unless it says ``--lang``, and the table's comes back after it."""
        showable_streams()  # before anything is printed: any text, any terminal
        line = list(sys.argv[1:] if args is None else args)
        lang = lang_from_args(line)
        if lang not in i18n.LANGUAGES:  # else the language this run was called in, or the environment's
            lang = i18n.chosen_language() or i18n.choose_language()
        install_click_translation()
        asked = JSON_ERRORS.set(wants_json(line))
        try:
            with i18n.using_language(lang):
                # the group in this language, run as Click runs a group (not this method again)
                return click.Group.main(translate_command(self), line, *posargs, **kwargs)
        finally:
            JSON_ERRORS.reset(asked)

    def make_context(
        self, info_name: str | None, args: list[str], parent: click.Context | None = None, **extra: Any
    ) -> click.Context:
        """Click's; a mistake in the group's own options of a ``--json`` line said in JSON."""
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.ClickException as exc:
            if JSON_ERRORS.get():
                raise json_refusal(exc) from None
            raise

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; every error becomes one sentence, never a traceback (with
        ``--json``, one line of JSON: :class:`~romme_score.cli.options.JsonRefusal`)."""
        try:
            return super().invoke(ctx)
        except (InputProblem, Refusal) as exc:
            edge = edge_error(exc, ctx.invoked_subcommand)
            raise (json_refusal(edge) if JSON_ERRORS.get() else edge) from None
        except click.ClickException as exc:
            if JSON_ERRORS.get():
                raise json_refusal(exc) from None
            raise  # Click's own
        except (click.exceptions.Exit, click.Abort, BrokenPipeError):
            raise  # Click's own; a closed pipe (romme ... | head) ends quietly, as Click does
        except RecursionError:
            raise InputError(_("the input is nested too deeply to be read")) from None
        except MemoryError:
            raise Refused(_("this needs more memory than the machine has")) from None
        except Exception as exc:  # the last resort: a bug, said in one line
            click.echo(
                _("internal error: %(error)s — please report it") % {"error": f"{type(exc).__name__}: {exc}"},
                err=True,
            )
            ctx.exit(INTERNAL_ERROR)


VERSION_HELP = "Show the version and exit."  # Click's msgid: worded from its catalog


def _show_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    """``--version``, as ``click.version_option`` prints it, in the language of this run.
    Not that decorator: it words its help at import through the stdlib gettext, which
    imports locale and searches the disk for a catalog on every run (the help is
    translated when shown, as every help text is). The version is the package's own
    ``__version__`` (which pyproject.toml reads), not ``importlib.metadata``: that costs
    more than the rest of ``romme --version`` together (issue 28 item 3)."""
    if not value or ctx.resilient_parsing:
        return
    from romme_score import __version__  # the package's metadata takes it from here (pyproject)

    text = i18n.click_gettext("%(prog)s, version %(version)s")
    click.echo(text % {"prog": ctx.find_root().info_name, "version": __version__})
    ctx.exit()


@click.group(
    cls=LazyGroup, lazy_subcommands=COMMANDS, context_settings={"help_option_names": ["-h", "--help"]}
)
@click.option(
    "--version",
    is_flag=True,
    expose_value=False,
    is_eager=True,
    callback=_show_version,
    help=VERSION_HELP,
)
@click.option(
    "--lang",
    type=click.Choice(i18n.LANGUAGES),
    expose_value=False,
    is_eager=True,
    callback=_set_lang,
    help=LANG_HELP,
)
@group_db_option
def main() -> None:
    """romme-score: scorekeeper and referee for Rommé played with real cards.

    \b
    Examples:
      romme check "HK KK PK" "T9 T10 TB"      is this a legal meld? what is it worth?
      romme value "HK K10 J"                 penalty points left in a hand
      romme new Friday Anna Ben Carl Dora    start keeping score
      romme settle A=220 B=360 C=140 D=490 --rate 0.001
    """
