"""How a front end prints cards and text: the notation profile, the ASCII fallback (a
terminal that cannot show suit symbols), and whether JSON was asked for. Pure: the
command line adds printing on top (:class:`romme_score.cli.options.Output`), the table
mode prints through it, a web page needs none of it.

>>> from romme_score.cards import parse_cards
>>> Output("de", ascii=True, json=False).cards(parse_cards("HK K10"))
'HK K10'
>>> Output("en", ascii=True, json=False).text("♣ ♥")
'C H'
>>> Output("de", ascii=True, json=False).text("0,40 € −10 €0.40")
'0,40 EUR -10 EUR 0.40'
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from romme_score.cards import Card, Profile, format_cards

# A suit's letter in plain ASCII, in the de and en notation.
SYMBOL_LETTERS = {"♣": ("T", "C"), "♠": ("P", "S"), "♥": ("H", "H"), "♦": ("K", "D")}
_EURO_BEFORE_DIGIT = "€(?=[0-9])"  # compiled on first use: only a line with € needs it

# What a terminal that cannot show a character shows instead (romme_score.cli.terminal),
# and what --ascii prints where it must be plain ASCII: a symbol of the program's output,
# or the German letters as German writes them without (Zähler as Zaehler, not Zahler).
PLAIN = {
    **{symbol: letters for symbol, (letters, _en) in SYMBOL_LETTERS.items()},
    "−": "-",
    "–": "-",
    "—": "-",
    "…": "...",
    "★": "*",
    "·": ".",
    "×": "x",
    "→": "->",
    "„": '"',
    "“": '"',
    "”": '"',
    "‚": "'",
    "‘": "'",
    "’": "'",
    "«": '"',
    "»": '"',
    "ä": "ae",
    "ö": "oe",
    "ü": "ue",
    "Ä": "Ae",
    "Ö": "Oe",
    "Ü": "Ue",
    "ß": "ss",
    "é": "e",  # Rommé
    "§": "sec. ",
    "Ø": "avg",
    "£": "GBP",
    "¥": "JPY",
    "\u00a0": " ",
    **dict.fromkeys("│┊┆", "|"),
    **dict.fromkeys("─┈┄", "-"),
    **dict.fromkeys("┌┐└┘┼┤├┬┴", "+"),
}


def plain_ascii(text: str) -> str:
    """``text`` in plain ASCII: :data:`PLAIN`'s spellings (``ä`` ae, ``é`` e, ``€`` EUR), any
    other accented letter without its accent, and ``?`` for what has no spelling.

    >>> plain_ascii("Zwischenstände: Zoë 0,40 € ★ 🃏"), plain_ascii("Zoe\u0308 Ñ")
    ('Zwischenstaende: Zoe 0,40 EUR * ?', 'Zoe N')
    """
    if text.isascii():
        return text
    import unicodedata

    text = re.sub(_EURO_BEFORE_DIGIT, "EUR ", unicodedata.normalize("NFC", text)).replace("€", "EUR")
    out = []
    for char in text:
        if char.isascii() or unicodedata.combining(char):  # a mark left over: dropped
            out.append(char if char.isascii() else "")
        elif char in PLAIN:
            out.append(PLAIN[char])
        else:
            bare = "".join(c for c in unicodedata.normalize("NFKD", char) if not unicodedata.combining(c))
            out.append(bare if bare.isascii() and bare else "?")
    return "".join(out)


class Output:
    """How to print: notation profile, ASCII fallback, JSON."""

    __slots__ = ("ascii", "json", "profile")

    def __init__(self, profile: Profile, ascii: bool, json: bool) -> None:
        self.profile = profile
        self.ascii = ascii
        self.json = json

    def card(self, card: Card) -> str:
        return card.format(self.profile, self.ascii)

    def cards(self, cards: Sequence[Card]) -> str:
        return format_cards(list(cards), self.profile, self.ascii)

    def text(self, text: str) -> str:
        """Free text as printed: when printing ASCII, suit symbols as their letters, ``€``
        as ``EUR`` and the minus sign ``−`` as ``-``."""
        if not self.ascii:
            return text
        for symbol, (de, en) in SYMBOL_LETTERS.items():
            text = text.replace(symbol, de if self.profile == "de" else en)
        if "€" in text:
            text = re.sub(_EURO_BEFORE_DIGIT, "EUR ", text).replace("€", "EUR")
        return text.replace("−", "-")


def leaderboard_json(tenths: int | None) -> float | None:
    """003's leaderboard points in JSON: a number with one decimal (7.7, 30.0). They are
    kept in tenths, whole numbers; n / 10 is the float whose shortest text is n's tenths
    exactly, so the JSON text is exact."""
    return None if tenths is None else tenths / 10
