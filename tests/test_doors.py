"""Every door, the same verdict (issue 27 item 6): each round input of a seeded corpus
(``tests/doors_corpus.py``) goes through every door into one evening, each door into a
database of its own made the same way (``romme new``, then the evening's earlier rounds),
and every door must give the same verdict: saved, or refused with the same error ``code``;
and the same saved round, read back by one reader (``romme export``) for all of them.

The doors:

- the command line: ``romme round ...`` in process (``CliRunner``, ``standalone_mode=False``:
  the error is the exception, its ``code`` the verdict);
- a ``romme play`` script: the same arguments as one line on standard input (the error
  each failing line shows is caught on its way out: ``ClickException.show``);
- the phones: ``romme serve``'s application in process (Starlette's ``TestClient``): each
  loser's seat sends its hand (and whether it never came out), the winner's seat says it
  went out, the scorekeeper gives what no seat can say (a stalemate, a winner or a
  never-out typed by first letters or seat, a hand under another name, cards for the
  winner) and saves; an unlikely number of points
  asked back (409 ``unlikely_points``) is sent again with ``"confirm": true``, as the page
  does once the player said yes;
- the table mode at a terminal: ``romme play`` in a pseudo-terminal, typed step by step
  (a sample: a process each). It shows no code, so its verdict is whether the round was
  saved, and for a refusal the core's sentence on the screen.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import click
import pytest
from click.testing import CliRunner
from doors_corpus import SETUPS, Case, Setup, build, pty_sample

from romme_score.cli import main
from romme_score.errors import RommeError
from romme_score.scoring import most_points_in_hand

CORPUS = build()
SAMPLE = pty_sample(CORPUS)
BASE = "http://127.0.0.1:8765"  # the phones' origin (no socket: the application runs in process)
ENV = {"ROMME_LANG": "en", "COLUMNS": "80"}


# --- the verdict ----------------------------------------------------------------------


@dataclass(frozen=True)
class Verdict:
    """What a door did with an input: ``saved``, the ``code`` it refused with (None where
    it carries none), the sentence it said, the facts of the refusal, and every round
    the evening holds afterwards, as ``romme export`` reads them."""

    door: str
    saved: bool
    code: str | None = None
    sentence: str = ""
    facts: dict[str, Any] = field(default_factory=dict)
    rounds: list[dict[str, Any]] = field(default_factory=list)
    derived: str | None = None  # the code the web would give the core's error (for the report)
    complaints: tuple[str, ...] = ()  # a door that broke its own protocol (a 409 that stored)

    def short(self) -> str:
        if self.saved:
            last = self.rounds[-1] if self.rounds else {}
            shown = {k: last.get(k) for k in ("points", "bonus", "hands")}
            return f"saved {json.dumps(shown, ensure_ascii=False)}"
        code = self.code if self.code is not None else f"(no code; core: {self.derived})"
        return f"refused {code}: {self.sentence}"


def read_back(db: Path) -> list[dict[str, Any]]:
    """Every round of the evening, as ``romme export`` writes it (without the clock)."""
    result = CliRunner().invoke(main, ["export", "--db", str(db)], env=ENV, standalone_mode=False)
    if result.exception is not None:
        raise result.exception
    rounds: list[dict[str, Any]] = json.loads(result.stdout)["rounds"]
    for rnd in rounds:
        rnd.pop("recorded_at", None)
    return rounds


def core_error(exc: BaseException | None) -> RommeError | None:
    """The core's, the store's or the service's error that a door's error was raised over."""
    seen = exc
    while seen is not None:
        if isinstance(seen, RommeError):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


def derived_code(exc: BaseException | None) -> str | None:
    from romme_score.web.errors import classify

    core = core_error(exc)
    if core is None:
        return None
    try:
        return classify(core)[1]
    except Exception:
        return type(core).__name__


def facts_of(exc: BaseException | None) -> dict[str, Any]:
    """The facts a refusal carries that every door can name: the hand's problem, who is missing."""
    core = core_error(exc)
    facts: dict[str, Any] = {}
    problem = getattr(core, "problem", None)
    if problem is not None:  # why a hand or a player cannot be read
        facts["problem"] = str(getattr(problem, "value", problem))
    missing = getattr(core, "missing", None)
    if missing and derived_code(exc) == "missing-hands":
        facts["missing"] = list(missing)
    return facts


