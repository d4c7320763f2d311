"""Asking a round at a terminal: the loop that shows what the entry says and feeds it
what is typed, with a prompt_toolkit front (completion, history, toolbar) for terminals
and a plain line front for anything else. Shared by ``romme play`` and the interactive
``romme round`` (issue 9 item 7)."""

from __future__ import annotations

import shutil
import sys
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Protocol

import click

from romme_score.cards import Profile
from romme_score.errors import InputProblem
from romme_score.scoring import RoundInput
from romme_score.sessions import PendingChanged, PendingRound, RoundTaken, SessionInfo, SessionService
from romme_score.table.entry import RoundEntry, Step
from romme_score.views import play as views
from romme_score.views.output import Output

if TYPE_CHECKING:
    from prompt_toolkit.completion import CompleteEvent, Completion
    from prompt_toolkit.document import Document
    from prompt_toolkit.key_binding import KeyBindings

DE_SUITS, DE_RANKS = "HKPT", ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K")
EN_SUITS, EN_RANKS = "CSHD", ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


CHANGED = "\x00changed"  # what a prompt returns when the session changed elsewhere
POLL_SECONDS = 0.5  # how often a waiting prompt asks whether it did


def terminal_width() -> int:
    return shutil.get_terminal_size((80, 24)).columns


class Asker(Protocol):
    """How a front asks a line (raising KeyboardInterrupt or EOFError) and says a text."""

    def ask(self, entry: RoundEntry, prompt: str, watch: Callable[[], bool] | None = None) -> str:
        """The answer typed; :data:`CHANGED` where ``watch`` says the round changed elsewhere
        while nothing was typed yet (a front that cannot wait so never returns it)."""
        ...

    def say(self, text: str, error: bool = False) -> None: ...


class TakenElsewhere(Exception):
    """The round being typed was saved or discarded elsewhere (the scorekeeper's phone,
    another window) while it was typed here: nothing more is written or saved of it."""


class KeptRound:
    """The round being typed, kept in the database as the session's round in progress
    (the one the phones send to) answer by answer: one round in progress whatever the
    door, a typed round that survives a crashed window, and the phones' hands in the same
    entry. Each answer's change goes through the service's one call
    (:meth:`SessionService.change_round`) with the round this entry last saw: where a phone
    wrote meanwhile, the service puts the change on top of the phone's (or keeps theirs
    where it rules the change out) and the entry is loaded again; where the round was
    saved or discarded elsewhere, :class:`TakenElsewhere` ends the entry, so that it is not
    saved twice."""

    def __init__(self, service: SessionService, info: SessionInfo, start: PendingRound) -> None:
        self.service, self.info = service, info
        self.began_empty = start.empty
        self.seen = start

    @property
    def revision(self) -> int:
        """The revision of the round in progress this entry last saw."""
        return self.seen.revision

    def reset(self, pending: PendingRound) -> None:
        """Take the round in progress as it stands as what this entry has seen."""
        self.seen = pending

    def changed(self) -> bool:
        """Whether the round in progress changed since this entry last saw it (a phone sent
        a hand): asked twice a second while a prompt of the entry waits."""
        return self.service.pending(self.info).revision != self.revision

    def catch_up(self, entry: RoundEntry, cards: views.CardsText) -> list[str]:
        """The round in progress as it is now loaded into the entry, and what changed of it,
        a line each (``Dora (phone): ♦7 ♦8 = 15``, issue 30 item 7); the step asked stays the
        hand still missing. :class:`TakenElsewhere` where it was saved or discarded."""
        fresh = self.service.pending(self.info)
        if fresh.empty and not self.seen.empty:
            raise TakenElsewhere()
        news = views.phone_news(
            entry.players, self.seen, fresh, cards, self.service.counted(self.info, fresh)
        )
        entry.load(fresh.to_input())
        self.reset(fresh)
        return news

    def follow(self, entry: RoundEntry) -> None:
        """Send what the last answer changed (:attr:`RoundEntry.change`), if anything."""
        change, entry.change = entry.change, None
        if change is None:
            return
        try:
            state = self.service.change_round(self.info, change, seen=self.seen)
        except RoundTaken:
            raise TakenElsewhere() from None
        except InputProblem:  # refused as the round now stands: the entry shows it so
            now = self.service.pending(self.info)
            entry.load(now.to_input())
            entry.message = views.pending_changed()
            self.reset(now)
            return
        if state.merged:  # a phone (or another window) wrote meanwhile: the entry as it now is
            entry.load(state.round.to_input())
            entry.message = views.pending_changed()
        self.reset(state.round)

    def saved_elsewhere(self) -> bool:
        """After a save refused as changed meanwhile: whether the round was taken (saved or
        discarded) elsewhere, rather than added to."""
        return self.service.pending(self.info).empty and not self.seen.empty

    def discard(self) -> bool:
        """The entry was given up: a round this entry began is forgotten, unless someone
        else wrote to it meanwhile; one that came from the phones stays in progress, with
        what was typed into it. Whether the round in progress is gone."""
        if not self.began_empty:
            return False
        try:
            self.service.discard_pending(self.info, expected=self.revision)
        except PendingChanged:
            return False
        return True


