"""Shell completion of what the database holds: session names (``romme use <Tab>``),
players (``--winner <Tab>``, ``edit 3 <Tab>`` gives ``Ben=``), tournaments and their
players, presets. Click asks these while completing (``_ROMME_COMPLETE=bash_complete``
and the like, see the README); they ask the store's ``names()`` of an SQLite file opened
read-only, create nothing, and on any trouble offer nothing rather than print an error
into the shell.

The database is the one ``--db`` names earlier on the line (Click has parsed it into
``ctx.params`` by then, for this command or its group), else ``ROMME_DB``, else the
default file. A PostgreSQL URL gives no names: a completion neither waits for a server
nor writes to one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import click
from click.shell_completion import CompletionItem

if TYPE_CHECKING:
    from romme_score.store.names import Names

# options.DB_BEFORE, where a group keeps the --db typed before the command's name (spelt
# here again: options imports this module, never the other way round)
DB_BEFORE = "romme_score.cli.db"

Completer = Callable[[click.Context, click.Parameter, str], list[CompletionItem]]


def _param(ctx: click.Context, name: str) -> object:
    """A parameter's value given earlier on the line, in this command or a group above it."""
    here: click.Context | None = ctx
    while here is not None:
        value = here.params.get(name)
        if value is not None:
            return value
        here = here.parent
    return None


def _given(ctx: click.Context, name: str) -> object:
    """A parameter's value typed on the line (not from the environment), in this command
    or a group above it: ``romme sessions --db FILE delete <Tab>`` reads FILE."""
    here: click.Context | None = ctx
    while here is not None:
        if here.get_parameter_source(name) is click.core.ParameterSource.COMMANDLINE:
            if name == "db" and name not in here.params:  # a group's: ``romme --db FILE use <Tab>``
                return here.meta.get(DB_BEFORE)
            return here.params.get(name)
        here = here.parent
    return None


def names(ctx: click.Context) -> Names:
    """The names in the database this line would use (none where there is no such file)."""
    from romme_score.paths import default_location
    from romme_score.store import StoreError, location_path, open_store
    from romme_score.store.names import Names

    db = _given(ctx, "db")
    path = location_path(db if isinstance(db, str) and db else default_location())
    if path is None or not path.is_file():  # a server is not waited for; no file is made
        return Names()
    try:
        with open_store(path, create=False, read_only=True) as store:
            return store.names()
    except StoreError:  # not ours, damaged, unreadable: no names
        return Names()


def _matching(candidates: Iterable[str], incomplete: str, suffix: str = "") -> list[CompletionItem]:
    """The candidates that start with what is typed, ignoring case, each once."""
    typed = incomplete.casefold()
    seen: list[str] = []
    for name in candidates:
        if name.casefold().startswith(typed) and name not in seen:
            seen.append(name)
    return [CompletionItem(name + suffix) for name in seen]


def quietly(complete: Completer) -> Completer:
    """A completer that offers nothing instead of failing: a Tab never prints an error."""

    def wrapper(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
        try:
            return complete(ctx, param, incomplete)
        except Exception:
            return []

    wrapper.__doc__ = complete.__doc__
    return wrapper


@quietly
def sessions(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Session names, the current one first."""
    found = names(ctx)
    ordered = [found.current] if found.current in found.sessions else []
    return _matching([*ordered, *found.sessions], incomplete)


def _session_players(ctx: click.Context) -> tuple[str, ...]:
    """The players of the session the line names (``--session`` or a SESSION argument),
    else of the current one; for ``romme new``, the players typed before."""
    if ctx.command.name == "new":
        typed = ctx.params.get("players")
        return tuple(typed) if isinstance(typed, (tuple, list)) else ()
    found = names(ctx)
    session = _param(ctx, "session")
    name = session if isinstance(session, str) and session else found.current
    if name is None:
        return ()
    if name in found.players:
        return found.players[name]
    folded = {k.casefold(): v for k, v in found.players.items()}
    return folded.get(name.strip().casefold(), ())


@quietly
def players(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A player of the session (``--winner``, ``--dealer``, ``--never-out``)."""
    return _matching(_session_players(ctx), incomplete)


@quietly
def hands(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """``NAME=`` for each player whose hand is not on the line yet (nor the winner's)."""
    if "=" in incomplete:
        return []
    given = {str(h).partition("=")[0].strip().casefold() for h in ctx.params.get("hands") or ()}
    winner = ctx.params.get("winner")
    if isinstance(winner, str):
        given.add(winner.strip().casefold())
    left = [p for p in _session_players(ctx) if p.casefold() not in given]
    return _matching(left, incomplete, "=")


@quietly
def everyone(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A player of any session (``romme stats --player``, ``--vs``)."""
    return _matching((p for ps in names(ctx).players.values() for p in ps), incomplete)


@quietly
def tournaments(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """Tournament names, the current one first."""
    found = names(ctx)
    ordered = [found.current_tournament] if found.current_tournament in found.tournaments else []
    return _matching([*ordered, *found.tournaments], incomplete)


@quietly
def entrants(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """A player of the tournament named before (``romme tournament withdraw NAME <Tab>``)."""
    found = names(ctx)
    name = ctx.params.get("name")
    tournament = name if isinstance(name, str) else found.current_tournament
    return _matching(found.entrants.get(tournament or "", ()), incomplete)


@quietly
def presets(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """The rule presets (``romme rules <Tab>``, ``--preset``)."""
    from romme_score.rules import PRESETS

    return _matching(PRESETS, incomplete)


@quietly
def leagues(ctx: click.Context, param: click.Parameter, incomplete: str) -> list[CompletionItem]:
    """League names (``romme league standings <Tab>``), read as the other names are."""
    from romme_score.paths import default_location
    from romme_score.store import StoreError, location_path, open_store

    db = _given(ctx, "db")
    path = location_path(db if isinstance(db, str) and db else default_location())
    if path is None or not path.is_file():  # a server is not waited for; no file is made
        return []
    try:
        with open_store(path, create=False, read_only=True) as store:
            return _matching(store.league_names(), incomplete)
    except StoreError:  # not ours, damaged, unreadable, before leagues: no names
        return []


COMPLETERS: dict[str, Completer] = {
    "sessions": sessions,
    "players": players,
    "hands": hands,
    "everyone": everyone,
    "tournaments": tournaments,
    "leagues": leagues,
    "entrants": entrants,
    "presets": presets,
}