def verdict_of_exception(door: str, exc: BaseException | None, db: Path) -> Verdict:
    core = core_error(exc)
    return Verdict(
        door,
        saved=exc is None,
        code=getattr(exc, "code", None) if exc is not None else None,
        sentence=str(core if core is not None else exc) if exc is not None else "",
        facts=facts_of(exc),
        rounds=read_back(db),
        derived=derived_code(exc),
    )


# --- the evenings ---------------------------------------------------------------------


@pytest.fixture(scope="session")
def templates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """Each evening once, as ``romme new`` and ``romme round`` make it (and ``romme serve``
    its links); a door gets a copy."""
    folder = tmp_path_factory.mktemp("evenings")
    made = {}
    for key, setup in SETUPS.items():
        db = folder / f"{key}.sqlite3"
        for args in [setup.new_args(), *(["round", *r] for r in setup.earlier)]:
            result = CliRunner().invoke(main, [*args, "--db", str(db)], env=ENV, standalone_mode=False)
            assert result.exception is None, (args, result.exception)
        give_links(db)
        made[key] = db
    return made


def give_links(db: Path) -> None:
    """The phones' links, kept in the database: made once with the evening (so every door's
    copy holds them), not with every input."""
    from romme_score.sessions import SessionService
    from romme_score.web.links import make_token

    with SessionService(db, create=False) as service:
        service.links(service.session(None), make_token)


@pytest.fixture
def evening(templates: dict[str, Path], tmp_path: Path) -> Callable[[Case, str], Path]:
    """A fresh database for one door, made as the case's evening is made."""

    def make(case: Case, door: str) -> Path:
        db = tmp_path / f"{door}.sqlite3"
        shutil.copyfile(templates[case.setup], db)
        return db

    return make


# --- the doors ------------------------------------------------------------------------


def command_line(case: Case, db: Path) -> Verdict:
    """``romme round ...``."""
    result = CliRunner().invoke(main, [*case.round_args(), "--db", str(db)], env=ENV, standalone_mode=False)
    return verdict_of_exception("romme round", result.exception, db)


def script(case: Case, db: Path, monkeypatch: pytest.MonkeyPatch) -> Verdict:
    """The same arguments as one line of a ``romme play`` script."""
    shown: list[click.ClickException] = []
    original = click.ClickException.show

    def spy(self: click.ClickException, file: Any = None) -> None:
        shown.append(self)
        original(self, file)

    monkeypatch.setattr(click.ClickException, "show", spy)
    line = shlex.join(case.round_args()) + "\n"
    result = CliRunner().invoke(main, ["play", "--db", str(db)], input=line, env=ENV)
    monkeypatch.setattr(click.ClickException, "show", original)
    if result.exit_code == 0:
        return verdict_of_exception("romme play script", None, db)
    error: BaseException = shown[0] if shown else RuntimeError(result.stderr.strip())
    return verdict_of_exception("romme play script", error, db)


def hand_body(text: str) -> dict[str, Any]:
    """A hand as a phone sends it: a number of points typed with the digits 0-9 as a JSON
    number, anything else as the text typed."""
    if re.fullmatch(r"-?[0-9]+", text):
        return {"points": int(text)}
    return {"cards": text}


def hand_value(text: str) -> str | int:
    body = hand_body(text)
    value: str | int = body.get("points", body.get("cards", ""))
    return value