def prompt_for(entry: RoundEntry, session: str, number: int) -> str:
    if entry.step is Step.HAND and entry.current is not None:
        return views.hand_prompt(session, number, entry.seat(entry.current), entry.current)
    if entry.step is Step.SUMMARY:
        return views.summary_prompt(session, number)
    return views.main_prompt(session, number)


def drive(
    entry: RoundEntry,
    asker: Asker,
    session: str,
    number: int,
    out: Output,
    confirm: bool = True,
    kept: KeptRound | None = None,
) -> RoundInput:
    """Ask until the entry is done (Enter at the summary, or the summary shown when not
    ``confirm``), each answer kept as the round in progress (``kept``); Ctrl-C and
    Ctrl-D propagate."""
    shown_question = False
    while entry.step is not Step.DONE:
        if entry.step is Step.SUMMARY and not confirm and not entry.message:
            entry.answer("")
            break
        if entry.message:
            asker.say(entry.message, error=True)
        if entry.step is Step.SUMMARY and entry.score is not None:
            asker.say(
                views.render_summary(
                    session,
                    number,
                    entry.players,
                    entry.round_input(),
                    entry.score,
                    out.cards,
                    terminal_width(),
                )
            )
        elif entry.step is Step.WINNER and not shown_question:
            asker.say(views.winner_question(entry.players))
            shown_question = True
        answer = asker.ask(entry, prompt_for(entry, session, number), kept.changed if kept else None)
        if answer == CHANGED and kept is not None:  # a phone sent a hand: into this entry
            news = kept.catch_up(entry, out.cards)
            if news:
                asker.say("\n".join(news))
            continue
        entry.answer(answer)
        if kept is not None:
            kept.follow(entry)
    return entry.round_input()


# --- prompt_toolkit -------------------------------------------------------------------


def card_words(profile: Profile, typed: str) -> list[str]:
    """Cards that complete what is typed of one card: ``H`` gives ``HA``, ``H2`` ... ``HK``."""
    if profile == "de":
        if len(typed) == 1 and typed.upper() in DE_SUITS:
            return [typed.upper() + r for r in DE_RANKS]
        return []
    ranks = [r for r in EN_RANKS if r.startswith(typed.upper())] if typed else []
    return [r + s for r in ranks for s in EN_SUITS] if ranks else []


