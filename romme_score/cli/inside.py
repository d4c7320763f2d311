"""A ``romme`` command line run inside the table mode: the same Click commands as on the
command line, in the same process, against the table's database and session. The table
mode gets :func:`runner`'s function from ``romme play`` and never imports the command
line itself; it runs here what its words hand on (``--json``, ``--preset``, ``round
--winner ...``, every other ``romme`` command of a script).

>>> with_context(["value", "HA"], None, "Friday")
['value', '--session', 'Friday', 'HA']
>>> with_context(["settle", "A=1", "B=2"], None, "Friday")
['settle', 'A=1', 'B=2']
>>> with_context(["--lang", "de", "note", "hi"], "f.sqlite3", "Friday")
['--lang', 'de', 'note', '--db', 'f.sqlite3', '--session', 'Friday', 'hi']
"""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from romme_score.i18n import _

if TYPE_CHECKING:
    from romme_score.views.output import Output

# A line of the table mode: its words, whether a person answers questions at the terminal.
RunLine = Callable[[list[str], bool], int]


class ScriptInput(io.StringIO):
    """Standard input of a line of a ``romme play`` script: the end of input, for standard
    input is the script itself, which play reads line by line (issue 30 item 6)."""


def refuse_script_input(what: str) -> None:
    """One sentence (exit code 2) where a line of a script would read standard input
    (``import -``): it is the script itself. Nothing where a person types at a terminal."""
    if isinstance(sys.stdin, ScriptInput):
        from romme_score.cli.options import fail_input

        fail_input(
            _("%(what)s: standard input is the script itself in romme play; give a file instead")
            % {"what": what}
        )


def leading_options(words: list[str]) -> int:
    """How many of the first words are options of the ``romme`` group itself (``--lang en``,
    ``--lang=en``, ``--help``): the command's name comes after them.

    >>> leading_options(["--lang", "en", "note", "hi"]), leading_options(["note", "--lang", "en"])
    (2, 0)
    >>> leading_options(["--", "note", "hi"])
    1
    """
    from romme_score.cli import main

    takes_value = {
        opt: not (isinstance(p, click.Option) and (p.is_flag or p.count))
        for p in main.params
        for opt in p.opts
    }
    at = 0
    while at < len(words) and words[at].startswith("-"):
        if words[at] == "--":  # the end of the options: the command's name comes next
            return at + 1
        name, equals, _ = words[at].partition("=")
        if name not in takes_value:
            break  # not the group's: Click refuses it as it would on the command line
        at += 2 if takes_value[name] and not equals else 1
    return at


def given(words: list[str], flag: str) -> list[str]:
    """The values a line gives for ``flag`` (``--db X`` or ``--db=X``), before ``--``."""
    found = []
    for at, word in enumerate(words):
        if word == "--":
            break
        if word == flag and at + 1 < len(words):
            found.append(words[at + 1])
        elif word.startswith(flag + "="):
            found.append(word[len(flag) + 1 :])
    return found


def with_context(words: list[str], db: str | None, session: str, output: Sequence[str] = ()) -> list[str]:
    """The command line with ``--db`` and ``--session`` added after the command's name where
    the command has those options and the line does not give them (``settle`` with totals
    typed: no session), and ``romme play``'s own ``--notation X`` and ``--ascii``
    (``output``) where the command has them. The group's own options (``--lang en``) may
    come first, as on the command line; the command's name is the first word after them.

    >>> with_context(["value", "AH"], None, "Friday", ["--notation", "en", "--ascii"])
    ['value', '--session', 'Friday', '--notation', 'en', '--ascii', 'AH']
    >>> with_context(["note", "hi"], None, "Friday", ["--notation", "en", "--ascii"])
    ['note', '--session', 'Friday', '--ascii', 'hi']
    """
    from romme_score.cli import main

    lead = leading_options(words)
    head, name, rest = words[:lead], words[lead] if lead < len(words) else "", words[lead + 1 :]
    command = main.get_command(click.Context(main), name) if name else None
    if command is None:
        return words
    flags = {flag for p in command.params for flag in p.opts}
    extra: list[str] = []
    if "--db" in flags and db is not None and not given(rest, "--db"):
        extra += ["--db", str(db)]
    totals_typed = name == "settle" and any("=" in w and not w.startswith("-") for w in rest)
    if "--session" in flags and not given(rest, "--session") and not totals_typed:
        extra += ["--session", session]
    for at, option in enumerate(output):
        takes = at + 1 < len(output) and not output[at + 1].startswith("-")
        if not option.startswith("-") or option not in flags or given(rest, option) or option in rest:
            continue
        extra += [option, output[at + 1]] if takes else [option]
    return [*head, name, *extra, *rest]