class Phones:
    """The application of ``romme serve`` for one database, in process."""

    def __init__(self, db: Path) -> None:
        from romme_score.sessions import SessionService
        from romme_score.web.app import create_app
        from romme_score.web.context import Limits, ServeConfig
        from romme_score.web.links import LinkSet, make_token

        with SessionService(db, create=False) as service:
            info = service.session(None)
            links = service.links(info, make_token)
            location = service.store.location
        linkset = LinkSet(BASE, tuple(links))
        summary = linkset.summary()
        self.board = str(summary["board"])
        self.keeper = str(summary["scorekeeper"])
        seats = summary["seats"]
        assert isinstance(seats, dict)
        self.seats: dict[str, str] = {str(k): str(v) for k, v in seats.items()}
        self.app = create_app(ServeConfig(str(location), info.id, linkset, "en", "de", Limits(shutdown=0.5)))

    @staticmethod
    def client(app: Any) -> Any:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # Starlette's note on its httpx test client
            from starlette.testclient import TestClient
        return TestClient(app, base_url=BASE)


def phones(case: Case, db: Path) -> Verdict:
    """Seats send their hands and say who went out; the scorekeeper gives the rest and saves."""
    served = Phones(db)
    players = SETUPS[case.setup].players
    steps: list[tuple[str, dict[str, Any]]] = []
    keeper_hands: dict[str, str | int] = {}
    marked = set(case.never_out)
    for name, text in case.hands:
        if name in players and name != case.winner:
            body = hand_body(text)
            if name in marked:  # the seat says it never came out
                body["never_out"] = True
                marked.discard(name)
            steps.append((served.seats[name] + "/hand", body))
        else:  # the winner's cards, or a hand under another name: the scorekeeper types it
            keeper_hands[name] = hand_value(text)
    keeper: dict[str, Any] = {}
    if case.stalemate:
        keeper["stalemate"] = True
        if case.winner is not None:
            keeper["winner"] = case.winner
    elif case.winner is not None:
        if case.winner in players and case.winner not in keeper_hands:
            steps.append((served.seats[case.winner] + "/out", {"hand_romme": case.hand_romme}))
        else:
            keeper["winner"] = case.winner
    if case.hand_romme and "winner" in keeper or case.hand_romme and case.winner is None:
        keeper["hand_romme"] = True
    if keeper_hands:
        keeper["hands"] = keeper_hands
    if marked:  # never out, typed as a seat number or by first letters: the scorekeeper says it
        keeper["never_out"] = [name for name in case.never_out if name in marked]
    if keeper:
        steps.append((served.keeper + "/pending", keeper))
    steps.append((served.keeper + "/save", {}))

    complaints: list[str] = []
    refused: dict[str, Any] | None = None
    with served.client(served.app) as http:
        for url, body in steps:
            answer = http.post(url, json=body)
            if answer.status_code == 409 and answer.json().get("code") == "unlikely_points":
                held = http.get(served.board + "/state.json").json()["pending"]["hands"]
                asked = [url.split("/")[-2]] if url.endswith("/hand") else list(body.get("hands", {}))
                seat_of = {
                    token: name for name, token in ((n, u.split("/")[-1]) for n, u in served.seats.items())
                }
                stored = [seat_of.get(a, a) for a in asked if held.get(seat_of.get(a, a)) is not None]
                if stored:
                    complaints.append(f"a 409 unlikely_points stored the hand of {', '.join(stored)}")
                answer = http.post(url, json={**body, "confirm": True})
            if answer.status_code != 200:
                refused = answer.json()
                break
    if refused is None:
        return Verdict("phones", saved=True, rounds=read_back(db), complaints=tuple(complaints))
    facts = {k: refused[k] for k in ("problem",) if refused.get(k)}
    if refused.get("code") == "missing-hands":
        facts["missing"] = refused.get("missing")
    return Verdict(
        "phones",
        saved=False,
        code=refused.get("code"),
        sentence=str(refused.get("error", "")),
        facts=facts,
        rounds=read_back(db),
        derived=refused.get("code"),
        complaints=tuple(complaints),
    )


# --- the table mode at a terminal -----------------------------------------------------

CTRL_U = "\x15"


# prompt_toolkit turns bracketed paste on for every line it asks, and off when it is typed
ASKING = "\x1b[?2004h"


