"""The rounds of ``tests/test_doors.py``: a seeded corpus of round inputs, each one as a
person would give it at any door (who went out, as typed; the hands, as typed; the marks),
and the evenings they are given in.

Each input has at most one thing wrong with it, so that every door has one reason to
refuse it and the verdicts can be compared. ``pty`` says whether the table mode at a
terminal can be told it at all: it asks each hand by seat, so it cannot be given a hand
under another name, no hand at all, a winner and a stalemate at once, or cards for the
winner.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

from romme_score.rules import RuleSet, build_rules
from romme_score.scoring import UNLIKELY_POINTS, most_points_in_hand

SEED = 27_6  # issue 27, item 6
FOUR = ("Anna", "Ben", "Carl", "Dora")
THREE = ("Anna", "Ben", "Carl")


@dataclass(frozen=True)
class Setup:
    """An evening as ``romme new`` starts it (``new`` options), then its earlier rounds
    (``romme round`` options each), the same at every door."""

    session: str
    players: tuple[str, ...]
    options: tuple[str, ...] = ()
    earlier: tuple[tuple[str, ...], ...] = ()

    def new_args(self) -> list[str]:
        return ["new", self.session, *self.options, *self.players]

    def rules(self) -> RuleSet:
        items: list[str] = []
        preset = None
        until = None
        words = list(self.options)
        while words:
            flag, value = words.pop(0), words.pop(0)
            if flag == "--preset":
                preset = value
            elif flag == "--rule":
                items.append(value)
            elif flag == "--until":
                until = value
        rules = build_rules(preset, tuple(items), None, "rules")
        if until is not None:
            from romme_score.rules import GameEnd

            rules = rules.replace(game_end=GameEnd.parse(until))
        return rules

    @property
    def finished(self) -> bool:
        return "--until" in self.options


SETUPS: dict[str, Setup] = {
    "standard": Setup("Friday", FOUR),
    "played": Setup("Played", FOUR, (), (("--winner", "Ben", "Anna=30", "Carl=12", "Dora=HK"),)),
    "ann-anna": Setup("Club", ("Ann", "Anna", "Ben", "Carl")),
    "basic": Setup("Basic", THREE, ("--preset", "basic")),
    "wiki-51": Setup(
        "Wiki",
        FOUR,
        ("--preset", "wiki-51", "--rule", "never_out_doubles=true", "--rule", "joker_in_hand_doubles=true"),
    ),
    "speedromme": Setup("Speed", FOUR, ("--preset", "speedromme")),
    "call-out": Setup("Ten", THREE, ("--rule", "call_out_max=10")),
    "over-rounds": Setup(
        "Quick", THREE, ("--until", "rounds:1"), (("--winner", "Anna", "Ben=12", "Carl=5"),)
    ),
    "over-points": Setup("Low", THREE, ("--until", "30"), (("--winner", "Anna", "Ben=40", "Carl=5"),)),
}


@dataclass(frozen=True)
class Case:
    """One round input: ``winner`` as typed (None: nobody said), ``hands`` as
    ``(NAME, TEXT)`` typed, ``never_out`` as typed."""

    ident: str
    category: str
    setup: str
    winner: str | None
    hands: tuple[tuple[str, str], ...]
    stalemate: bool = False
    hand_romme: bool = False
    never_out: tuple[str, ...] = ()
    pty: bool = True
    unlikely: frozenset[str] = field(default_factory=frozenset)  # hands the table asks again

    def round_args(self) -> list[str]:
        """The arguments of ``romme round`` (and of a ``romme play`` script line)."""
        args = ["round"]
        if self.winner is not None:
            args += ["--winner", self.winner]
        if self.stalemate:
            args.append("--stalemate")
        if self.hand_romme:
            args.append("--hand-romme")
        for name in self.never_out:
            args += ["--never-out", name]
        args += [f"{name}={text}" for name, text in self.hands]
        return args

    def __str__(self) -> str:
        import shlex

        return f"[{self.setup}] romme {shlex.join(self.round_args())}"


# --- cards ------------------------------------------------------------------------------

SUITS = "HKPT"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "B", "D", "K")
SYMBOLS = {"H": "♥", "K": "♦", "P": "♠", "T": "♣"}


def deck(rules: RuleSet) -> list[str]:
    """Every card of the packs in play, in de letters, jokers as J."""
    cards = [s + r for s in SUITS for r in RANKS for _ in range(rules.packs)]
    return cards + ["J"] * rules.jokers


def written(card: str, rng: random.Random) -> str:
    """A card as someone may type it: letters, lower case, or a suit symbol either side."""
    if card == "J":
        return rng.choice(["J", "J", "j", "*"])
    form = rng.randrange(6)
    if form == 3:
        return card.lower()
    if form == 4:
        return SYMBOLS[card[0]] + card[1:]
    if form == 5:
        return card[1:] + SYMBOLS[card[0]]
    return card


def hand_texts(
    rng: random.Random, rules: RuleSet, players: Sequence[str], points_share: float = 0.3
) -> list[tuple[str, str]]:
    """A readable hand for each player, cards drawn from the packs (so the supply holds),
    some counted by hand instead."""
    pile = deck(rules)
    rng.shuffle(pile)
    hands = []
    for name in players:
        if rng.random() < points_share:
            hands.append((name, str(rng.choice([0, 0, 1, 5, 9, 10, 12, 23, 40, 77, 99, 120, 149]))))
            continue
        count = rng.randint(1, 7)
        cards, pile = pile[:count], pile[count:]
        sep = rng.choice([" ", " ", ", ", ","])
        hands.append((name, sep.join(written(c, rng) for c in cards)))
    return hands


UNREADABLE = (
    "HX",  # X is no rank
    "H",  # the rank is missing
    "Z5",  # no suit Z
    "H11",
    "HKK",
    "♥",
    "K♥♥",
    "abc",
    "H5 H6 Q7",
    "KH 10S",  # the other notation (en) in the de notation
    "QC",
    "10D JH",
    "AS KS",
    "J=H",  # a joker for no card
    "J(♥)",
    "1e3",  # numbers that are no whole number of points
    "2.5",
    "--5",
    "²",
    "½",
    "0x10",
    "-5",  # negative
    "-1",
    "10000",  # above what anyone types
    "99999",
    "",  # nothing
    "   ",
)


CARD_LIKE = frozenset(UNREADABLE[:15])  # the tokens above that are no number


def other_players(players: Sequence[str], winner: str) -> list[str]:
    return [p for p in players if p != winner]


# --- the corpus -------------------------------------------------------------------------


class Builder:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.cases: list[Case] = []
        self.counts: Counter[str] = Counter()

    def add(
        self,
        category: str,
        setup: str,
        winner: str | None,
        hands: Sequence[tuple[str, str]],
        *,
        stalemate: bool = False,
        hand_romme: bool = False,
        never_out: tuple[str, ...] = (),
        pty: bool = True,
    ) -> None:
        self.counts[category] += 1
        ident = f"{category}-{self.counts[category]:03d}"
        rules = SETUPS[setup].rules()
        limit = min(UNLIKELY_POINTS, most_points_in_hand(rules))
        most = most_points_in_hand(rules)
        unlikely = frozenset(
            name
            for name, text in hands
            if text.strip().isascii() and text.strip().isdigit() and limit < int(text.strip()) <= most
        )
        self.cases.append(
            Case(
                ident,
                category,
                setup,
                winner,
                tuple(hands),
                stalemate=stalemate,
                hand_romme=hand_romme,
                never_out=never_out,
                pty=pty,
                unlikely=unlikely,
            )
        )

    def players(self, setup: str) -> tuple[str, ...]:
        return SETUPS[setup].players

    def valid(self, setup: str, winner: str | None = None) -> tuple[str, list[tuple[str, str]]]:
        players = self.players(setup)
        w = winner if winner is not None else self.rng.choice(players)
        return w, hand_texts(self.rng, SETUPS[setup].rules(), other_players(players, w))


def build(seed: int = SEED) -> list[Case]:
    """The corpus: deterministic for a seed."""
    b = Builder(seed)
    rng = b.rng
    open_setups = ["standard", "played", "ann-anna", "basic", "wiki-51", "speedromme", "call-out"]

    # readable hands, winners typed in full
    for i in range(60):
        setup = open_setups[i % len(open_setups)]
        w, hands = b.valid(setup)
        b.add("readable", setup, w, hands)

    # the winner typed as the table types it: a seat, first letters, any case, spaces
    for i in range(30):
        setup = ["standard", "played", "basic", "speedromme", "ann-anna"][i % 5]
        players = b.players(setup)
        w, hands = b.valid(setup)
        seat = str(players.index(w) + 1)
        forms = [seat, w.lower(), w.upper(), f" {w} "]
        if setup != "ann-anna":
            forms.append(w[:1].lower())
            forms.append(w[:2])
        elif w in ("Ben", "Carl"):
            forms.append(w[:1].lower())
        b.add("winner-typed", setup, rng.choice(forms), hands)

    # unreadable hands: bad tokens, the other notation, no number of points
    for i in range(80):
        setup = ["standard", "played", "basic", "wiki-51", "ann-anna"][i % 5]
        w, hands = b.valid(setup)
        at = rng.randrange(len(hands))
        bad = UNREADABLE[i % len(UNREADABLE)]
        if i >= len(UNREADABLE) and bad in CARD_LIKE:  # a bad token among good cards
            bad = rng.choice(["HK K10", "P7", "J T2"]) + " " + bad
        hands[at] = (hands[at][0], bad)
        b.add("unreadable", setup, w, hands, pty=bool(bad.strip()))  # an empty line is no answer at the table

    # points counted by hand: 0, 150, 151, the most a hand holds, above it, 300, 500
    for setup in ["standard", "played", "basic", "wiki-51", "speedromme", "call-out"]:
        most = most_points_in_hand(SETUPS[setup].rules())
        for points in sorted({0, 149, 150, 151, 200, most - 1, most, most + 1, 300, 500, 9999}):
            w, hands = b.valid(setup)
            at = rng.randrange(len(hands))
            hands[at] = (hands[at][0], str(points))
            category = "points-too-many" if points > most else "points-unlikely" if points > 150 else "points"
            b.add(category, setup, w, hands)
        for _ in range(2):  # two hands of unlikely points in one round
            w, hands = b.valid(setup)
            if len(hands) >= 2:
                hands[0] = (hands[0][0], str(rng.randint(151, most)))
                hands[1] = (hands[1][0], str(rng.randint(151, most)))
                b.add("points-unlikely", setup, w, hands)

    # winners nobody is, or several could be
    unknown = ["Zed", "Bne", "Xaver", "Anne-Marie", "Dorothea", "7", "9", "12", "Carla"]
    for i in range(30):
        setup = ["standard", "played", "basic", "speedromme"][i % 4]
        _, hands = b.valid(setup, b.players(setup)[0])
        typed = unknown[i % len(unknown)]
        if setup in ("basic",) and typed in ("Dorothea",):
            typed = "Dora"  # no Dora at a table of three
        b.add("winner-unknown", setup, typed, hands)
    for i in range(16):
        _, hands = b.valid("ann-anna", "Carl")
        typed = ["an", "a", "AN", " a ", "5", "Annabel", "anne", "Bem"][i % 8]
        b.add(
            "winner-ambiguous" if typed.strip().lower() in ("a", "an") else "winner-unknown",
            "ann-anna",
            typed,
            hands,
        )
    for _i in range(6):
        _, hands = b.valid("standard", "Anna")
        b.add("winner-unknown", "standard", "", hands, pty=False)  # an empty line is no answer there

    # stalemates: everyone counts (most rules), nobody scores (basic rummy)
    for i in range(24):
        setup = ["standard", "played", "wiki-51", "speedromme", "ann-anna", "call-out"][i % 6]
        hands = hand_texts(rng, SETUPS[setup].rules(), b.players(setup))
        b.add("stalemate", setup, None, hands, stalemate=True)
    for _i in range(6):
        b.add("stalemate", "basic", None, [], stalemate=True)
    for _i in range(4):  # hands given where nobody scores: kept, never counted
        hands = hand_texts(rng, SETUPS["basic"].rules(), b.players("basic"))
        b.add("stalemate", "basic", None, hands, stalemate=True, pty=False)
    for i in range(8):  # a stalemate and a winner at once
        setup = ["standard", "played", "basic", "wiki-51"][i % 4]
        w, hands = b.valid(setup)
        b.add("stalemate-with-winner", setup, w, hands, stalemate=True, pty=False)
    for i in range(8):  # a Hand-Rommé in a stalemate: nobody went out
        setup = ["standard", "played", "wiki-51", "speedromme"][i % 4]
        hands = hand_texts(rng, SETUPS[setup].rules(), b.players(setup))
        b.add("no-winner", setup, None, hands, stalemate=True, hand_romme=True)
    for i in range(8):  # nobody went out, and no stalemate
        setup = ["standard", "played", "basic", "wiki-51"][i % 4]
        w, hands = b.valid(setup)
        b.add("no-winner", setup, None, hands, hand_romme=i % 2 == 1, pty=False)

    # Hand-Rommé
    for i in range(30):
        setup = ["standard", "played", "wiki-51", "speedromme", "basic", "call-out"][i % 6]
        w, hands = b.valid(setup)
        b.add("hand-romme", setup, w, hands, hand_romme=True)

    # never out: doubled under wiki-51 here (never_out_doubles), a mark elsewhere
    for i in range(36):
        setup = ["wiki-51", "wiki-51", "standard", "played", "ann-anna", "speedromme"][i % 6]
        players = b.players(setup)
        w, hands = b.valid(setup)
        losers = other_players(players, w)
        marked = rng.sample(losers, rng.randint(1, min(2, len(losers))))
        forms = []
        for name in marked:
            seat = str(players.index(name) + 1)
            forms.append(rng.choice([name, name.lower(), seat, name]))
        b.add("never-out", setup, w, hands, never_out=tuple(forms), hand_romme=rng.random() < 0.2)
    for i in range(8):
        setup = ["wiki-51", "standard", "ann-anna", "played"][i % 4]
        w, hands = b.valid(setup, "Ben")
        typed = ["Zed", "Xaver", "an", "9"][i % 4] if setup != "ann-anna" else "an"
        b.add("never-out-unknown", setup, w, hands, never_out=(typed,))

    # finished games: a game of one round already played, or a low point limit reached
    for i in range(40):
        setup = "over-rounds" if i % 2 == 0 else "over-points"
        kind = i % 5
        if kind == 3:
            hands = hand_texts(rng, SETUPS[setup].rules(), b.players(setup))
            b.add("game-over", setup, None, hands, stalemate=True)
        else:
            w, hands = b.valid(setup)
            b.add("game-over", setup, w, hands, hand_romme=kind == 4)

    # the card supply: more copies of a card than the packs hold, more jokers than in play
    for i in range(50):
        setup = ["standard", "played", "basic", "wiki-51", "speedromme"][i % 5]
        rules = SETUPS[setup].rules()
        players = b.players(setup)
        w = rng.choice(players)
        losers = other_players(players, w)
        hands = hand_texts(rng, rules, losers, points_share=0.0)
        if i % 3 == 0 and rules.jokers:
            extra = ["J"] * (rules.jokers + 1)
        elif i % 3 == 0:
            extra = ["J"]  # basic rummy has no jokers at all
        else:
            card = rng.choice(SUITS) + rng.choice(RANKS)
            extra = [card] * (rules.packs + 1)
        for n, card in enumerate(extra):
            at = n % len(hands) if i % 2 == 0 else 0  # spread over the hands, or in one hand
            name, text = hands[at]
            hands[at] = (name, f"{text} {written(card, rng)}")
        b.add("supply", setup, w, hands)

    # a hand missing
    for i in range(20):
        setup = ["standard", "played", "basic", "wiki-51", "ann-anna"][i % 5]
        w, hands = b.valid(setup)
        del hands[rng.randrange(len(hands))]
        b.add("missing-hands", setup, w, hands, pty=False)

    # cards for the winner: refused, unless call_out_max lets a round end with them
    for i in range(24):
        setup = ["standard", "played", "call-out", "call-out"][i % 4]
        w, hands = b.valid(setup)
        held = rng.choice(["H5", "P2 K3", "T10", "HK", "5", "10", "11", "J", "HA", "0"])
        hands.insert(rng.randrange(len(hands) + 1), (w, held))
        b.add("winner-cards", setup, w, hands, pty=False)

    # a hand under another name: a seat number, first letters, nobody's name
    for i in range(20):
        setup = ["standard", "played", "basic", "ann-anna"][i % 4]
        players = b.players(setup)
        w, hands = b.valid(setup)
        at = rng.randrange(len(hands))
        name = hands[at][0]
        typed = rng.choice([str(players.index(name) + 1), name.lower(), name[:3], "Zed", "Xaver"])
        if setup == "ann-anna" and name in ("Ann", "Anna"):
            typed = rng.choice(
                ["an", "Ann".lower() if name == "Ann" else "anna", "1" if name == "Ann" else "2"]
            )
        hands[at] = (typed, hands[at][1])
        b.add("hand-named", setup, w, hands, pty=False)

    return b.cases


def pty_sample(cases: Sequence[Case], size: int = 52, seed: int = SEED) -> list[Case]:
    """The inputs the table mode is given at a terminal: ``size`` of those it can be told,
    chosen by the seed in turn from every category (a process each: the sample keeps the
    suite's time)."""
    rng = random.Random(seed + 1)
    by_category: dict[str, list[Case]] = {}
    for case in cases:
        if case.pty:
            by_category.setdefault(case.category, []).append(case)
    for group in by_category.values():
        rng.shuffle(group)
    chosen: list[Case] = []
    while len(chosen) < size and any(by_category.values()):
        for category in sorted(by_category):
            if by_category[category] and len(chosen) < size:
                chosen.append(by_category[category].pop())
    return chosen


def categories(cases: Sequence[Case]) -> Iterator[tuple[str, int]]:
    yield from sorted(Counter(c.category for c in cases).items())
