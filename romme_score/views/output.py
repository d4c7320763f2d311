"""How a front end prints cards and text: the notation profile, the ASCII fallback (a
terminal that cannot show suit symbols), and whether JSON was asked for. Pure: the
command line adds printing on top (:class:`romme_score.cli.options.Output`), the table
mode prints through it, a web page needs none of it.

>>> from romme_score.cards import parse_cards
>>> Output("de", ascii=True, json=False).cards(parse_cards("HK K10"))
'HK K10'
>>> Output("en", ascii=True, json=False).text("♣ ♥")
'C H'
"""

from __future__ import annotations

from collections.abc import Sequence

from romme_score.cards import Card, Profile, format_cards


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
        """Replace suit symbols in free text when printing ASCII."""
        if not self.ascii:
            return text
        for symbol, letters in (
            ("♣", "T" if self.profile == "de" else "C"),
            ("♠", "P" if self.profile == "de" else "S"),
            ("♥", "H"),
            ("♦", "K" if self.profile == "de" else "D"),
        ):
            text = text.replace(symbol, letters)
        return text