class Terminal:
    """``romme play`` in a pseudo-terminal, its screen kept by pyte (which also answers the
    program's cursor-position requests), wide enough that no sentence wraps."""

    def __init__(self, db: Path, cols: int = 250, rows: int = 60) -> None:
        import pexpect
        import pyte

        env = {**os.environ, **ENV, "ROMME_DB": str(db), "TERM": "xterm", "LANG": "C.UTF-8"}
        for sized in ("COLUMNS", "LINES", "PROMPT_TOOLKIT_NO_CPR"):
            env.pop(sized, None)
        self.child = pexpect.spawn(
            sys.executable, ["-m", "romme_score", "play"], env=env, dimensions=(rows, cols), encoding="utf-8"
        )
        child = self.child

        class Screen(pyte.Screen):
            def write_process_input(self, data: str) -> None:
                child.send(data)

        self.screen = Screen(cols, rows)
        self.stream = pyte.Stream(self.screen)
        self.raw = ""
        self.mark = 0  # where the output since the last keys sent starts

    def pump(self, quiet: float) -> bool:
        """Read what the program wrote until it has been quiet for ``quiet`` seconds; False
        once it has ended."""
        import pexpect

        last = time.monotonic()
        while True:
            try:
                data = self.child.read_nonblocking(65536, timeout=quiet / 2)
            except pexpect.TIMEOUT:
                data = ""
            except pexpect.EOF:
                return False
            if data:
                self.raw += data
                self.stream.feed(data)
                last = time.monotonic()
            elif time.monotonic() - last >= quiet:
                return True

    def line(self, y: int) -> str:
        return str(self.screen.display[y]).rstrip()

    def prompt(self, session: str, timeout: float = 30.0) -> tuple[str, str]:
        """The next line the program asks, once it asks it: its kind (``main``,
        ``hand:NAME``, ``summary``), and what it said since the line typed before."""
        end = time.monotonic() + timeout
        head = re.compile(re.escape(session) + r" · round \d+( · (\d+ (?P<player>.+?)|Enter saves))?> ?")
        while True:
            alive = self.pump(0.04)
            if ASKING in self.raw[self.mark :]:
                y = self.screen.cursor.y
                found = head.match(self.line(y))
                if found is not None:
                    break
            if not alive or time.monotonic() > end:
                raise AssertionError("nothing asked:\n" + "\n".join(self.screen.display))
        shown = []
        for above in range(y - 1, -1, -1):
            text = self.line(above)
            if head.match(text):
                break
            shown.append(text)
        said = " ".join(" ".join(reversed(shown)).split())
        if found.group("player"):
            return f"hand:{found.group('player')}", said
        if found.group(1):
            return "summary", said
        return "main", said

    def send(self, keys: str) -> None:
        self.mark = len(self.raw)
        self.child.send(keys)

    def stop(self) -> None:
        """The verdict is in the database by now: the program is stopped, not asked to quit."""
        self.child.terminate(force=True)
        self.child.close()


def terminal(case: Case, db: Path) -> Verdict:
    """The round typed at ``romme play``: ``round``, the winner (0 for a stalemate), each hand
    as it is asked (an unlikely number typed again once: that says yes), ``h``, ``nN``,
    Enter. Anything asked again is a refusal: then Ctrl-C twice and ``quit``."""
    from romme_score.views import play as table_views

    setup: Setup = SETUPS[case.setup]
    session = setup.session
    hands = dict(case.hands)
    keys = (["h"] if case.hand_romme else []) + [f"n{name}" for name in case.never_out]
    term = Terminal(db)
    refusal: str | None = None
    saved = False
    try:
        kind, said = term.prompt(session)
        term.send("round\r")
        kind, said = term.prompt(session)
        term.send(("0" if case.stalemate else case.winner or "") + "\r")
        answered: dict[str, int] = {}
        at_summary = False
        last_key = ""
        while True:
            kind, said = term.prompt(session)
            if kind == "main":
                if "saved." in said:
                    saved = True
                else:
                    refusal = said
                break
            if kind.startswith("hand:"):
                player = kind.removeprefix("hand:")
                times = answered.get(player, 0)
                again = times == 1 and player in case.unlikely and "more than" in said
                if (times and not again) or at_summary or player not in hands:
                    refusal = said
                    break
                answered[player] = times + 1
                term.send(CTRL_U + hands[player] + "\r")
                continue
            if at_summary and (
                table_views.hand_romme_needs_winner() in said
                or (last_key.startswith("n") and "marked as never out" not in said)
            ):
                refusal = said
                break
            at_summary = True
            last_key = keys.pop(0) if keys else ""
            term.send(last_key + "\r")
    finally:
        term.stop()
    return Verdict("table mode", saved=saved, sentence=refusal or "", rounds=read_back(db))