def make_completer(words: Callable[[str], Iterable[str]], first_word_only: bool = False) -> object:
    """A prompt_toolkit completer over the word before the cursor."""
    from prompt_toolkit.completion import Completer, Completion

    class _Words(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
            before = document.text_before_cursor
            if first_word_only and " " in before.strip():
                return
            word = document.get_word_before_cursor(WORD=True)
            for w in words(word):
                if w.lower().startswith(word.lower()) and w != word:
                    yield Completion(w, start_position=-len(word))

    return _Words()


def make_line_completer(offers: Callable[[str], Iterable[str]]) -> object:
    """A prompt_toolkit completer over the word before the cursor, offering what
    ``offers`` gives for the line up to the cursor (the table's words, then what each
    word takes: :meth:`~romme_score.table.app.Table.offers`)."""
    from prompt_toolkit.completion import Completer, Completion

    class _Line(Completer):
        def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
            word = document.get_word_before_cursor(WORD=True)
            for w in offers(document.text_before_cursor):
                if w.lower().startswith(word.lower()) and w != word:
                    yield Completion(w, start_position=-len(word))

    return _Line()


def watching(changed: Callable[[], bool]) -> Callable[[], None]:
    """A prompt's ``pre_run``: while it waits, ask ``changed`` every :data:`POLL_SECONDS`
    and leave the prompt with :data:`CHANGED` when it says so and nothing is typed yet."""

    def pre_run() -> None:
        import asyncio

        from prompt_toolkit.application import get_app

        app = get_app()

        async def watch() -> None:
            while True:
                await asyncio.sleep(POLL_SECONDS)
                if not app.current_buffer.text and changed():
                    app.exit(result=CHANGED)
                    return

        app.create_background_task(watch())

    return pre_run


def _typing() -> bool:
    """Whether anything is typed in the line being asked."""
    from prompt_toolkit.application import get_app

    return bool(get_app().current_buffer.text)


def ctrl_c_bindings() -> KeyBindings:
    """Ctrl-C in a round (issue 20 item 8): with something in the line it clears the line;
    on an empty line it discards the round (KeyboardInterrupt, as before)."""
    from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

    bindings = KeyBindings()

    @bindings.add("c-c")
    def _ctrl_c(event: KeyPressEvent) -> None:
        buffer = event.app.current_buffer
        if buffer.text:
            buffer.reset()
        else:
            event.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    return bindings


class PromptAsker:
    """Prompts with prompt_toolkit: line editing, Up-arrow history (one for hands, one for
    the rest), Tab completion of names and cards, a toolbar with the totals and the keys."""

    def __init__(self, toolbar: Callable[[], str], profile: Profile, history_file: str | None = None) -> None:
        from prompt_toolkit import PromptSession
        from prompt_toolkit.history import FileHistory, History, InMemoryHistory

        history: History = InMemoryHistory()
        if history_file is not None:
            try:
                history = FileHistory(history_file)
            except OSError:
                pass
        # Completion on Tab only: a menu popping up at every letter would cost time and room.
        self.main = PromptSession[str](history=history, complete_while_typing=False)
        self.hands = PromptSession[str](history=InMemoryHistory(), complete_while_typing=False)
        self.keys = PromptSession[str](history=InMemoryHistory())
        self.toolbar = toolbar
        self.profile = profile
        self.ctrl_c = ctrl_c_bindings()

    def bottom(self, hint: str | Callable[[], str]) -> Callable[[], str]:
        """The toolbar: the totals, and below them the keys of this prompt, wrapped (never
        cut) to the window's width."""

        def text() -> str:
            width = terminal_width()
            keys = hint() if callable(hint) else hint
            return f"{self.toolbar()}\n{views.wrap_items(keys, width)}"

        return text

    def ask(self, entry: RoundEntry, prompt: str, watch: Callable[[], bool] | None = None) -> str:
        pre_run = watching(watch) if watch is not None else None
        if entry.step is Step.HAND:
            recalled = self.hands.history.get_strings()
            if entry.recall and (not recalled or recalled[-1] != entry.recall):
                self.hands.history.append_string(entry.recall)  # Up gives the hand corrected
            return self.hands.prompt(
                prompt,
                default=entry.default,
                completer=make_completer(lambda w: card_words(self.profile, w)),  # type: ignore[arg-type]
                bottom_toolbar=self.bottom(lambda: views.hand_toolbar(_typing())),
                key_bindings=self.ctrl_c,
                pre_run=pre_run,
            )
        if entry.step is Step.SUMMARY:
            return self.keys.prompt(
                prompt,
                bottom_toolbar=self.bottom(views.summary_keys(entry.players, entry.winner)),
                key_bindings=self.ctrl_c,
                pre_run=pre_run,
            )
        players = list(entry.players)
        return self.main.prompt(
            prompt,
            default=entry.default,
            completer=make_completer(lambda w: players),  # type: ignore[arg-type]
            bottom_toolbar=self.bottom(views.winner_toolbar(players)),
            key_bindings=self.ctrl_c,
            pre_run=pre_run,
        )

    def say(self, text: str, error: bool = False) -> None:
        click.echo(views.fit(("! " if error else "") + text, terminal_width(), indent="  " if error else ""))


class LineAsker:
    """Plain lines from standard input (no terminal): errors on stderr, as before."""

    def ask(self, entry: RoundEntry, prompt: str, watch: Callable[[], bool] | None = None) -> str:
        try:
            line: str = click.prompt(prompt.rstrip("> "), default="", show_default=False)
        except click.Abort:
            raise EOFError from None
        return line

    def say(self, text: str, error: bool = False) -> None:
        click.echo(text, err=error)


def ask_round(
    service: SessionService, info: SessionInfo, out: Output, confirm: bool = True
) -> tuple[RoundInput, int] | None:
    """The interactive ``romme round``: the table mode's round entry, run once, kept as the
    round in progress (from the phones' hands, if any, on); the round and the revision of
    the round in progress it is, to save them together. None when it was discarded
    (Ctrl-C, or the end of input)."""
    standings = service.standings(info, last=0)
    number = standings.rounds_played + 1
    entry = RoundEntry(service.referee(info, dealer=standings.next_dealer), profile=out.profile)
    start = service.pending(info)
    kept = KeptRound(service, info, start)
    if not start.empty:
        entry.load(start.to_input())
    asker: Asker
    if sys.stdin.isatty() and sys.stdout.isatty():
        asker = PromptAsker(lambda: views.toolbar_text(standings, terminal_width()), out.profile)
    else:
        asker = LineAsker()
    try:
        return drive(entry, asker, info.name, number, out, confirm, kept), kept.revision
    except TakenElsewhere:
        click.echo(views.taken_elsewhere(number), err=True)
        return None
    except (KeyboardInterrupt, EOFError):
        kept.discard()
        return None
