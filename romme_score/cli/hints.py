"""How to fix it, on the command line: the core, the store and the session service raise
errors with a stable ``code`` and their facts (:mod:`romme_score.errors`); this module
adds what to type instead, in the command line's own terms (``--db``, ``--winner``,
``romme new``), from one table keyed by that code. Other front ends say it in theirs.

>>> from romme_score.store.errors import NoCurrentSession
>>> with_hint(NoCurrentSession(), "round")
"no current session: start one with 'romme new NAME PLAYER ...' or choose one with 'romme use NAME'"
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from romme_score.i18n import N_, _

# A way out: a sentence (a msgid, worded in the run's language), or a function of the
# error's facts and the command typed giving one (None: no way out to offer).
WayOut = str | Callable[[dict[str, Any], str | None], str | None]

NEW_TOURNAMENT = N_("start one with 'romme tournament new NAME PLAYER ...'")
ANOTHER_NAME = N_("choose another name")
NO_SESSION = N_("start one with 'romme new NAME PLAYER ...' or choose one with 'romme use NAME'")


def _no_database(facts: dict[str, Any], command: str | None) -> str:
    return _(NEW_TOURNAMENT) if command == "tournament" else _("start with 'romme new'")


def _session_exists(facts: dict[str, Any], command: str | None) -> str:
    action = facts.get("action")
    if action == "import":
        return _("use --replace to overwrite it, or --name to import under another name")
    if action == "create":
        from romme_score.views.shell import shell_word

        name = str(facts.get("name"))
        word = shell_word(name)  # bare where it can be; else "..." reads best inside the '...'
        return _("choose another name or 'romme use %(session)s'") % {
            "session": word if word == name else shell_word(name, '"')
        }
    return _(ANOTHER_NAME)


def _stalemate_with_winner(facts: dict[str, Any], command: str | None) -> str:
    if command == "edit":
        return _("give --winner NAME (with --no-stalemate if it was a stalemate) or --stalemate")
    return _("drop --winner or --stalemate")


def _no_winner(facts: dict[str, Any], command: str | None) -> str:
    return _("give --winner NAME") if facts.get("hand_romme") else _("give --winner NAME (or --stalemate)")


def _game_over(facts: dict[str, Any], command: str | None) -> str | None:
    """A game of its own starts anew; a tournament's table has played its games (whether
    another series follows is the tournament's to say); a game ended by agreement goes on
    once that is taken back; a table a later series closed takes nothing more (issue 36
    item 2)."""
    if facts.get("series_drawn") is not None:
        return _("it takes no more games; 'romme tournament standings' shows the ranking")
    if facts.get("ended"):
        from romme_score.views.shell import shell_word

        return _("'romme end --reopen --session %(session)s' takes back its end by agreement") % {
            "session": shell_word(str(facts.get("session")), '"')  # inside the hint's '...'
        }
    if facts.get("tournament"):
        return _("this table has played its games: 'romme tournament standings' shows the ranking")
    return _("start a new one with 'romme new'")


def _missing_extra(facts: dict[str, Any], command: str | None) -> str:
    """The command that installs the extra, for the way romme was installed (issue 30 item 5)."""
    from romme_score.cli.installed import install_line

    return install_line(str(facts.get("extra")))


def _table_in_league(facts: dict[str, Any], command: str | None) -> str:
    import shlex  # this hint only: not loaded at every start

    return _("add the tournament instead: romme league add %(league)s --tournament %(tournament)s") % {
        "league": shlex.quote(str(facts.get("league"))),
        "tournament": shlex.quote(str(facts.get("tournament"))),
    }


def _session_in_league(facts: dict[str, Any], command: str | None) -> str:
    """``romme league remove`` for each league the session counts in."""
    import shlex  # this hint only: not loaded at every start

    session = shlex.quote(str(facts.get("session")))
    commands = [
        f"romme league remove {shlex.quote(str(league))} --session {session}"
        for league in facts.get("leagues") or ()
    ]
    listed = commands[-1] if commands else ""
    if len(commands) > 1:
        listed = _("%(some)s and %(last)s") % {"some": ", ".join(commands[:-1]), "last": listed}
    return _("take it out first with %(commands)s") % {"commands": listed}


def _not_ours(facts: dict[str, Any], command: str | None) -> str:
    if facts.get("server"):  # a PostgreSQL database (issue 30 item 11): no file to give
        return _("give the URL of an empty database or of romme-score's with --db")
    return _("give another file with --db")


WAYS_OUT: dict[str, WayOut] = {
    "no-current-session": N_(
        "start one with 'romme new NAME PLAYER ...' or choose one with 'romme use NAME'"
    ),
    "no-database": _no_database,
    "not-ours": _not_ours,
    "database-path": N_("give another file with --db"),
    "damaged": N_("restore a copy or give another file with --db"),
    "session-exists": _session_exists,
    "no-current-tournament": NEW_TOURNAMENT,
    "tournament-exists": ANOTHER_NAME,
    "session-in-tournament": N_("correct its rounds with 'romme edit' instead"),
    "session-in-league": _session_in_league,
    "series-incomplete": N_("record the missing games, or draw anyway with --force"),
    "table-name-taken": N_("rename that session with 'romme sessions rename' and draw again"),
    "stalemate-with-winner": _stalemate_with_winner,
    "no-winner": _no_winner,
    "missing-hands": N_("give NAME=CARDS, or NAME=0"),
    "game-over": _game_over,
    "missing-extra": _missing_extra,
    "table-in-league": _table_in_league,
    "table-not-ended": N_("'romme tournament draw --force' seats the next series without its missing games"),
    "tournament-money": N_("'romme tournament payout' shows what each player paid in and receives"),
}
# what goes before the sentence: the option it was typed for
PREFIXES = {"assignment": "--rule "}


def _question_clash(facts: dict[str, Any]) -> str:
    """``romme check``'s questions by their options (the referee names them ``first``,
    ``onto``, ``not_out``)."""
    if facts.get("question") == "first":
        return _("--first judges melds laid from the hand, --onto a lay-off: give one of them")
    return _("--not-out goes with --onto: it judges a lay-off or swap before coming out")


# The whole sentence, where the error's own names the command line's options otherwise.
SENTENCES: dict[str, Callable[[dict[str, Any]], str]] = {"question-clash": _question_clash}


def _notation_profile(exc: BaseException) -> str | None:
    """The notation profile in which an unreadable token is a card, from the error or the
    error it was raised over (a hand's message quotes the notation error)."""
    seen: BaseException | None = exc
    while seen is not None:
        profile = getattr(seen, "other_profile", None)
        if profile is not None:
            return str(profile)
        seen = seen.__cause__ or seen.__context__
    return None


def hint(exc: BaseException, command: str | None = None) -> tuple[str, str]:
    """(prefix, suffix) to put around the error's sentence for ``romme COMMAND``."""
    code = str(getattr(exc, "code", ""))
    way = WAYS_OUT.get(code)
    if way is not None:
        facts_of = getattr(exc, "facts", None)
        facts: dict[str, Any] = facts_of() if callable(facts_of) else {}
        suffix = way(facts, command) if callable(way) else _(way)
        return "", suffix or ""
    if code in PREFIXES:
        return PREFIXES[code], ""
    profile = _notation_profile(exc)
    if profile is not None:
        return "", _("or read it with --notation %(profile)s") % {"profile": profile}
    return "", ""


def with_hint(exc: BaseException, command: str | None = None) -> str:
    """The error's sentence with the command line's way out."""
    prefix, suffix = hint(exc, command)
    code = str(getattr(exc, "code", ""))
    facts_of = getattr(exc, "facts", None)
    text = prefix + (SENTENCES[code](facts_of()) if code in SENTENCES and callable(facts_of) else str(exc))
    if not suffix:
        return text
    if text.endswith(("?", "!", ".")):  # the sentence has ended (a question): a new one
        return f"{text} {suffix[:1].upper()}{suffix[1:]}"
    return f"{text}: {suffix}"
