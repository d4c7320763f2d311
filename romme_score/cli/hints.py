"""How to fix it, on the command line: the core, the store and the session service raise
errors that say what is wrong with the values involved (``romme_score.store.errors``,
``romme_score.scoring``...); this module adds what to type instead, in the command line's
own terms (``--db``, ``--winner``, ``romme new``). Other front ends say it in theirs.

>>> from romme_score.store.errors import NoCurrentSession
>>> with_hint(NoCurrentSession(), "round")
"no current session: start one with 'romme new NAME PLAYER ...' or choose one with 'romme use NAME'"
"""

from __future__ import annotations

import sys

from romme_score.i18n import _


def _notation_profile(exc: BaseException) -> str | None:
    """The notation profile in which an unreadable token is a card, from the error or the
    error it was raised over (a hand's message quotes the notation error)."""
    seen: BaseException | None = exc
    while seen is not None:
        profile = getattr(seen, "other_profile", None)
        if isinstance(profile, str):
            return profile
        seen = seen.__cause__ or seen.__context__
    return None


def hint(exc: BaseException, command: str | None = None) -> tuple[str, str]:
    """(prefix, suffix) to put around the error's sentence for ``romme COMMAND``. Only
    modules already loaded are looked at: an error of a module that is not loaded cannot
    have been raised, and ``romme check`` pays for no more imports."""
    loaded = sys.modules
    store = loaded.get("romme_score.store.errors")
    if store is not None:
        if isinstance(exc, store.NoCurrentSession):
            return "", _("start one with 'romme new NAME PLAYER ...' or choose one with 'romme use NAME'")
        if isinstance(exc, store.NoDatabase):
            if command == "tournament":
                return "", _("start one with 'romme tournament new NAME PLAYER ...'")
            return "", _("start with 'romme new'")
        if isinstance(exc, store.NotOurs | store.DatabasePathError):
            return "", _("give another file with --db")
        if isinstance(exc, store.Damaged):
            return "", _("restore a copy or give another file with --db")
        if isinstance(exc, store.SessionExists):
            if exc.action == "import":
                return "", _("use --replace to overwrite it, or --name to import under another name")
            if exc.action == "create":
                return "", _("choose another name or 'romme use %(session)s'") % {"session": exc.name}
            return "", _("choose another name")
        if isinstance(exc, store.NoCurrentTournament):
            return "", _("start one with 'romme tournament new NAME PLAYER ...'")
        if isinstance(exc, store.TournamentExists):
            return "", _("choose another name")
        if isinstance(exc, store.SessionInTournament):
            return "", _("correct its rounds with 'romme edit' instead")
    tournaments = loaded.get("romme_score.tournament.service")
    if tournaments is not None:
        if isinstance(exc, tournaments.SeriesIncomplete):
            return "", _("record the missing games, or draw anyway with --force")
        if isinstance(exc, tournaments.TableNameTaken):
            return "", _("rename that session with 'romme sessions rename' and draw again")
    scoring = loaded.get("romme_score.scoring")
    if scoring is not None:
        if isinstance(exc, scoring.StalemateWithWinner):
            if command == "edit":
                return "", _("give --winner NAME (with --no-stalemate if it was a stalemate) or --stalemate")
            return "", _("drop --winner or --stalemate")
        if isinstance(exc, scoring.NoWinner):
            if exc.hand_romme:
                return "", _("give --winner NAME")
            return "", _("give --winner NAME (or --stalemate)")
        if isinstance(exc, scoring.MissingHands):
            return "", _("give NAME=CARDS, or NAME=0")
    sessions = loaded.get("romme_score.sessions")
    if sessions is not None:
        if isinstance(exc, sessions.GameOver):
            return "", _("start a new one with 'romme new'")
    rules = loaded.get("romme_score.rules")
    if rules is not None and isinstance(exc, rules.AssignmentError):
        return "--rule ", ""
    profile = _notation_profile(exc)
    if profile is not None:
        return "", _("or read it with --notation %(profile)s") % {"profile": profile}
    return "", ""


def with_hint(exc: BaseException, command: str | None = None) -> str:
    """The error's sentence with the command line's way out."""
    prefix, suffix = hint(exc, command)
    text = prefix + str(exc)
    return f"{text}: {suffix}" if suffix else text