# --- the comparison -------------------------------------------------------------------


def door_sentence_ok(sentence: str, core: str) -> bool:
    """A door's sentence is the core's, or the core's with the door's own way out after ': '."""
    return sentence == core or sentence.startswith(core + ": ")


def disagreements(
    case: Case, verdicts: list[Verdict], strict: bool = True, codes: bool = True, sentences: bool = False
) -> list[str]:
    """What the doors disagree on, a line each (empty: one verdict). ``strict``: on the
    codes the doors carry; else on the codes the web gives their core errors (what today's
    doors would say once each carried its code: for the report). Without ``codes``, on
    the verdicts and the rounds only (the table mode shows no code). The table mode's
    sentence must be the core's where the contract says so (too many points), and with
    ``sentences`` wherever it refuses (for the report)."""
    reference = verdicts[0]
    found = []

    def code(v: Verdict) -> str | None:
        return v.code if strict else v.derived

    for v in verdicts:
        if v.complaints:
            found.append(f"{v.door}: {'; '.join(v.complaints)}")
        if v.saved != reference.saved:
            found.append(f"{reference.door} {'saves' if reference.saved else 'refuses'}, {v.door} does not")
        elif codes and not v.saved:
            if code(v) is None:
                found.append(f"{v.door} refuses without a code")
            elif code(reference) is not None and code(v) != code(reference):
                found.append(f"{v.door} refuses with another code")
            elif v.facts != reference.facts:
                found.append(f"{v.door} names other facts: {v.facts} vs {reference.facts}")
        if v.rounds != reference.rounds:
            found.append(f"{v.door} keeps other rounds than {reference.door}")
        if (
            not reference.saved
            and not v.saved
            and v.door == "table mode"
            and reference.sentence not in v.sentence
        ):
            if sentences or reference.facts.get("problem") == "too-many":
                found.append("the table mode does not say the core's sentence")
    if codes and reference.facts.get("problem") == "too-many":
        for v in verdicts:
            if (
                not v.saved
                and v.door != "table mode"
                and not door_sentence_ok(v.sentence, reference.sentence)
            ):
                found.append(f"{v.door} says another sentence for too many points")
    if not found:
        return []
    lines = list(dict.fromkeys(found))
    return [str(case), *(f"  ! {line}" for line in lines), *(f"    {v.door}: {v.short()}" for v in verdicts)]


