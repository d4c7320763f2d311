"""The table mode at a terminal: the standings redrawn above the prompt after every change
and kept in the toolbar, a round recorded by typing its winner, and every other command
of the evening run in the same window.

Two processes on one database: the table notices a change made elsewhere (another
``romme play``, ``romme round`` in another terminal, a phone) while it waits at its
prompt and redraws; a round typed meanwhile is not saved into a changed session without
being shown again under its new number. Whether the session changed is the session
service's answer (:meth:`SessionService.changed_since`, a counter in the database), asked
twice a second; the session is followed by its id, so a rename elsewhere is followed too.

The words typed at the prompt (``undo``, ``settle``, ``hilfe``...) are the registry's
(:mod:`romme_score.table.words`): the ``romme`` commands of their names, and the few that
need the terminal (the round entry, ``edit N``). The table mode imports nothing of the
command line: ``romme play`` hands it the function that runs a line as a ``romme``
command line (:mod:`romme_score.cli.inside`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import click

from romme_score.i18n import _
from romme_score.inputs import ChoiceProblem, PlayerChoiceError, choose_player
from romme_score.scoring import RoundError, RoundInput
from romme_score.sessions import (
    GameOver,
    PendingChanged,
    PendingRound,
    SessionInfo,
    SessionInputError,
    SessionService,
    Snapshot,
    Standings,
)
from romme_score.store import StoreError
from romme_score.table.commands import NOT_INSIDE, LineError, split_line
from romme_score.table.entry import STALEMATE_WORDS, RoundEntry, Step
from romme_score.table.front import (
    CHANGED,
    KeptRound,
    PromptAsker,
    TakenElsewhere,
    card_words,
    drive,
    make_line_completer,
    terminal_width,
    watching,
)
from romme_score.table.handlers import Place
from romme_score.table.words import Word, find, names, offered_words, suggestions
from romme_score.views import play as views
from romme_score.views.output import Output

RunLine = Callable[[list[str], bool], int]  # a line's words, a person at the terminal -> exit code
WORDS = names()  # every word and alias typed at the prompt (the registry: table/words.py)


class Table:
    """One session at the table: the loop of ``romme play``."""

    def __init__(
        self,
        service: SessionService,
        info: SessionInfo,
        out: Output,
        run_line: RunLine,
        history_file: str | None = None,
    ) -> None:
        self.service = service
        self.info = info
        self.out = out
        self.run_line = run_line
        self.seen = -1  # the session's version as last drawn
        self.snap: Snapshot  # the session as last drawn (the service's snapshot)
        self.current = self.refresh()
        self.history_file = history_file
        self._asker: PromptAsker | None = None
        self.place = Place(run_line, table=self)

    @property
    def asker(self) -> PromptAsker:
        """The prompts, made on first use (the benchmark saves rounds without a terminal)."""
        if self._asker is None:
            self._asker = PromptAsker(self.toolbar, self.out.profile, self.history_file)
        return self._asker

    # -- the screen -----------------------------------------------------------------------

    def toolbar(self) -> str:
        return views.toolbar_text(self.current, terminal_width())

    def refresh(self) -> Standings:
        """Read the session again (by its id: it may have been renamed elsewhere): the
        service's snapshot, as every door shows it, with the panel's last rounds."""
        try:
            self.info = self.service.session_by_id(self.info.id)
        except StoreError:  # deleted elsewhere: the standings below say so
            pass
        self.snap = self.service.snapshot(self.info, last=views.PANEL_ROUNDS)
        self.seen = self.snap.version
        self.current = self.snap.standings
        return self.current

    def redraw(self) -> None:
        """Read the session again and print the panel, and below it the round in progress
        (the phones', ``romme serve``, or one begun here), if any."""
        click.echo(self.out.text(views.render_panel(self.refresh(), terminal_width())))
        if not self.snap.pending.empty:
            self._pending_lines()

    def show_change(self) -> None:
        """What changed elsewhere while the window waited: where only the round in progress
        did (a phone sent a hand), a line for each hand as it came (issue 30 item 7); where
        it began, what it holds; else the standings redrawn, saying so."""
        before, name = self.snap, self.info.name
        self.refresh()
        after, width = self.snap, terminal_width()
        if after.pending.empty or before.standings != after.standings or self.info.name != name:
            self.say(views.changed_elsewhere(self.info.name))
            click.echo(self.out.text(views.render_panel(self.current, width)))
            if not after.pending.empty:
                self._pending_lines()
            return
        if before.pending.empty:  # a round begins on the phones
            self._pending_lines()
            return
        news = views.phone_news(
            self.info.players, before.pending, after.pending, self.out.cards, after.counts
        )
        if news:
            click.echo(self.out.text(views.fit("\n".join(news), width, indent="  ")))

    def _pending_lines(self) -> None:
        lines = views.pending_lines(
            self.info.players, self.snap.pending, self.snap.missing, self.out.cards, self.snap.counts
        )
        click.echo(self.out.text(views.fit(lines, terminal_width(), indent="  ")))

    def changed_elsewhere(self) -> bool:
        """Whether the session changed since the standings were last drawn (asked of the
        service: cheap enough for twice a second)."""
        return self.service.changed_since(self.info, self.seen)

    @property
    def number(self) -> int:
        return self.current.rounds_played + 1

    # -- the loop ---------------------------------------------------------------------------

    def run(self) -> int:
        self.redraw()
        while True:
            try:
                line = self.asker.main.prompt(
                    views.main_prompt(self.info.name, self.number),
                    completer=make_line_completer(self.offers),  # type: ignore[arg-type]
                    bottom_toolbar=self.asker.bottom(views.winner_toolbar(self.info.players)),
                    pre_run=self._watch,
                )
            except KeyboardInterrupt:
                continue
            except EOFError:
                break
            if line == CHANGED:
                self.show_change()
                continue
            if not self.dispatch(line):
                break
        click.echo(_(views.BYE))
        return 0

    def offers(self, before: str) -> list[str]:
        """What Tab offers for the word before the cursor (``before``: the line up to it):
        at the start a player or a word; after a word what it takes (its registry entry)."""
        parts = before.split()
        current = "" if not parts or before[-1:].isspace() else parts[-1]
        done = parts[:-1] if current else parts
        if not done:
            return [*self.info.players, *offered_words()]
        word = find(done[0])
        if word is None:
            return []
        previous = done[-1]
        if current.startswith("-"):
            return list(word.options)
        if previous in ("--winner", "--dealer", "--never-out"):
            return list(self.info.players)
        if previous in ("-o", "--output"):
            return _files(current)
        offered: list[str] = []
        for kind in word.complete:
            if kind == "players":
                offered += self.info.players
            elif kind == "hands":
                offered += [f"{p}=" for p in self.info.players]
            elif kind == "sessions":
                offered += [row.info.name for row in self.service.overview()]
            elif kind == "rounds" and len(done) == 1:  # the round's number comes first
                return [str(n) for n in range(1, self.current.rounds_played + 1)]
            elif kind == "cards":
                offered += card_words(self.out.profile, current)
            elif kind == "files":
                offered += _files(current)
        return offered

    def _watch(self) -> None:
        """While the main prompt waits, poll the database; leave the prompt (to redraw)
        when another process changed the session and nothing is typed yet."""
        watching(self.changed_elsewhere)()

    def dispatch(self, line: str) -> bool:
        """Run one line typed at the main prompt; False to leave."""
        try:
            typed = split_line(line)
        except LineError as exc:
            self.error(str(exc))
            return True
        if not typed:
            return True
        word = find(typed[0])
        if word is not None and word.leaves:
            return False
        if word is not None:
            self.run_word(word, typed[1:])
        elif typed[0].lower() in NOT_INSIDE:
            self.error(views.not_inside(typed[0].lower()))
        else:
            unknown = self.unknown_line(line.strip(), typed[0].lower())
            if unknown is not None:
                self.error(unknown)
            else:
                self.record(line)
        return True

    def run_word(self, word: Word, args: list[str]) -> int:
        """Run a word of the registry; what it prints (a verdict, an error, the ``undo``
        question) wrapped at spaces to the window. A round asked step by step is drawn by
        prompt_toolkit on the terminal itself: only its errors are wrapped. After ``new``
        or ``use`` the session it made current is played here."""
        from romme_score.table.wrapped import wrapped_output

        if word.follows and "--help" not in args:
            code = run_fitted(lambda: self.place.run(word.name, word.handler, args))
            if code == 0:
                self.follow()  # the new game, or the one chosen, is played here now
            return code
        with wrapped_output(terminal_width(), out=not word.draws):
            code = self.place.run(word.name, word.handler, args)
        if self.changed_elsewhere():  # the word changed it, or someone else did
            self.redraw()
        return code

    def export_file(self, fmt: str) -> str:
        """``export`` without ``-o``: a new file in this folder, named after the session (in
        this folder: its name says it)."""
        return export_path(self.info.name, fmt).name

    def unknown_line(self, typed: str, word: str) -> str | None:
        """The sentence for a line that is neither a command nor a player (a typo of a
        command, ``stats``), with the closest command or player; None for a round's
        winner, or for what the round entry words itself (no seat 5, Ann or Anna)."""
        import difflib

        if typed.casefold() in STALEMATE_WORDS:
            return None
        try:
            choose_player(typed, self.info.players)
        except PlayerChoiceError as exc:
            if exc.problem is not ChoiceProblem.UNKNOWN:
                return None
            commands = suggestions()
            close_command = difflib.get_close_matches(word, commands, n=1, cutoff=0.6)
            close: str | None = exc.close
            if close_command:
                command_ratio = difflib.SequenceMatcher(None, word, close_command[0]).ratio()
                player_ratio = (
                    difflib.SequenceMatcher(None, typed.casefold(), close.casefold()).ratio()
                    if close
                    else 0.0
                )
                if command_ratio > player_ratio:  # a tie goes to the player (bne: Ben)
                    close = close_command[0]
            return views.unknown_command_or_player(typed, close, self.info.players)
        return None

    def follow(self) -> None:
        """Play the current session here from now on (after ``new`` or ``use``)."""
        try:
            self.info = self.service.session(None)
        except StoreError as exc:
            self.error(str(exc))
            return
        self.redraw()

    def say(self, text: str) -> None:
        click.echo(views.fit(text, terminal_width()))

    def error(self, text: str) -> None:
        """An error of the table itself, in the run's language, wrapped to the window."""
        click.echo(views.fit(views.error_line(text), terminal_width(), indent="  "), err=True)

    # -- a round ----------------------------------------------------------------------------

    def record(self, first: str | None) -> None:
        """Enter a round (``first`` is what was typed as its winner) and save it: the round
        in progress, with whatever the phones sent of it already (``romme serve``)."""
        self._enter(first, self.service.pending(self.info))

    def phones(self) -> None:
        """``phones``: the round the phones sent (``romme serve``) in the same entry, the
        hands still missing asked here; Enter saves it, and it is gone from the phones."""
        pending = self.service.pending(self.info)
        if pending.empty:
            click.echo(views.no_pending())
            return
        self._enter(None, pending)

    def _enter(self, first: str | None, pending: PendingRound) -> None:
        """The round in progress typed here, each answer kept in the database as it is
        given (:class:`~romme_score.table.front.KeptRound`), saved with Enter."""
        self.refresh()
        try:
            self.service.check_open(self.info)  # the service says whether a round may come
        except GameOver as over:
            line = views.game_over_no_round(
                views.distance_line(self.current), over.tournament, over.ended, over.series_drawn
            )
            click.echo(views.fit(line, terminal_width()))
            return
        entry = RoundEntry(
            self.service.referee(self.info, dealer=self.current.next_dealer), profile=self.out.profile
        )
        kept = KeptRound(self.service, self.info, pending)
        if not pending.empty:
            entry.load(pending.to_input())
        number = self.number
        try:
            if first is not None:
                entry.step = Step.WINNER  # what was typed at the prompt is who went out
                entry.answer(first)
                kept.follow(entry)
            while True:
                rnd = drive(entry, self.asker, self.info.name, number, self.out, kept=kept)
                try:
                    if self.save(rnd, kept.revision):
                        return
                except PendingChanged:  # a phone sent a hand meanwhile: the round shown again
                    if kept.saved_elsewhere():
                        raise TakenElsewhere() from None
                    pending = self.service.pending(self.info)
                    number = self.number
                    click.echo(views.fit(views.pending_changed(), terminal_width()))
                    entry.load(pending.to_input())
                    kept.reset(pending)
                    continue
                number = self.number  # another process saved a round meanwhile: show it again
                click.echo(views.fit(views.changed_before_save(self.info.name, number), terminal_width()))
                entry.recheck()
        except TakenElsewhere:
            click.echo(views.fit(views.taken_elsewhere(number), terminal_width()))
            self.redraw()
        except (KeyboardInterrupt, EOFError):
            gone = kept.discard()
            click.echo(views.fit(views.discarded(number), terminal_width()))
            if gone or kept.began_empty and self.service.pending(self.info).empty:
                self.seen = self.service.version(self.info)  # its own writes are no news here
            else:
                self.redraw()  # the round in progress stays: the phones' (with what was typed into it)
        except StoreError as exc:  # the game ended elsewhere, the database is busy, ...
            self.error(str(exc))
            self.redraw()

    def save(self, rnd: RoundInput, revision: int | None = None) -> bool:
        """What Enter at the summary does: save the round (the round in progress at
        ``revision``, cleared with it) in one transaction and redraw the standings; False
        (nothing saved, standings redrawn) when rounds were saved, corrected or taken back
        elsewhere since they were drawn; :class:`PendingChanged` when a phone changed the
        round in progress meanwhile."""
        if self.rounds_changed():
            return False
        recorded = self.service.record(self.info, rnd, pending=revision, confirm=True)  # the entry asked
        click.echo(views.saved_line(recorded.number, self.info.name))
        self.redraw()
        return True

    def rounds_changed(self) -> bool:
        """Whether rounds were saved, corrected or taken back elsewhere since the standings
        were drawn (the round being typed writes the session too: that is not it)."""
        now = self.service.standings(self.info, last=0)
        if (now.rounds_played, dict(now.totals)) == (self.current.rounds_played, dict(self.current.totals)):
            return False
        self.redraw()
        return True

    def edit(self, number: int) -> None:
        """``edit N`` alone: round N in the same entry, its summary first; Enter saves the
        correction (every later round is scored again)."""
        try:
            old = self.service.round_input(self.info, number)
        except SessionInputError as exc:
            self.error(str(exc))
            return
        entry = RoundEntry(self.service.referee(self.info, edit=number), profile=self.out.profile)
        entry.load(old)
        try:
            rnd = drive(entry, self.asker, self.info.name, number, self.out)
            self.service.edit(
                self.info, number, rnd.hands, rnd.winner, rnd.hand_romme, rnd.stalemate, confirm=True
            )
        except (KeyboardInterrupt, EOFError):
            click.echo(views.edit_discarded(number))
            return
        except (StoreError, SessionInputError, RoundError) as exc:
            self.error(str(exc))
            self.redraw()
            return
        click.echo(views.edited_line(number, self.info.name))
        self.redraw()


def run_fitted(run: Callable[[], int]) -> int:
    """Run a word whose sentences (``new``'s, ``use``'s) are wrapped to the window, its
    errors too; the command line's hint for recording a round after ``new`` becomes the
    table mode's (the winner is typed at the prompt here)."""
    import contextlib
    import io

    from romme_score.table.wrapped import wrapped_output

    said = io.StringIO()
    with wrapped_output(terminal_width(), out=False), contextlib.redirect_stdout(said):
        code = run()
    if said.getvalue():
        text = views.table_hint(said.getvalue().rstrip("\n"))
        click.echo(views.fit(text, terminal_width(), indent="  "))
    return code


def _files(typed: str) -> list[str]:
    """The files and folders whose path starts with what is typed (``-o`` takes one)."""
    import os

    folder, _sep, _start = typed.rpartition("/")
    try:
        entries = sorted(os.listdir(folder or "."))
    except OSError:
        return []
    prefix = folder + "/" if folder else ""
    return [prefix + e + ("/" if os.path.isdir(prefix + e) else "") for e in entries if not e.startswith(".")]


# --- export without -o ---------------------------------------------------------------------


def export_path(session: str, fmt: str, folder: Path | None = None) -> Path:
    """A file in ``folder`` (the current one) for the session's export that is not there
    yet: its name made of the session's letters and digits, numbered when taken.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     first = export_path("Fri 28/11", "json", Path(d))
    ...     _ = first.write_text("{}")
    ...     print(first.name, export_path("Fri 28/11", "json", Path(d)).name)
    Fri-28-11.json Fri-28-11-2.json
    """
    import re

    folder = folder if folder is not None else Path.cwd()
    stem = re.sub(r"[^\w]+", "-", session, flags=re.UNICODE).strip("-") or "romme"
    path = folder / f"{stem}.{fmt}"
    number = 2
    while path.exists():
        path = folder / f"{stem}-{number}.{fmt}"
        number += 1
    return path


# --- no session yet ------------------------------------------------------------------------


def start_game(run_line: RunLine) -> bool:
    """``romme play`` on a fresh machine (no session yet): ask the game's name and its
    players, and start it with the command line's ``new`` (its checks, its words); False
    when the person leaves (Ctrl-C or Ctrl-D, or ``quit`` for the name). ``help`` says what
    to type; a refused player list asks for the players again, the name kept."""
    import functools

    from prompt_toolkit import PromptSession

    asked = PromptSession[str]()
    width = terminal_width()
    click.echo(views.fit(views.no_game_yet(), width))
    name = ""
    while True:
        try:
            if not name:
                name = asked.prompt(views.game_name_prompt()).strip()
                said = find(name.split(maxsplit=1)[0]) if name else None
                if said is not None and said.leaves:
                    return False
                if said is not None and said.name == "help":
                    click.echo(views.fit(views.start_help(), width, indent="  "))
                    name = ""
                elif said is not None and said.name in FIRST_WORDS:  # new NAME PLAYER ..., use NAME
                    name, started = _first_word(said, name, run_line, width)
                    if started:
                        return True
                elif said is not None:  # a word of the table mode is no game's name
                    shown = name.split(maxsplit=1)[0]
                    click.echo(
                        views.fit(views.error_line(views.not_a_game_name(shown)), width, indent="  "),
                        err=True,
                    )
                    name = ""
                continue  # the players next, or the name again
            typed = asked.prompt(views.players_prompt()).strip()
        except (KeyboardInterrupt, EOFError):
            return False
        said = find(typed)
        if said is not None and said.name == "help":
            click.echo(views.fit(views.start_help(), width, indent="  "))
            continue
        try:
            players = (
                [p.strip() for p in typed.split(",") if p.strip()] if "," in typed else split_line(typed)
            )
        except LineError as exc:
            click.echo(views.fit(views.error_line(str(exc)), width, indent="  "), err=True)
            continue
        if players and run_fitted(functools.partial(run_line, ["new", name, *players], True)) == 0:
            return True


# The words that the question for a new game's name takes as they are typed in the window
# (issue 30 item 9): ``new Abend Anna Ben`` starts that game, ``use Friday`` plays one of a
# database that has no current session; ``help`` and ``quit`` are taken there too.
FIRST_WORDS = ("new", "use")


def _first_word(said: Word, typed: str, run_line: RunLine, width: int) -> tuple[str, bool]:
    """A line typed at the question for a game's name that begins with ``new`` or ``use``:
    (the game's name to ask the players for, whether a game is chosen now). ``new NAME``
    alone asks for the players; a refused line asks for the name again."""
    import functools

    try:
        words = split_line(typed)
    except LineError as exc:
        click.echo(views.fit(views.error_line(str(exc)), width, indent="  "), err=True)
        return "", False
    rest = words[1:]
    if said.name == "new" and len(rest) == 1 and not rest[0].startswith("-"):
        return rest[0], False
    if not rest:
        click.echo(views.fit(views.start_help(), width, indent="  "))
        return "", False
    code = run_fitted(functools.partial(run_line, [said.name, *rest], True))
    return "", code == 0 and "--help" not in rest and "-h" not in rest  # help starts no game
