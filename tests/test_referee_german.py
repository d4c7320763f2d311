"""The referee's answers wholly German (issue 38 items 1-4 and 11): every kind of answer and
refusal of ``check`` (melds, ``--first``, ``--onto`` with and without ``--not-out``),
``value`` and ``best``, under every preset and every rule option that changes a verdict, at
the terminal (``--lang de``) and through the phones' referee (``Accept-Language: de``),
holds no English word and no rule option key (``first_meld_min=40``): the rule is named as
the table says it (``Erstmeldung mindestens 40``), the key stays in the JSON's ``rule``."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner
from serving import in_process

from romme_score.cli import main
from romme_score.rules import OPTION_NAMES, PRESETS, find_preset
from romme_score.sessions import SessionService

# English words the referee's sentences used; none is a German word (German's "in", "an",
# "also", "Hand", "Joker(s)", "legal", "total" are left out), matched whole, any case.
ENGLISH = frozenset(
    """the but must would already does not fit run set joker's points point short first meld
    melds holds hold takes take cards card this one enough needs need needed only may who has
    have come out lay laid off onto swap swapped place play legal allowed nothing and or of is
    are with without at most least per side which it its can cannot go going yes no discard
    solver every these rules rule natural gap fill corner ace king suit rank once twice
    appears times pack packs left down again turn your goes freed complete declared stays
    leave becomes highest counts possible valid pure either end extend share neither nor
    when except player yet include table than more moves tries hands up to works clashes
    quote meant judge""".split()
) - {"legal"}
OPTION = re.compile(r"--[a-z][a-z-]*")  # the command line's own options (--table 1) are no words
WORD = re.compile(r"[A-Za-zÄÖÜäöüß'_]+")  # first_meld_min is one word
RULE_KEY = re.compile(r"\b(?:" + "|".join(OPTION_NAMES) + ")=")


def english_in(text: str) -> list[str]:
    """The English words and rule option keys in ``text``.

    >>> english_in("Erstmeldung: NICHT genug: 37 points, but a first meld needs 40 (first_meld_min=40)")
    ['points', 'but', 'first', 'meld', 'needs', 'first_meld_min=']
    """
    words = [w for w in WORD.findall(OPTION.sub("", text)) if w.lower() in ENGLISH]
    return words + RULE_KEY.findall(text)


# Every rule option that changes a verdict of check, value or best, with a value other
# than the standard preset's.
OPTIONS = [
    "packs=1 jokers=3",
    "jokers=0",
    "first_meld_min=51",
    "first_meld_pure_run=true",
    "first_meld_layoff=true",
    "ace_high_runs=false",
    "wraparound=true",
    "ace_high_value=10",
    "ace_penalty=10",
    "joker_penalty=25",
    "min_naturals=2",
    "max_jokers_per_meld=1",
    "max_adjacent_jokers=1",
    "set_joker_swap=declared",
    "set_joker_swap=complete",
    "swapped_joker=to-hand",
    "joker_layoff=with-natural",
    "out_without_discard=true",
    "joker_swap=anytime",
    "joker_swap=never",
    "discard_joker=false",
    "hand_romme_empty_table=true",
    "hand_romme_layoff=true",
]
RULES = [["--preset", p] for p in PRESETS] + [
    [arg for option in o.split() for arg in ("--rule", option)] for o in OPTIONS
]

# Melds that break every rule of a meld (RULES.md §2) or the supply (§1)
MELDS = [
    ["HK KK"],  # too few cards
    ["HK J J"],  # too few naturals, too many jokers
    ["H3 J J H6"],  # jokers side by side
    ["HK KK J J"],  # two jokers in a set
    ["H3 H4 J=K5"],  # a declaration that does not fit
    ["HK HK KK"],  # a suit twice in a set
    ["HK KK PK TK J"],  # a set of five
    ["H3 H3 H4"],  # a rank twice in a run
    ["HA H2 H3 H4 H5 H6 H7 H8 H9 H10 HB HD HK J"],  # a run of 14
    ["HD HK HA"],  # ace above the king
    ["HK HA H2"],  # around the corner
    ["H3 H7 H9"],  # a gap
    ["HK P4 H5"],  # neither rank nor suit
    ["HK HK HK"],  # more copies than the packs hold
    ["J J J P3 P4", "J J J P3 P4"],  # more jokers than in play
    ["HK KK PK", "T9 T10 TB"],  # legal, with a total
    ["T9 J T10"],  # a joker's meaning
    ["HK", "KK", "PK"],  # one meld split by the shell
]
FIRSTS = [
    ["P8 P9 P10 PB"],  # below the minimum
    ["HK KK PK", "H4 H6 H7"],  # an illegal meld
    ["HK KK PK", "TK KK J"],  # no pure run; the supply
    ["P8 P9 P10 PB", "HK KK J"],  # enough points, but jokers=0
    ["H8 H9 H10 HB", "TK KK PK"],  # enough
]
ONTOS = [
    ("H2 H3 H4", "K5"),  # wrong suit
    ("H2 H3 H4", "H3"),  # a rank already in the run
    ("H9 J HB", "H10"),  # a joker swapped
    ("H9 J J HD", "H10 HB"),  # two jokers swapped
    ("H2 H3 H4", "HA H5"),  # a plain lay-off
    ("H2 H3 H4", "H5"),
    ("H2 H3 H4", "J"),  # a lone joker: its place is not clear
    ("H5 H6 H7", "J J"),  # two lone jokers, one at each end
    ("HB HD HK", "HA"),  # the ace above the king
    ("HD HK HA", "H2"),  # around the corner
    ("H2 H3 H4", "H7"),  # a gap
    ("HK KK PK", "J"),  # a joker onto a set
    ("HK KK PK", "H5"),  # wrong rank
    ("HK KK PK", "HK"),  # a suit already in the set
    ("HK KK J", "PK TK"),  # the set complete: the joker freed
    ("TK J PK", "HK"),  # the joker may stay
    ("HK J=PK KK", "TK"),  # a declared joker
    ("HK J=PK KK", "PK"),
    ("HK KK", "H5"),  # the meld on the table illegal
    ("H2 H3 H4 H5 H6 H7 H8 H9 H10 HB HD HK", "J J"),  # a run of 14
]
VALUES = [["HK K10 J"], ["HA", "P2"]]
BESTS = [
    ["HK"],  # one card: no Hand-Rommé (item 11)
    ["P3 P4 P5 TB PB HB H9 K2"],
    ["P3 P4 P5 TB PB HB H9"],  # a Hand-Rommé
    ["HK KK PK J"],
    ["J J J P9 K2 K3 K4"],
    ["H2 H3 H4 H5 H6 H7 H8 H9 H10 HB HD HK HA K2 K3 K4 K5 K6 K7 K8 K9 K10 KB"],  # too large
    ["HK HK HK"],  # the supply
]
BEST_TABLES = [
    (["--table", "PK HK KK"], ["TK", "H9"]),  # going out by laying off
    (["--table", "PK HK KK"], ["TK"]),
    (["--table", "HK KK"], ["H9"]),  # an illegal table meld
    (["--table", "HB HD HK", "--table", "T5 T6 T7"], ["J", "J", "T8", "P2"]),
]


def cli_cases() -> Iterator[list[str]]:
    for melds in MELDS:
        yield ["check", *melds]
    for melds in FIRSTS:
        yield ["check", "--first", *melds]
    for table, added in ONTOS:
        yield ["check", "--onto", table, *added.split()]
        yield ["check", "--onto", table, *added.split(), "--not-out"]
    for hand in VALUES:
        yield ["value", *hand]
    for hand in BESTS:
        yield ["best", *hand]
        yield ["best", "--came-out", *hand]
    for table_args, hand in BEST_TABLES:
        yield ["best", *table_args, *hand]
        yield ["best", "--came-out", *table_args, *hand]


def said(args: list[str], lang: str = "de") -> str:
    result = CliRunner().invoke(main, ["--lang", lang, *args])
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.output


@pytest.mark.parametrize("rules", RULES, ids=[" ".join(r[1::2]) for r in RULES])
def test_every_referee_answer_at_the_terminal_is_german_issue_38_item_3(
    isolated_data_dir: Path, rules: list[str]
) -> None:
    """Items 1-3: each answer and refusal of check, value and best under ``--lang de``."""
    found = {}
    for args in cli_cases():
        text = said([*args, *rules])
        if english_in(text):
            found[" ".join(args)] = (english_in(text), text)
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)


def test_the_issue_s_examples_are_german_issue_38_item_1() -> None:
    """Item 1: the first meld short of the minimum, in German with the rule named."""
    text = said(["check", "--first", "P8 P9 P10 PB"])
    assert not english_in(text), text
    assert "Erstmeldung: NICHT genug: 37 Punkte, es fehlen 3 (Erstmeldung mindestens 40)" in text


def test_a_swap_before_coming_out_is_german_issue_38_item_2() -> None:
    """Item 2: the joker swap refused before coming out, in German with the rule named."""
    text = said(["check", "--onto", "H9 J HB", "H10", "--not-out"])
    assert not english_in(text), text
    assert "♥10 nähme den Platz des Jokers ein, aber" in text
    assert "(Joker tauschen erst nach dem Rauskommen)" in text


def test_impossible_cards_are_no_first_meld_enough_issue_38_item_3() -> None:
    """Item 3: cards that cannot all be in play make no first meld that "reicht"."""
    text = said(["check", "--first", "--preset", "basic", "P8 P9 P10 PB", "HK KK J"])
    assert "NICHT möglich: 1 Joker, mehr als im Spiel sind (Joker im Spiel: 0)" in text
    assert "reicht" not in text and "Erstmeldung: NICHT erlaubt" in text
    data = json.loads(said(["check", "--json", "--first", "--preset", "basic", "P8 P9 P10 PB", "HK KK J"]))
    assert data["first_meld"]["ok"] is False and data["first_meld"]["rule"] == "jokers=0"


def test_rule_keys_stay_in_the_json_issue_38_item_4() -> None:
    """Item 4: the sentence names the rule in words, the JSON keeps its key in ``rule``."""
    text = said(["check", "--first", "P8 P9 P10 PB"], "en")
    assert "(first meld at least 40)" in text and "first_meld_min=" not in text
    data = json.loads(said(["check", "--json", "--first", "P8 P9 P10 PB"]))
    assert data["first_meld"]["rule"] == "first_meld_min=40"
    assert "(first meld at least 40)" in data["first_meld"]["message"]  # the JSON speaks English
    onto = json.loads(said(["check", "--json", "--onto", "H9 J HB", "H10", "--not-out"]))["onto"]
    assert onto["rule"] == "joker_swap=after-out" and "joker_swap" not in onto["message"]
    assert "(no joker swaps)" in said(
        ["check", "--onto", "H9 J HB", "H10", "--rule", "joker_swap=never"], "en"
    )


def test_romme_rules_names_each_rule_as_the_referee_does_issue_38_item_4() -> None:
    """Item 4: a rule named in a refusal ("Erstmeldung mindestens 40") is found by those
    words in ``romme rules``, beside its key and value."""
    assert "(Erstmeldung mindestens 40)" in said(["check", "--first", "P8 P9 P10 PB"])
    rules = said(["rules"])
    assert "first_meld_min = 40 (Erstmeldung mindestens 40)" in rules
    assert "joker_swap = after-out (Joker tauschen erst nach dem Rauskommen)" in rules
    assert "wraparound = false (keine Folgen um die Ecke)" in said(["rules"], "de")
    assert "first_meld_min = 40 (first meld at least 40)" in said(["rules"], "en")


def test_one_card_discarded_is_no_hand_romme_issue_38_item_11() -> None:
    """Item 11: a hand that has not come out goes out only by laying its cards down
    (RULES.md §6); one card discarded is no Hand-Rommé. The go-out line says what to do."""
    assert said(["best", "HK"]).endswith("Kann jetzt ausmachen: nein\n")
    assert said(["best", "HK"], "en").endswith("Can go out now: no\n")
    data = json.loads(said(["best", "--json", "HK"]))
    assert data["can_go_out"] is False and data["hand_romme"] is False and data["discard"] is None
    assert said(["best", "--came-out", "HK"]).endswith("Kann jetzt ausmachen: ja: ♥K abwerfen\n")
    out = said(["best", "--came-out", "--table", "PK HK KK", "TK", "H9"])
    assert out.endswith("Kann jetzt ausmachen: ja: ♣K an ♠K ♥K ♦K anlegen, ♥9 abwerfen\n"), out
    romme = said(["best", "P3 P4 P5 TB PB HB H9"])
    assert romme.endswith(
        "Kann jetzt ausmachen: ja, mit Hand-Rommé: ♣B ♠B ♥B | ♠3 ♠4 ♠5 auslegen, ♥9 abwerfen\n"
    )
    english = said(["best", "P3 P4 P5 TB PB HB H9"], "en")
    assert english.endswith(
        "Can go out now: yes, with a Hand-Rommé: lay down ♣B ♠B ♥B | ♠3 ♠4 ♠5, discard ♥9\n"
    )


# --- the phones' referee -------------------------------------------------------------------


PHONE_RULES = [("preset", p) for p in PRESETS] + [("rule", o) for o in OPTIONS]


def phone_cases() -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """(the referee's read, its query) for every check, value and best the phone asks."""
    for melds in MELDS:
        yield "check", [("meld", m) for m in melds]
    for melds in FIRSTS:
        yield "check", [("meld", m) for m in melds] + [("first", "1")]
    for hand in BESTS:
        yield "best", [("hand", " ".join(hand))]
        yield "best", [("hand", " ".join(hand)), ("came_out", "1")]
    for hand in VALUES:  # value: the seat's reading of a hand
        yield "read", [("cards", " ".join(hand))]
    yield "read", [("cards", "HK HK HK")]  # more copies than the packs hold
    yield "check", [("meld", "HX KK PK")]  # an unreadable card
    yield "best", [("hand", "")]


def session_name(value: str) -> str:
    """The session of a rule set: a name has no '='."""
    return value.replace("=", " ")


@pytest.fixture(scope="module")
def phone_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A session per rule set, named after it."""
    db = tmp_path_factory.mktemp("phones") / "romme.db"
    standard = find_preset("standard")
    with SessionService(db) as service:
        for kind, value in PHONE_RULES:
            if kind == "preset":
                rules = find_preset(value)
            else:
                rules = standard.from_dict(dict(o.split("=", 1) for o in value.split()), standard)
            service.create(session_name(value), ["Anna", "Ben"], rules, None, "EUR")
    return db


@pytest.mark.parametrize(("kind", "value"), PHONE_RULES, ids=[v for _k, v in PHONE_RULES])
def test_every_referee_answer_on_a_phone_is_german_issue_38_item_3(
    phone_db: Path, kind: str, value: str
) -> None:
    """Items 1-3 through the phones' referee (``{seat}/check``, ``{seat}/best``), in German
    as the phone asks it (Accept-Language), answers and refusals alike."""
    found = {}
    with in_process(phone_db, session_name(value)) as (links, _server), httpx.Client(timeout=10) as http:
        seat = links.seats["Ben"]
        for read, params in phone_cases():
            answer = http.get(f"{seat}/{read}", params=tuple(params), headers={"Accept-Language": "de"})
            body = answer.json()
            # the words: "text", or a refusal's "error" sentence (a check's "error" is JSON)
            refusal = body.get("error") if answer.status_code >= 400 else ""
            text = str(body.get("text", "")) + "\n" + str(refusal)
            if english_in(text):
                found[f"{read} {params}"] = (english_in(text), text)
    assert not found, json.dumps(found, ensure_ascii=False, indent=1)


def test_the_phone_s_best_after_coming_out_asks_no_first_meld_issue_38_item_3(phone_db: Path) -> None:
    """Item 3: ``came_out=1`` is a hand that has come out: no "enough to come out"."""
    with in_process(phone_db, "standard") as (links, _server), httpx.Client(timeout=10) as http:
        params = {"hand": "P3 P4 P5 TB PB HB H9 K2", "came_out": "1"}
        text = http.get(
            links.seats["Ben"] + "/best", params=params, headers={"Accept-Language": "de"}
        ).json()["text"]
    assert "Rauskommen" not in text and "nötig" not in text, text
