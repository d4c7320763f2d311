"""Cards and the card notation a user types at the table (docs/rules.md §1).

Two notation profiles read the letter forms: ``de`` (suit letter first, ``J``
is the joker, ``B``/``D``/``K`` are the face cards) and ``en`` (rank first,
``J`` is the jack, the joker is ``JK``/``JO``/``*``). Suit symbols read the
same in both.

>>> Card.parse("HK")
♥K
>>> Card.parse("10S", "en")
♠10
>>> parse_cards("HK K10 J")
[♥K, ♦10, J]
>>> Card.parse("J=H8").declared
♥8
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from romme_score.errors import InputProblem
from romme_score.i18n import _, language, shown

Profile = Literal["de", "en"]
PROFILES: tuple[Profile, ...] = ("de", "en")


class NotationError(InputProblem):
    """Text that cannot be read as cards. Names the token and its position."""

    def __init__(
        self,
        message: str,
        token: str = "",
        position: int = 0,
        suggestion: str | None = None,
        other_profile: Profile | None = None,
    ) -> None:
        super().__init__(message)
        self.token = token
        self.position = position
        self.suggestion = suggestion
        self.other_profile = other_profile  # the profile in which the token is a card


class Suit(enum.Enum):
    """The four suits in Skat order (004): Kreuz, Pik, Herz, Karo."""

    CLUBS = "C"
    SPADES = "S"
    HEARTS = "H"
    DIAMONDS = "D"

    # Members are singletons compared by identity, so identity hashing is exact
    # (and much faster than Enum's name hashing on the solver's hot path).
    __hash__ = object.__hash__

    @property
    def symbol(self) -> str:
        return _SUIT_SYMBOL[self]

    @property
    def german(self) -> str:
        """The German letter of the suit (T for Treff/Kreuz)."""
        return _SUIT_DE[self]

    @property
    def index(self) -> int:
        """Position in Skat order, 0 for Kreuz to 3 for Karo."""
        return _SUIT_INDEX[self]


_SUIT_ORDER = (Suit.CLUBS, Suit.SPADES, Suit.HEARTS, Suit.DIAMONDS)
SUITS = _SUIT_ORDER
_SUIT_INDEX = {suit: i for i, suit in enumerate(_SUIT_ORDER)}
_SUIT_SYMBOL = {Suit.CLUBS: "♣", Suit.SPADES: "♠", Suit.HEARTS: "♥", Suit.DIAMONDS: "♦"}
_SUIT_DE = {Suit.CLUBS: "T", Suit.SPADES: "P", Suit.HEARTS: "H", Suit.DIAMONDS: "K"}
_SYMBOLS = {
    "♣": Suit.CLUBS,
    "♧": Suit.CLUBS,
    "♠": Suit.SPADES,
    "♤": Suit.SPADES,
    "♥": Suit.HEARTS,
    "♡": Suit.HEARTS,
    "♦": Suit.DIAMONDS,
    "♢": Suit.DIAMONDS,
}
# 002 writes Kreuz as T (Treff) and once as C; X is a common keyboard stand-in.
_DE_SUIT_LETTERS = {
    "T": Suit.CLUBS,
    "X": Suit.CLUBS,
    "C": Suit.CLUBS,
    "P": Suit.SPADES,
    "H": Suit.HEARTS,
    "K": Suit.DIAMONDS,
}
_EN_SUIT_LETTERS = {"C": Suit.CLUBS, "S": Suit.SPADES, "H": Suit.HEARTS, "D": Suit.DIAMONDS}


class Rank(enum.IntEnum):
    """Ranks by their place in a low run: ace 1 up to king 13."""

    ACE = 1
    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13

    def letter(self, profile: Profile = "de") -> str:
        """The rank as printed: ``B``/``D``/``K`` in ``de``, ``J``/``Q``/``K`` in ``en``."""
        if self == Rank.ACE:
            return "A"
        if self <= Rank.TEN:
            return str(int(self))
        return ("BDK" if profile == "de" else "JQK")[self - Rank.JACK]

    @property
    def is_face(self) -> bool:
        return self >= Rank.JACK


RANKS = tuple(Rank)
_NUMBER_RANKS = {str(n): Rank(n) for n in range(2, 11)}
_DE_RANKS = {**_NUMBER_RANKS, "A": Rank.ACE, "B": Rank.JACK, "D": Rank.QUEEN, "K": Rank.KING}
_EN_RANKS = {**_NUMBER_RANKS, "A": Rank.ACE, "T": Rank.TEN, "J": Rank.JACK, "Q": Rank.QUEEN, "K": Rank.KING}
# With a suit symbol the rank letters cannot collide with suits, so both
# profiles' letters are read there ("Symbol forms are the same in both").
_SYMBOL_RANKS = {**_DE_RANKS, **_EN_RANKS}

_JOKER_WORDS = {"JO", "JK", "*", "🃏", "JOKER", "★"}
# Compiled on first use (start-up of romme check): only a declaration (J=H8, J(H8)) needs it.
_DECLARATION = r"^(?P<joker>[^=(]+?)\s*(?:=(?P<eq>.+)|\((?P<par>.+)\))$"


def _declaration(text: str) -> re.Match[str] | None:
    """``J=H8`` or ``J(H8)`` read as the joker's part and the declared card's."""
    return re.match(_DECLARATION, text) if "=" in text or "(" in text else None


@dataclass(frozen=True, slots=True)
class Card:
    """One playing card, or a joker (``rank`` and ``suit`` are None).

    A joker may carry ``declared``: the natural card it stands for as the
    player wrote it (``J=H8``, 004, 002 b).
    """

    rank: Rank | None
    suit: Suit | None
    declared: Card | None = None

    def __post_init__(self) -> None:
        if (self.rank is None) != (self.suit is None):
            raise NotationError("a card has both a rank and a suit, a joker neither")
        if self.declared is not None and (self.rank is not None or self.declared.is_joker):
            raise NotationError("only a joker can be declared, and only as a natural card")

    @classmethod
    def joker(cls, declared: Card | None = None) -> Card:
        return cls(None, None, declared)

    @classmethod
    def parse(cls, token: str, profile: Profile = "de", position: int = 1) -> Card:
        """Read one card in the given notation profile."""
        return parse_card(token, profile, position)

    @property
    def is_joker(self) -> bool:
        return self.rank is None

    @property
    def plain(self) -> Card:
        """The card without a joker declaration (a joker is a joker)."""
        return Card.joker() if self.is_joker else self

    def format(self, profile: Profile = "de", ascii: bool = False) -> str:
        """Print the card: suit symbol and rank, or letters with ``ascii``."""
        if self.rank is None or self.suit is None:
            base = "J" if profile == "de" else "JK"
            if self.declared is not None:
                return f"{base}={self.declared.format(profile, ascii)}"
            return base
        rank = self.rank.letter(profile)
        if not ascii:
            return f"{self.suit.symbol}{rank}"
        if profile == "de":
            return f"{self.suit.german}{rank}"
        return f"{rank}{self.suit.value}"

    def sort_key(self) -> tuple[int, int]:
        """Order by suit (Skat order) then rank; jokers last."""
        if self.rank is None or self.suit is None:
            return (4, 0)
        return (self.suit.index, int(self.rank))

    def __str__(self) -> str:
        return self.format()

    def __repr__(self) -> str:
        return self.format()


def full_deck(packs: int = 1, jokers: int = 0) -> list[Card]:
    """Every card of ``packs`` French packs plus ``jokers`` jokers."""
    naturals = [Card(rank, suit) for suit in SUITS for rank in RANKS]
    return naturals * packs + [Card.joker()] * jokers


def _ordinal(n: int) -> str:
    if language() == "de":
        return f"{n}."
    if 10 <= n % 100 <= 20:
        suffix = "th"
    else:
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _normalise(token: str) -> str:
    # Emoji presentation selectors and zero-width joiners come with some keyboards.
    return token.replace("\ufe0f", "").replace("\ufe0e", "").replace("\u200d", "").strip().upper()


def _try_symbol(text: str) -> Card | None:
    if text[:1] in _SYMBOLS:
        rank = _SYMBOL_RANKS.get(text[1:])
        return Card(rank, _SYMBOLS[text[0]]) if rank else None
    if text[-1:] in _SYMBOLS:
        rank = _SYMBOL_RANKS.get(text[:-1])
        return Card(rank, _SYMBOLS[text[-1]]) if rank else None
    return None


def _try_letters(text: str, profile: Profile) -> Card | None:
    if profile == "de":
        suit = _DE_SUIT_LETTERS.get(text[:1])
        rank = _DE_RANKS.get(text[1:])
    else:
        rank = _EN_RANKS.get(text[:-1])
        suit = _EN_SUIT_LETTERS.get(text[-1:])
    if suit is None or rank is None:
        return None
    return Card(rank, suit)


def _other_profile(profile: Profile) -> Profile:
    return "en" if profile == "de" else "de"


def _suggest(text: str, profile: Profile) -> tuple[str, str | None]:
    """Explain why ``text`` is not a card and guess what was meant."""
    other = _other_profile(profile)
    if profile == "de":
        # rank first, as in English order: "KH" meant as König Herz? "AH"?
        flipped = text[-1:] + text[:-1]
        if _try_letters(flipped, "de"):
            return (_("in the de notation the suit letter comes first"), flipped)
        if text == "J":  # pragma: no cover - J is the joker in de
            return ("", None)
    else:
        flipped = text[1:] + text[:1] if len(text) >= 2 else text
        card = _try_letters(flipped, "en")
        if card:
            return (_("in the en notation the rank comes first"), flipped)
        if text == "J":
            return (_("in the en notation J is the jack and needs a suit; the joker is JK or *"), "JK")
    other_card = _try_letters(text, other)
    if other_card is not None:
        return (
            _("it is a card only in the %(profile)s notation") % {"profile": other},
            other_card.format(profile, ascii=True),
        )
    mixed = _mixed_letters(text, profile)
    if mixed is not None:
        return (mixed[0], mixed[1].format(profile, ascii=True))
    suit_letters = _DE_SUIT_LETTERS if profile == "de" else _EN_SUIT_LETTERS
    ranks = _DE_RANKS if profile == "de" else _EN_RANKS
    if profile == "de":
        head, tail = text[:1], text[1:]
    else:
        head, tail = text[-1:], text[:-1]
    if head in suit_letters or text[:1] in _SYMBOLS or text[-1:] in _SYMBOLS:
        rank_text = tail
        if text[:1] in _SYMBOLS:
            rank_text = text[1:]
        elif text[-1:] in _SYMBOLS:
            rank_text = text[:-1]
        if rank_text == "":
            return (_("the rank is missing"), None)
        guess = _close_rank(
            rank_text, ranks if not (text[:1] in _SYMBOLS or text[-1:] in _SYMBOLS) else _SYMBOL_RANKS
        )
        allowed = "A, 2-10, B, D, K" if profile == "de" else "A, 2-10, J, Q, K"
        why = _("%(text)s is not a rank (%(allowed)s)") % {
            "text": shown(rank_text, quote=False),
            "allowed": allowed,
        }
        if guess is not None:
            return (why, text.replace(rank_text, guess.letter(profile), 1))
        return (why, None)
    if profile == "de" and text[:1] in _EN_SUIT_LETTERS and text[:1] not in _DE_SUIT_LETTERS:
        return (
            _("%(letter)s is not a suit letter in the de notation (T/X Kreuz, P Pik, H Herz, K Karo)")
            % {"letter": text[:1]},
            None,
        )
    if profile == "de":
        return (
            _(
                "a card is a suit letter (T/X Kreuz, P Pik, H Herz, K Karo) and a rank "
                "(A, 2-10, B, D, K), a suit symbol and a rank, or J for the joker"
            ),
            None,
        )
    return (
        _(
            "a card is a rank (A, 2-10, J, Q, K) and a suit letter (C, S, H, D), "
            "a suit symbol and a rank, or JK for the joker"
        ),
        None,
    )


# A letter of the other profile, read in this one (issue 20 item 24: TQ under de meant
# Treff Dame, TD). German ranks B/D for an English J/Q and back; K and A are the same;
# T for ten only in en. Suits: en S/D for de P/K and back; T/X Kreuz for en C.
_RANK_FROM_EN = {"J": Rank.JACK, "Q": Rank.QUEEN, "T": Rank.TEN}
_RANK_FROM_DE = {"B": Rank.JACK, "D": Rank.QUEEN}
_SUIT_FROM_EN = {"S": Suit.SPADES, "D": Suit.DIAMONDS}
_SUIT_FROM_DE = {"P": Suit.SPADES, "K": Suit.DIAMONDS, "T": Suit.CLUBS, "X": Suit.CLUBS}


def _mixed_letters(text: str, profile: Profile) -> tuple[str, Card] | None:
    """A card written in this profile's order with a rank or suit letter of the other
    profile: why it is not read, and the card meant (``TQ`` in de: Treff Dame, ``TD``).

    >>> _mixed_letters("TQ", "de")
    ('Q is not a rank (A, 2-10, B, D, K)', ♣D)
    >>> _mixed_letters("QP", "en")[1], _mixed_letters("BH", "en")[1], _mixed_letters("SK", "de")[1]
    (♠D, ♥B, ♠K)
    """
    if profile == "de":
        suit_text, rank_text = text[:1], text[1:]
        suit = _DE_SUIT_LETTERS.get(suit_text) or _SUIT_FROM_EN.get(suit_text)
        rank = _DE_RANKS.get(rank_text) or _RANK_FROM_EN.get(rank_text)
        ranks = _DE_RANKS
    else:
        rank_text, suit_text = text[:-1], text[-1:]
        suit = _EN_SUIT_LETTERS.get(suit_text) or _SUIT_FROM_DE.get(suit_text)
        rank = _EN_RANKS.get(rank_text) or _RANK_FROM_DE.get(rank_text)
        ranks = _EN_RANKS
    if suit is None or rank is None:
        return None
    card = Card(rank, suit)
    if rank_text not in ranks:
        allowed = "A, 2-10, B, D, K" if profile == "de" else "A, 2-10, J, Q, K"
        return _("%(text)s is not a rank (%(allowed)s)") % {"text": rank_text, "allowed": allowed}, card
    if profile == "de":
        why = _("%(letter)s is not a suit letter in the de notation (T/X Kreuz, P Pik, H Herz, K Karo)")
    else:
        why = _("%(letter)s is not a suit letter in the en notation (C, S, H, D)")
    return why % {"letter": suit_text}, card


def _close_rank(text: str, ranks: dict[str, Rank]) -> Rank | None:
    """A likely meant rank for a typo: 1 -> A or 10, 0 -> 10, 11..13 -> B/D/K, O -> 10."""
    guesses = {
        "1": Rank.TEN,
        "0": Rank.TEN,
        "O": Rank.TEN,
        "1O": Rank.TEN,
        "IO": Rank.TEN,
        "11": Rank.JACK,
        "12": Rank.QUEEN,
        "13": Rank.KING,
        "14": Rank.ACE,
        "AS": Rank.ACE,
        "Z": Rank.TEN,
    }
    if text in guesses:
        return guesses[text]
    if len(text) > 1 and text[0] in ranks and text.isalpha():
        return ranks[text[0]]
    return None


def parse_card(token: str, profile: Profile = "de", position: int = 1) -> Card:
    """Read one card; ``position`` (1-based) is only used in error messages.

    >>> parse_card("♥8")
    ♥8
    >>> parse_card("QC", "en").format("de", ascii=True)
    'TD'
    """
    if profile not in PROFILES:
        raise NotationError(_("unknown notation profile %(profile)r: use de or en") % {"profile": profile})
    raw = token
    text = _normalise(token)
    where = _("(%(ordinal)s card)") % {"ordinal": _ordinal(position)}
    if not text:
        raise NotationError(_("empty card %(where)s") % {"where": where}, raw, position)
    match = _declaration(text)
    if match:
        joker_part = match.group("joker").strip()
        if _is_joker_word(joker_part, profile):
            inner = (match.group("eq") or match.group("par") or "").strip()
            nested = _declaration(_normalise(inner))
            if nested and _is_joker_word(nested.group("joker").strip(), profile):
                # J=J=...: refused here, before reading on (no recursion however deep)
                raise NotationError(
                    _("a joker cannot stand for another joker in %(raw)s %(where)s")
                    % {"raw": shown(raw), "where": where},
                    raw,
                    position,
                )
            try:
                declared = parse_card(inner, profile, position)
            except NotationError as exc:
                raise NotationError(
                    _("cannot read the card the joker stands for in %(raw)s %(where)s: %(reason)s")
                    % {"raw": shown(raw), "where": where, "reason": _reason_of(exc)},
                    raw,
                    position,
                    exc.suggestion,
                ) from None
            if declared.is_joker:
                raise NotationError(
                    _("a joker cannot stand for another joker in %(raw)s %(where)s")
                    % {"raw": shown(raw), "where": where},
                    raw,
                    position,
                )
            return Card.joker(declared)
    if _is_joker_word(text, profile):
        return Card.joker()
    card = _try_symbol(text) or _try_letters(text, profile)
    if card is not None:
        return card
    why, suggestion = _suggest(text, profile)
    message = _("cannot read card %(raw)s %(where)s: %(reason)s") % {
        "raw": shown(raw),
        "where": where,
        "reason": why,
    }
    if suggestion:
        message += "; " + _("did you mean %(card)s?") % {"card": shown(suggestion)}
    other: Profile = "en" if profile == "de" else "de"
    in_other = other if _try_letters(text, other) is not None else None
    raise NotationError(message, raw, position, suggestion, in_other)


def _reason_of(exc: NotationError) -> str:
    text = str(exc)
    return text.split(": ", 1)[1] if ": " in text else text


def _is_joker_word(text: str, profile: Profile) -> bool:
    return text in _JOKER_WORDS or (profile == "de" and text == "J")


def split_tokens(text: str) -> list[str]:
    """Split on spaces, commas and semicolons, keeping ``J(♥8)`` and ``J = H8`` whole.

    What splitting on ``[\\s,;]+`` gives: ``str.split()`` splits on the same whitespace
    as ``\\s`` (tests/test_cards.py); no pattern is compiled for a line without a
    declaration (start-up of romme check)."""
    if "=" in text or "(" in text or ")" in text:
        text = re.sub(r"\s*=\s*", "=", text)
        text = re.sub(r"\s*\(\s*", "(", text)
        text = re.sub(r"\s*\)", ")", text)
    return text.replace(",", " ").replace(";", " ").split()


def parse_cards(text: str, profile: Profile = "de") -> list[Card]:
    """Read a hand or a meld: cards separated by spaces and/or commas.

    >>> parse_cards("♥K, K♥ ♣10", "en")
    [♥K, ♥K, ♣10]
    """
    return [parse_card(token, profile, i) for i, token in enumerate(split_tokens(text), 1)]


def format_cards(cards: Sequence[Card], profile: Profile = "de", ascii: bool = False) -> str:
    """Print cards separated by spaces."""
    return " ".join(card.format(profile, ascii) for card in cards)
