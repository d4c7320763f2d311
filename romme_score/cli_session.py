"""Session commands of ``romme``: new, round, undo, edit, standings, sessions, use,
export, import. They keep score in the SQLite store."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar, cast

import click

from romme_score.cards import NotationError, parse_cards
from romme_score.cli import (
    InputError,
    Output,
    Refused,
    fail_input,
    output_options,
    parse_decimal,
    rule_options,
)
from romme_score.rules import GameEnd, RuleError, RuleSet
from romme_score.scoring import (
    GameState,
    Hand,
    RoundError,
    RoundInput,
    RoundScore,
    game_state,
    replay,
    score_round,
    unknown_player_message,
)

if TYPE_CHECKING:  # keeps sqlite3 off the start-up path of 'romme check'
    from romme_score.store import SessionInfo, Store

F = TypeVar("F", bound=Callable[..., Any])
SHOWN_ROUNDS = 30  # rounds shown in the standings table unless --all


def db_option(func: F) -> F:
    return click.option(
        "--db", type=click.Path(dir_okay=False, path_type=Path), envvar="ROMME_DB",
        help="Database file (default: romme-score/romme.sqlite3 in the user data directory; "
             "env ROMME_DB).")(func)


def session_option(func: F) -> F:
    return click.option("--session", metavar="NAME",
                        help="The session (default: the current one).")(func)


@contextmanager
def open_store(db: str | Path | None, create: bool = True) -> Iterator[Store]:
    from romme_score.store import Store, StoreBusy, StoreError, default_path

    try:
        store = Store(Path(db) if db else default_path(), create=create)
    except StoreBusy as exc:
        raise Refused(str(exc)) from None
    except StoreError as exc:
        raise Refused(str(exc)) from None
    try:
        yield store
    except StoreBusy as exc:
        raise Refused(str(exc)) from None
    except StoreError as exc:
        raise Refused(str(exc)) from None
    finally:
        store.close()


def get_session(store: Store, name: str | None) -> SessionInfo:
    from romme_score.store import NotFound

    try:
        return store.session(name)
    except NotFound as exc:
        raise Refused(str(exc)) from None


# --- standings --------------------------------------------------------------------

def build_standings(store: Store, session: SessionInfo, last: int | None = None) -> Any:
    from romme_score.views import RoundRow, Standings

    rows = [RoundRow(*r) for r in store.round_points(session, last=last)]
    count = store.round_count(session)
    totals = store.totals(session)
    board = store.leaderboard(session) if session.rules.leaderboard else None
    state = game_state(session.players, totals, count, session.rules)
    dealer = session.players[(session.first_dealer + count) % len(session.players)]
    return Standings(session.name, session.players, session.rules, rows, count, totals, board,
                     state, dealer)


# --- parsing hands ----------------------------------------------------------------

def parse_hand_text(name: str, text: str, out: Output, never_out: bool = False) -> Hand:
    value = text.strip()
    if value.lstrip("-").isdigit():
        points = int(value)
        if points < 0:
            fail_input(f"{name}={value}: points left in hand cannot be negative")
        return Hand(points=points, never_out=never_out)
    if not value:
        fail_input(f"{name}= has nothing after '=': give the cards left in hand, or 0")
    try:
        return Hand(cards=tuple(parse_cards(value, out.profile)), never_out=never_out)
    except NotationError as exc:
        fail_input(f"{name}: {exc}")


def parse_hands(items: Sequence[str], players: Sequence[str], never_out: Sequence[str],
                out: Output) -> dict[str, Hand]:
    hands: dict[str, Hand] = {}
    lookup = {p.lower(): p for p in players}
    for marked_name in never_out:
        if marked_name.lower() not in lookup:
            fail_input("--never-out: " + unknown_player_message(marked_name, players))
    marked = {lookup[n.lower()] for n in never_out}
    for item in items:
        if "=" not in item:
            fail_input(f"'{item}' needs the form NAME=CARDS or NAME=POINTS, "
                       f"e.g. {players[0]}=\"HK K10 J\"")
        raw, _, text = item.partition("=")
        name = lookup.get(raw.strip().lower())
        if name is None:
            fail_input(unknown_player_message(raw.strip(), players))
        if name in hands:
            fail_input(f"{name} is given twice in this round")
        hands[name] = parse_hand_text(name, text, out, name in marked)
    for name in marked - set(hands):
        hands[name] = Hand(points=None, never_out=True)
    return hands


def resolve_player(name: str | None, players: Sequence[str], what: str) -> str | None:
    if name is None:
        return None
    lookup = {p.lower(): p for p in players}
    found = lookup.get(name.strip().lower())
    if found is None:
        fail_input(f"{what}: " + unknown_player_message(name, players))
    return found


def describe_round(players: Sequence[str], rnd: RoundInput, score: RoundScore, out: Output) -> str:
    from tabulate import tabulate

    rows = []
    for p in players:
        hand = rnd.hands.get(p)
        shown = ""
        if hand is not None and hand.cards is not None:
            shown = out.cards(hand.cards)
        elif hand is not None and hand.points is not None:
            shown = f"({hand.points} counted)"
        note = ""
        if p == rnd.winner:
            note = "went out" + (" (Hand-Rommé)" if rnd.hand_romme else "")
            if hand is not None and hand.cards:
                note += ", cards shown for control, not counted"
            if score.bonus.get(p):
                note += f"; bonus -{score.bonus[p]}"
        elif score.multiplier.get(p, 1) > 1:
            note = f"{score.base[p]} x {score.multiplier[p]}"
        rows.append([p, shown, score.points[p], note])
    return tabulate(rows, headers=["player", "cards left", "points", ""], tablefmt="simple")


# --- commands ---------------------------------------------------------------------

@click.command()
@click.argument("name")
@click.argument("players", nargs=-1, required=True)
@click.option("--until", help="When the game ends: 500, 1000, any number of points, rounds:N, "
                              "or open (default: the rules' game_end).")
@click.option("--rate", help="Money per penalty point for the settlement, e.g. 0.01.")
@click.option("--currency", help="Currency code, e.g. EUR.")
@click.option("--dealer", metavar="PLAYER", help="Who deals the first round (default: the first).")
@rule_options
@db_option
@output_options
def new(name: str, players: tuple[str, ...], until: str | None, rate: str | None,
        currency: str | None, dealer: str | None, rules: RuleSet, db: Path | None,
        out: Output) -> None:
    """Start a session (a game) and make it current.

    Players are given in seating order, the order in which the deal passes.
    The session keeps the full rule set it was created with.

    \b
    Examples:
      romme new Friday Anna Ben Carl Dora
      romme new Club --preset wiki-51 --until 1000 --rate 0.01 --currency EUR Anna Ben Carl
      romme new Quick --until rounds:5 --dealer Ben Anna Ben
    """
    name = name.strip()
    if not name:
        fail_input("a session needs a name")
    names = [p.strip() for p in players]
    if any(not p or "=" in p for p in names):
        fail_input("player names must be non-empty and must not contain '='")
    seen: set[str] = set()
    for p in names:
        if p.lower() in seen:
            fail_input(f"the player name {p} is given twice: names must be unique")
        seen.add(p.lower())
    if not 2 <= len(names) <= rules.max_players:
        fail_input(f"{len(names)} players, but these rules seat 2 to {rules.max_players} "
                   f"(max_players={rules.max_players})")
    if until is not None:
        try:
            rules = rules.replace(game_end=GameEnd.parse(until))
        except RuleError as exc:
            fail_input(f"--until: {exc}")
    if rate is not None:
        value = parse_decimal(rate, "--rate")
        if value < 0:
            fail_input(f"--rate '{rate}' must not be negative")
        rate = str(value)
    first = 0
    if dealer is not None:
        found = resolve_player(dealer, names, "--dealer")
        first = names.index(cast(str, found))
    with open_store(db) as store:
        store.create_session(name, names, rules, rate, currency.upper() if currency else None,
                             first)
        info = store.session(name)
    if out.json:
        out.dump({"session": name, "players": names, "rules": rules.to_dict(),
                  "next_dealer": names[first]})
        return
    out.echo(f"Session '{name}' started with {', '.join(names)}; game ends at {rules.game_end}.")
    out.echo(f"{names[first]} deals first. Record rounds with: romme round --winner NAME "
             f"{info.players[-1]}=\"CARDS\" ...")


@click.command("round")
@click.argument("hands", nargs=-1)
@click.option("--winner", metavar="PLAYER", help="Who went out.")
@click.option("--hand-romme", is_flag=True, help="The winner went out with a Hand-Rommé.")
@click.option("--stalemate", is_flag=True, help="The stock ran out: the round ends without a winner.")
@click.option("--never-out", multiple=True, metavar="PLAYER",
              help="This player never came out this round (for never_out_doubles; repeatable).")
@click.option("--interactive", "-i", is_flag=True,
              help="Ask for the round step by step (the default on a terminal without hands).")
@click.option("--yes", "-y", is_flag=True, help="Save without asking (interactive mode).")
@session_option
@db_option
@output_options
def round_(hands: tuple[str, ...], winner: str | None, hand_romme: bool, stalemate: bool,
           never_out: tuple[str, ...], interactive: bool, yes: bool, session: str | None,
           db: Path | None, out: Output) -> None:
    """Record one round: the cards each player had left, in card notation.

    Give each other player as NAME="CARDS", or NAME=POINTS when the table
    counted by hand. The winner may be given cards too (002 e/f: shown for
    control, not counted).

    \b
    Examples:
      romme round --winner Anna Ben="HK K10 J" Carl="P7 P8" Dora=23
      romme round --winner Ben --hand-romme Anna="TA T2" Carl=0 Dora="J J"
      romme round --stalemate Anna=12 Ben=30 Carl="HK" Dora=5
      romme round                     (on a terminal: asks step by step)
    """
    with open_store(db) as store:
        info = get_session(store, session)
        ask = interactive or (not hands and winner is None and not stalemate
                              and sys.stdin.isatty())
        if ask:
            rnd = _ask_round(info, out)
        else:
            parsed = parse_hands(hands, info.players, never_out, out)
            rnd = RoundInput(resolve_player(winner, info.players, "--winner"), parsed,
                             hand_romme, stalemate)
        totals = store.totals(info)
        count = store.round_count(info)
        state = game_state(info.players, totals, count, info.rules)
        if state.finished:
            raise Refused(f"the game of session '{info.name}' is over"
                          + (f" ({state.winner} won)" if state.winner else "")
                          + ": start a new one with 'romme new'")
        try:
            preview = score_round(info.players, totals, rnd, info.rules)
        except RoundError as exc:
            fail_input(str(exc))
        if ask and not yes:
            out.echo(describe_round(info.players, rnd, preview, out))
            if not click.confirm("Save this round?", default=True):
                out.echo("Not saved.")
                return

        def compute(before: dict[str, int], played: int) -> RoundScore:
            return score_round(info.players, before, rnd, info.rules)

        number, score = store.record_round(info, rnd, compute, lambda s: s)
        result = build_standings(store, info, last=0)
    if out.json:
        from romme_score.views import standings_json

        data = standings_json(result)
        data["round"] = {"number": number, "points": score.points, "bonus": score.bonus}
        out.dump(data)
        return
    out.echo(f"Round {number} of '{info.name}':")
    out.echo(describe_round(info.players, rnd, score, out))
    out.echo("")
    out.echo("Totals: " + ", ".join(f"{p} {result.totals[p]}" for p in info.players))
    if result.state.finished:
        if result.state.winner:
            out.echo(f"Game over: {result.state.winner} won with "
                     f"{result.totals[result.state.winner]} points.")
        else:
            out.echo(f"Game over: a tie between {', '.join(result.state.tied)}.")
    else:
        out.echo(f"Next to deal: {result.next_dealer}")


def _ask_round(info: SessionInfo, out: Output) -> RoundInput:
    players = info.players
    while True:
        answer = click.prompt(f"Who went out? ({', '.join(players)}, or 'none' for a stalemate)")
        if answer.strip().lower() in ("none", "-", "stalemate"):
            winner = None
            break
        lookup = {p.lower(): p for p in players}
        if answer.strip().lower() in lookup:
            winner = lookup[answer.strip().lower()]
            break
        click.echo(unknown_player_message(answer.strip(), players), err=True)
    hand_romme = winner is not None and click.confirm("Hand-Rommé?", default=False)
    hands: dict[str, Hand] = {}
    for p in players:
        if p == winner:
            continue
        while True:
            text = click.prompt(f"{p}'s cards left (or points)")
            try:
                hands[p] = parse_hand_text(p, text, out)
                break
            except InputError as exc:
                click.echo(f"Error: {exc.message}", err=True)
    return RoundInput(winner, hands, hand_romme, winner is None)


@click.command()
@click.option("--yes", "-y", is_flag=True, help="Do not ask.")
@session_option
@db_option
@output_options
def undo(yes: bool, session: str | None, db: Path | None, out: Output) -> None:
    """Remove the last round (kept in the history).

    \b
    Examples:
      romme undo
      romme undo --yes --session Friday
    """
    with open_store(db) as store:
        info = get_session(store, session)
        last = store.rounds(info, last=1)
        if not last:
            raise Refused(f"session '{info.name}' has no rounds to undo")
        rec = last[0]
        summary = ", ".join(f"{p} {rec.hands[p].points}" for p in info.players)
        if not yes:
            try:
                agreed = click.confirm(f"Remove round {rec.number} ({summary})?", default=False)
            except click.Abort:  # no answer (end of input): nothing is removed
                raise Refused(f"romme undo asks before removing round {rec.number}; "
                              "without a terminal, give --yes") from None
            if not agreed:
                out.echo("Nothing removed.")
                return
        store.undo_last(info)
        totals = store.totals(info)
    if out.json:
        out.dump({"undone": rec.number, "totals": totals})
        return
    out.echo(f"Round {rec.number} removed. Totals: "
             + ", ".join(f"{p} {totals[p]}" for p in info.players))


@click.command()
@click.argument("round_number", metavar="ROUND", type=int)
@click.argument("hands", nargs=-1)
@click.option("--winner", metavar="PLAYER", help="Change who went out.")
@click.option("--hand-romme/--no-hand-romme", default=None, help="Change the Hand-Rommé mark.")
@click.option("--stalemate/--no-stalemate", default=None, help="Change the stalemate mark.")
@click.option("--never-out", multiple=True, metavar="PLAYER",
              help="Mark a player as never out in this round (repeatable).")
@session_option
@db_option
@output_options
def edit(round_number: int, hands: tuple[str, ...], winner: str | None,
         hand_romme: bool | None, stalemate: bool | None, never_out: tuple[str, ...],
         session: str | None, db: Path | None, out: Output) -> None:
    """Correct a recorded round; every later total is recomputed.

    Only what is given changes. The old version stays in the history.

    \b
    Examples:
      romme edit 3 Ben="HK K10"
      romme edit 3 --winner Carl Anna="P7 P8"
      romme edit 5 --no-hand-romme
    """
    with open_store(db) as store:
        info = get_session(store, session)
        records = store.rounds(info)
        if not 1 <= round_number <= len(records):
            fail_input(f"there is no round {round_number} in session '{info.name}' "
                       f"(rounds 1-{len(records)})")
        inputs = [r.to_input(info.players) for r in records]
        old = inputs[round_number - 1]
        changed_hands = parse_hands(hands, info.players, never_out, out)
        new_winner = resolve_player(winner, info.players, "--winner") if winner else old.winner
        new_stalemate = old.stalemate if stalemate is None else stalemate
        if new_stalemate and winner is None and stalemate:
            new_winner = None
        merged = {**old.hands, **changed_hands}
        if new_winner is not None:
            if new_winner not in changed_hands:
                merged.pop(new_winner, None)
        new = RoundInput(new_winner, merged,
                         old.hand_romme if hand_romme is None else hand_romme, new_stalemate)
        inputs[round_number - 1] = new
        prefix = inputs[:round_number - 1]
        try:
            before = replay(info.players, info.rules, prefix)
            start = {p: sum(s.points[p] - s.bonus.get(p, 0) for s in before)
                     for p in info.players}
            later = replay(info.players, info.rules, inputs[round_number - 1:], start, round_number)
        except RoundError as exc:
            fail_input(str(exc))
        store.replace_rounds(info, round_number, inputs[round_number - 1:], later,
                             {round_number})
        totals = store.totals(info)
    if out.json:
        out.dump({"edited": round_number, "points": later[0].points, "totals": totals})
        return
    out.echo(f"Round {round_number} corrected:")
    out.echo(describe_round(info.players, new, later[0], out))
    out.echo("Totals: " + ", ".join(f"{p} {totals[p]}" for p in info.players))


@click.command()
@click.option("--all", "show_all", is_flag=True, help=f"Show every round (default: the last "
                                                       f"{SHOWN_ROUNDS}).")
@session_option
@db_option
@output_options
def standings(show_all: bool, session: str | None, db: Path | None, out: Output) -> None:
    """The scoresheet: points per round and player, totals, who deals next.

    \b
    Examples:
      romme standings
      romme standings --session Friday --json
    """
    from romme_score.views import render_standings, standings_json

    with open_store(db) as store:
        info = get_session(store, session)
        last = None if (show_all or out.json) else SHOWN_ROUNDS
        result = build_standings(store, info, last=last)
        corrections = store.history(info)
    if out.json:
        data = standings_json(result)
        data["corrections"] = [{"round": number, "change": "edited" if status == "replaced"
                                else status, "at": at} for number, status, at in corrections]
        out.dump(data)
        return
    first_shown = result.rounds[0].number if result.rounds else None
    out.echo(f"Session '{info.name}'")
    out.echo(render_standings(result, first_shown))
    if corrections:
        out.echo("Corrections kept in the history: " + "; ".join(
            f"round {number} {'edited' if status == 'replaced' else status} {at or ''}".rstrip()
            for number, status, at in corrections))


@click.command()
@db_option
@output_options
def sessions(db: Path | None, out: Output) -> None:
    """List the sessions: players, rounds, date, finished.

    \b
    Example:
      romme sessions
    """
    from tabulate import tabulate

    with open_store(db) as store:
        current = store.current_name()
        rows = []
        for info, count, totals in store.session_overview():
            state = game_state(info.players, totals, count, info.rules)
            rows.append((info, count, state))
    if out.json:
        out.dump([{"name": i.name, "players": list(i.players), "rounds": c,
                   "created": i.created_at, "finished": s.finished, "winner": s.winner,
                   "current": i.name == current} for i, c, s in rows])
        return
    if not rows:
        out.echo("No sessions yet: start one with 'romme new NAME PLAYER PLAYER ...'.")
        return
    out.echo(tabulate([[("* " if i.name == current else "  ") + i.name, ", ".join(i.players), c,
                        i.created_at[:10], ("yes, " + s.winner if s.winner else "yes")
                        if s.finished else "no"] for i, c, s in rows],
                      headers=["session", "players", "rounds", "date", "finished"]))


@click.command()
@click.argument("name")
@db_option
@output_options
def use(name: str, db: Path | None, out: Output) -> None:
    """Make a session the current one.

    \b
    Example:
      romme use Friday
    """
    from romme_score.store import NotFound

    with open_store(db) as store:
        try:
            store.set_current(name)
        except NotFound as exc:
            raise Refused(str(exc)) from None
    out.echo(f"'{name}' is now the current session.")


EXPORT_FORMAT = "romme-score session"
EXPORT_VERSION = 1


def session_to_json(store: Store, info: SessionInfo) -> dict[str, Any]:
    rounds = []
    for rec in store.rounds(info):
        hands = {}
        for p, h in rec.hands.items():
            if h.cards is None and h.typed_points is None and not h.never_out:
                continue
            entry: dict[str, Any] = {}
            if h.cards is not None:
                entry["cards"] = h.cards
            if h.typed_points is not None:
                entry["points"] = h.typed_points
            if h.never_out:
                entry["never_out"] = True
            hands[p] = entry
        rounds.append({"number": rec.number, "winner": rec.winner, "hand_romme": rec.hand_romme,
                       "stalemate": rec.stalemate, "hands": hands,
                       "points": {p: h.points for p, h in rec.hands.items()},
                       "bonus": {p: h.bonus for p, h in rec.hands.items() if h.bonus}})
    return {"format": EXPORT_FORMAT, "version": EXPORT_VERSION, "name": info.name,
            "players": list(info.players), "rules": info.rules.to_dict(), "rate": info.rate,
            "currency": info.currency, "first_dealer": info.players[info.first_dealer],
            "created": info.created_at, "rounds": rounds}


@click.command()
@click.option("--format", "fmt", type=click.Choice(["json", "csv"]), default="json",
              show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path),
              help="Write to this file (default: standard output).")
@session_option
@db_option
def export(fmt: str, output: Path | None, session: str | None, db: Path | None) -> None:
    """Export a session: JSON (complete, for 'romme import') or CSV (a scoresheet).

    \b
    Examples:
      romme export -o friday.json
      romme export --format csv --session Friday -o friday.csv
    """
    with open_store(db) as store:
        info = get_session(store, session)
        data = session_to_json(store, info)
    if fmt == "json":
        text = json.dumps(data, ensure_ascii=False, indent=2) + "\n"
    else:
        import csv
        import io

        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(["round", "winner", "hand_romme", "stalemate", *info.players,
                         *(f"{p} cards" for p in info.players)])
        for r in data["rounds"]:
            writer.writerow([r["number"], r["winner"] or "", int(r["hand_romme"]),
                             int(r["stalemate"]),
                             *(r["points"][p] - r["bonus"].get(p, 0) for p in info.players),
                             *(r["hands"].get(p, {}).get("cards", "") for p in info.players)])
        text = buffer.getvalue()
    if output is None:
        click.echo(text, nl=False)
    else:
        try:
            output.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise Refused(f"cannot write {output}: {exc.strerror}") from None
        click.echo(f"Session '{info.name}' written to {output}.")


def session_from_json(data: Any) -> tuple[str, list[str], RuleSet, str | None, str | None, int,
                                          list[RoundInput], list[RoundScore]]:
    """Validate an exported session completely; raise ValueError with one sentence."""
    if not isinstance(data, dict) or data.get("format") != EXPORT_FORMAT:
        raise ValueError("this is not a romme-score session export (no \"format\": "
                         f"\"{EXPORT_FORMAT}\")")
    if data.get("version") != EXPORT_VERSION:
        raise ValueError(f"export version {data.get('version')} is not supported "
                         f"(this romme-score reads version {EXPORT_VERSION})")
    name = data.get("name")
    players = data.get("players")
    if not isinstance(name, str) or not name.strip():
        raise ValueError("the export has no session name")
    if not isinstance(players, list) or not all(isinstance(p, str) and p for p in players):
        raise ValueError("the export's players must be a list of names")
    if len(set(players)) != len(players):
        raise ValueError("the export names a player twice")
    try:
        rules = RuleSet.from_dict(data.get("rules") or {})
    except (RuleError, TypeError) as exc:
        raise ValueError(f"the export's rules: {exc}") from None
    if not 2 <= len(players) <= rules.max_players:
        raise ValueError(f"{len(players)} players do not fit max_players={rules.max_players}")
    rate = data.get("rate")
    if rate is not None:
        try:
            rate = str(Decimal(str(rate)))
        except ArithmeticError:
            raise ValueError(f"the export's rate {rate!r} is not a decimal") from None
    currency = data.get("currency")
    dealer = data.get("first_dealer", players[0])
    if dealer not in players:
        raise ValueError(f"the export's first dealer {dealer!r} is not a player")
    inputs: list[RoundInput] = []
    for i, r in enumerate(data.get("rounds") or [], 1):
        if not isinstance(r, dict):
            raise ValueError(f"round {i} of the export is not an object")
        hands: dict[str, Hand] = {}
        for p, h in (r.get("hands") or {}).items():
            if p not in players:
                raise ValueError(f"round {i}: {unknown_player_message(p, players)}")
            if not isinstance(h, dict):
                raise ValueError(f"round {i}: the hand of {p} is not an object")
            cards = None
            if h.get("cards") is not None:
                try:
                    cards = tuple(parse_cards(str(h["cards"])))
                except NotationError as exc:
                    raise ValueError(f"round {i}, {p}: {exc}") from None
            points = h.get("points")
            if points is not None and (not isinstance(points, int) or isinstance(points, bool)
                                       or points < 0):
                raise ValueError(f"round {i}, {p}: points must be a whole number >= 0")
            hands[p] = Hand(cards, points, bool(h.get("never_out", False)))
        winner = r.get("winner")
        inputs.append(RoundInput(winner, hands, bool(r.get("hand_romme")),
                                 bool(r.get("stalemate"))))
    try:
        scores = replay(players, rules, inputs)
    except RoundError as exc:
        raise ValueError(str(exc)) from None
    return (name.strip(), players, rules, rate, currency, players.index(dealer), inputs, scores)


@click.command("import")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path, allow_dash=True))
@click.option("--name", help="Import under this session name.")
@click.option("--replace", is_flag=True, help="Overwrite a session of the same name.")
@db_option
@output_options
def import_(file: Path, name: str | None, replace: bool, db: Path | None, out: Output) -> None:
    """Import a session exported as JSON; checks everything before writing anything.

    \b
    Examples:
      romme import friday.json
      romme import friday.json --name Friday-copy
      romme import friday.json --replace
    """
    try:
        text = sys.stdin.read() if str(file) == "-" else file.read_text(encoding="utf-8")
    except OSError as exc:
        fail_input(f"cannot read {file}: {exc.strerror}")
    except UnicodeDecodeError:
        fail_input(f"{file} is not a text file")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        fail_input(f"{file} is not valid JSON: {exc.msg} at line {exc.lineno}")
    try:
        sname, players, rules, rate, currency, dealer, inputs, scores = session_from_json(data)
    except ValueError as exc:
        fail_input(f"{file}: {exc}")
    sname = name or sname
    with open_store(db) as store:
        store.import_session(sname, players, rules, rate, currency, dealer, inputs, scores,
                             overwrite=replace)
    out.echo(f"Session '{sname}' imported with {len(inputs)} rounds; it is now current.")


def session_totals(db: str | None, names: Sequence[str]) -> tuple[
        list[dict[str, int]], list[Decimal], str | None, dict[str, int] | None]:
    """Totals of the given sessions (or the current one) for the settlement."""
    from romme_score.scoring import place_bonus

    games: list[dict[str, int]] = []
    rates: list[Decimal] = []
    currency = None
    board: dict[str, int] | None = None
    with open_store(db, create=False) as store:
        chosen: list[str | None] = list(names) or [None]
        for name in chosen:
            info = get_session(store, name)
            games.append(store.totals(info))
            rates.append(Decimal(info.rate) if info.rate else Decimal("0.01"))
            currency = currency or info.currency
            if info.rules.leaderboard:
                part = store.leaderboard(info)
                count = store.round_count(info)
                state: GameState = game_state(info.players, games[-1], count, info.rules)
                if state.finished:
                    for p, extra in place_bonus(info.players, games[-1]).items():
                        part[p] += extra
                board = board or {}
                for p, v in part.items():
                    board[p] = board.get(p, 0) + v
    return games, rates, currency, board