def one_meld(words: list[str]) -> list[str]:
    """``check`` as typed at the table (issue 20 item 5): its words unquoted are one meld
    (``check HK KK PK``), words in quotes one meld each (``check "HK KK PK" "T9 T10 TB"``).
    A meld of one card is never legal, so nobody means three of them.

    >>> one_meld(["check", "HK", "KK", "PK"])
    ['check', 'HK KK PK']
    >>> one_meld(["check", "--onto", "H7 H8 H9", "H10", "HB", "--first"])
    ['check', '--onto', 'H7 H8 H9', 'H10 HB', '--first']
    >>> one_meld(["check", "HK KK PK", "T9 T10 TB"])
    ['check', 'HK KK PK', 'T9 T10 TB']
    """
    from romme_score.cli import main

    lead = leading_options(words)
    command = main.get_command(click.Context(main), words[lead]) if lead < len(words) else None
    if command is None or command.name != "check":
        return words
    takes_value = {
        opt
        for p in command.params
        if isinstance(p, click.Option) and not (p.is_flag or p.count)
        for opt in p.opts
    }
    rest = words[lead + 1 :]
    melds: list[int] = []
    at = 0
    while at < len(rest):
        word = rest[at]
        if word == "--":
            melds.extend(range(at + 1, len(rest)))
            break
        if word.startswith("-") and len(word) > 1:
            at += 2 if word in takes_value else 1
            continue
        melds.append(at)
        at += 1
    if len(melds) < 2 or any(" " in rest[i].strip() for i in melds):
        return words
    joined = " ".join(rest[i] for i in melds)
    kept = [w for i, w in enumerate(rest) if i not in melds[1:]]
    kept[melds[0]] = joined
    return [*words[: lead + 1], *kept]


def same_file(a: str, b: str | None) -> bool:
    from romme_score.paths import default_location

    return Path(a).expanduser().resolve() == Path(b if b is not None else default_location()).resolve()


def run_command(
    words: list[str], db: str | None, session: str, ask: bool = False, output: Sequence[str] = ()
) -> int:
    """Run one command in-process; print what it prints; return its exit code (``output``:
    ``romme play``'s ``--notation`` and ``--ascii``, :func:`with_context`). Unless
    ``ask`` (a person at the terminal), a command that would ask a question gets the end
    of input, so that it never reads the next line of a script (``undo`` asks for --yes).
    At the terminal ``check`` reads its unquoted words as one meld (:func:`one_meld`);
    a script's lines are read as on the command line, a word that is no command (or an
    option of the group that Click cannot read) in one sentence, "Error: No such command
    '0'.", without the usage lines of a ``romme`` nobody typed (issue 37, the Unicode
    property test); a command's own usage error is said as on the command line."""
    from romme_score.cli import main

    args = with_context(one_meld(words) if ask else words, db, session, output)
    other = [given_db for given_db in given(args, "--db") if not same_file(given_db, db)]
    if other:
        from romme_score.cli.options import InputError
        from romme_score.store import shown_location

        InputError(
            _("--db %(path)s: a line of romme play runs against its database, %(db)s; leave out --db")
            % {
                "path": shown_location(other[0]),
                "db": shown_location(db) if db is not None else _("the default database"),
            }
        ).show()
        return 2
    stdin = sys.stdin
    if not ask:
        sys.stdin = ScriptInput("")
    try:
        result = main.main(args, prog_name="romme", standalone_mode=False)
    except click.UsageError as exc:
        if ask or exc.ctx is None or exc.ctx.parent is not None:
            exc.show()  # a command's usage error, as on the command line (issue 35 item 2)
        else:  # no command, or the group's option: one sentence, not `romme`'s usage
            click.ClickException.show(exc)
        return exc.exit_code
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    except click.exceptions.Exit as exc:
        return exc.exit_code
    except click.Abort:
        from romme_score.i18n import click_gettext

        click.echo(click_gettext("Aborted!"), err=True)  # Click's own word, in the run's language
        return 1
    except SystemExit as exc:
        code = exc.code
        return code if isinstance(code, int) else (0 if code is None else 1)
    finally:
        sys.stdin = stdin
    return result if isinstance(result, int) else 0


class Runner:
    """What the table mode calls to run a line: against ``db`` and the session's name as
    it is at that moment (it follows a rename), printing as ``romme play`` was told
    (``output``: its ``--notation X`` and ``--ascii``, for every command that has them);
    and :meth:`hint`, the command line's way out of an error, for the errors of the round
    entry."""

    def __init__(self, db: str | None, session: Callable[[], str], output: Sequence[str] = ()) -> None:
        self.db = db
        self.session = session
        self.output = list(output)

    def __call__(self, words: list[str], ask: bool) -> int:
        return run_command(words, self.db, self.session(), ask, self.output)

    @staticmethod
    def hint(exc: BaseException, command: str | None = None) -> str:
        from romme_score.cli.hints import with_hint

        return with_hint(exc, command)


def runner(db: str | None, session: Callable[[], str], out: Output | None = None) -> Runner:
    """The table's :class:`Runner` for ``db`` and the session played, printing as ``out``
    (``romme play``'s options) says."""
    output: list[str] = []
    if out is not None:
        output += ["--notation", out.profile, *(["--ascii"] if out.ascii else [])]
    return Runner(db, session, output)