@pytest.mark.parametrize("case", CORPUS, ids=lambda c: c.ident)
def test_every_door_gives_the_same_verdict(
    case: Case, evening: Callable[[Case, str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    verdicts = [
        command_line(case, evening(case, "cli")),
        script(case, evening(case, "script"), monkeypatch),
        phones(case, evening(case, "phones")),
    ]
    problems = disagreements(case, verdicts)
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("case", SAMPLE, ids=lambda c: c.ident)
def test_the_table_mode_at_a_terminal_gives_the_same_verdict(
    case: Case, evening: Callable[[Case, str], Path]
) -> None:
    verdicts = [command_line(case, evening(case, "cli")), terminal(case, evening(case, "pty"))]
    problems = disagreements(case, verdicts, codes=False)
    assert not problems, "\n".join(problems)


def test_who_went_out_is_one_fact_on_the_phones(templates: dict[str, Path], tmp_path: Path) -> None:
    """A second seat's "I went out" while the first stands is refused (``already-out``) and
    changes nothing; the scorekeeper's winner changes it, and the round saves as
    ``romme round`` saves the same round."""
    db = tmp_path / "phones.sqlite3"
    shutil.copyfile(templates["standard"], db)
    served = Phones(db)
    with served.client(served.app) as http:
        assert http.post(served.seats["Anna"] + "/out", json={"hand_romme": False}).status_code == 200
        second = http.post(served.seats["Ben"] + "/out", json={"hand_romme": False})
        assert second.status_code == 409 and second.json()["code"] == "already-out", second.json()
        assert http.get(served.board + "/state.json").json()["pending"]["winner"] == "Anna"
        assert http.post(served.keeper + "/pending", json={"winner": "Ben"}).status_code == 200
        for name, points in (("Anna", 5), ("Carl", 6), ("Dora", 7)):
            assert http.post(served.seats[name] + "/hand", json={"points": points}).status_code == 200
        assert http.post(served.keeper + "/save", json={}).status_code == 200
    cli = tmp_path / "cli.sqlite3"
    shutil.copyfile(templates["standard"], cli)
    done = CliRunner().invoke(
        main, ["round", "--winner", "Ben", "Anna=5", "Carl=6", "Dora=7", "--db", str(cli)], env=ENV
    )
    assert done.exit_code == 0, done.output
    assert read_back(db) == read_back(cli)


def test_the_corpus_covers_what_the_issue_asks() -> None:
    """At least 500 inputs, a sample of at least 50 at the terminal, every category there,
    points at 0, 150, 151, the most a hand holds and above it, two presets at least."""
    assert len(CORPUS) >= 500 and len(SAMPLE) >= 50
    assert len({c.ident for c in CORPUS}) == len(CORPUS)
    wanted = {
        "readable", "unreadable", "points", "points-unlikely", "points-too-many", "winner-typed",
        "winner-unknown", "winner-ambiguous", "stalemate", "hand-romme", "never-out", "game-over", "supply",
    }  # fmt: skip
    assert wanted <= {c.category for c in CORPUS}
    for setup in ("standard", "basic"):
        most = most_points_in_hand(SETUPS[setup].rules())
        typed = {text for c in CORPUS if c.setup == setup for _n, text in c.hands}
        assert {"0", "150", "151", str(most), str(most + 1), "300", "500"} <= typed, setup
    presets = {s.options[s.options.index("--preset") + 1] for s in SETUPS.values() if "--preset" in s.options}
    assert "standard" in SETUPS and len(presets) >= 2  # the default rules, and others
    assert build() == CORPUS  # deterministic


def report(strict: bool = False, sentences: bool = True) -> None:  # pragma: no cover - for a person
    """The disagreements over the whole corpus, by category (``python tests/test_doors.py``):
    on the codes the web gives the core's errors unless ``strict``, the table mode's sentences
    too."""
    import tempfile
    from collections import Counter

    os.environ.update(ENV)
    folder = Path(tempfile.mkdtemp())
    made: dict[str, Path] = {}
    for key, setup in SETUPS.items():
        made[key] = folder / f"{key}.sqlite3"
        for args in [setup.new_args(), *(["round", *r] for r in setup.earlier)]:
            CliRunner().invoke(main, [*args, "--db", str(made[key])], env=ENV, standalone_mode=False)
        give_links(made[key])
    patch = pytest.MonkeyPatch()
    counts: Counter[str] = Counter()
    for n, case in enumerate(CORPUS):
        fresh = []
        for door in ("cli", "script", "web", "pty"):
            fresh.append(folder / f"{n}-{door}.sqlite3")
            shutil.copyfile(made[case.setup], fresh[-1])
        verdicts = [command_line(case, fresh[0]), script(case, fresh[1], patch), phones(case, fresh[2])]
        lines = disagreements(case, verdicts, strict)
        if case in SAMPLE:
            lines += disagreements(case, [verdicts[0], terminal(case, fresh[3])], strict, False, sentences)[
                1:
            ]
        if lines:
            counts[case.category] += 1
            print(f"{case.ident}: " + "\n".join(lines) + "\n", flush=True)
    print(dict(sorted(counts.items())))


if __name__ == "__main__":  # pragma: no cover
    report(strict="--strict" in sys.argv)
