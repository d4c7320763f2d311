"""The one input layer for what a user types: numbers, names, the player meant and the
cards left in a hand; used by every command, the table mode and import. Pure: text in, a
value or one clear sentence out, the same sentence wherever the same mistake is typed.

Numbers: digits are the decimal digits of any script (Unicode category Nd: ``0-9``,
full-width ``０-９``, Arabic-Indic ``٠-٩`` ...), read as their value. Superscripts,
fractions, Roman numerals, a doubled sign (``--5``), thousands separators and
anything else are refused, as are numbers outside the range each field allows
(named in the message). Decimals take ``.`` or ``,`` as the decimal mark, never an
exponent, ``NaN`` or ``Infinity``.

Text (:func:`clean_text`): whatever a field holds, it is valid text. Python hands a
command line's undecodable bytes to the program as lone surrogates (U+DC80-U+DCFF) and a
JSON file may spell any lone surrogate as an escape; neither is text, and SQLite cannot
store them. Each is refused naming the field, the byte and where it is.

Names (players, sessions): valid text; trimmed; non-empty; at most :data:`MAX_NAME`
characters; no ``=`` (it separates name and cards in ``NAME=CARDS``) and no control
characters; unique ignoring case within a session. Notes (:func:`clean_note`): valid
text, trimmed, not blank, at most :data:`MAX_NOTE` characters.

>>> clean_note("caf\\udce9", "the note")
Traceback (most recent call last):
romme_score.inputs.InputValueError: the note is not valid text (byte 0xE9 at position 4)

>>> parse_int("٣٥", "Ben", 0, 9999)
35
>>> parse_int("²", "Ben", 0, 9999)
Traceback (most recent call last):
romme_score.inputs.InputValueError: Ben: '²' is not a whole number (use the digits 0-9)
>>> str(parse_decimal("0,001", "--rate", 0, 1000, places=8))
'0.001'
>>> clean_name("  Anna ")
'Anna'

Players (:func:`choose_player`): a seat number, a name or a unique prefix, ignoring case
and surrounding spaces; a name typed in full wins over a seat number and a prefix.

>>> choose_player("b", ["Anna", "Ben"]), choose_player("2", ["Anna", "Ben"])
('Ben', 'Ben')
>>> choose_player("an", ["Ann", "Anna", "Ben"])
Traceback (most recent call last):
romme_score.inputs.PlayerChoiceError: 'an' could be Ann or Anna: type more letters

Hands (:func:`read_hand`): cards in notation, or the points counted by hand.

>>> read_hand("Ben", "HK K10").cards, read_hand("Ben", "٢٣").points
((♥K, ♦10), 23)
"""

from __future__ import annotations

import enum
import re
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # decimal is imported where a decimal is read: romme check never needs it
    from datetime import date
    from decimal import Decimal

from dataclasses import dataclass

from romme_score.cards import Card, NotationError, Profile, parse_cards, split_tokens
from romme_score.errors import InputProblem
from romme_score.i18n import _, shown

MAX_NAME = 40
MAX_NOTE = 500  # characters in one note
MAX_CURRENCY = 10  # characters of a currency: a code (EUR) or a symbol (€, Kč)
MAX_TIME = 64  # characters of a time kept with a round or a note (ISO 8601 takes 25)
MAX_POINTS = 9999  # points left in one hand, counted by hand
MAX_TOTAL = 10**9  # a total typed from a paper scoresheet


class InputValueError(InputProblem):
    """A number or name as typed cannot be used: one sentence naming the field and the rule."""


@dataclass(frozen=True)
class Hand:
    """What one player had left, as typed: cards, or points counted by hand. (Its points
    under a rule set are :func:`romme_score.scoring.hand_points`.)"""

    cards: tuple[Card, ...] | None = None
    points: int | None = None
    never_out: bool = False

    @property
    def has_joker(self) -> bool:
        return self.cards is not None and any(c.is_joker for c in self.cards)


def ascii_digits(text: str) -> str | None:
    """The ASCII digits of a string of decimal digits of any script (Unicode category Nd,
    which is what ``str.isdecimal`` tests), or None."""
    if not text or not text.isdecimal():
        return None
    if text.isascii():
        return text
    return "".join(str(int(ch)) for ch in text)


def looks_like_number(text: str) -> bool:
    """Whether typed text is meant as a number rather than cards: signs and digits of any
    kind (superscripts too), so that :func:`parse_int` can refuse it with the right sentence."""
    body = text.strip().lstrip("+-")
    return body.isnumeric()  # decimal digits of any script, superscripts, fractions, numerals


def parse_int(text: str, what: str, lo: int, hi: int) -> int:
    """A whole number from ``lo`` to ``hi``, as typed; else :class:`InputValueError`."""
    body = text.strip()
    sign = 1
    if body[:1] in ("+", "-"):
        sign = -1 if body[0] == "-" else 1
        body = body[1:]
    digits = ascii_digits(body)
    if digits is None:
        raise InputValueError(
            _("%(what)s: %(text)s is not a whole number (use the digits 0-9)")
            % {"what": what, "text": shown(text.strip())}
        )
    if len(digits) > 18:  # far beyond every range; int() of a huge string is slow
        raise InputValueError(
            _("%(what)s: %(value)s is out of range: allowed %(lo)s to %(hi)s")
            % {"what": what, "value": shown(text.strip(), quote=False), "lo": lo, "hi": hi}
        )
    value = sign * int(digits)
    if not lo <= value <= hi:
        if value < 0 <= lo:
            raise InputValueError(
                _("%(what)s: %(value)s cannot be negative (allowed %(lo)s to %(hi)s)")
                % {"what": what, "value": value, "lo": lo, "hi": hi}
            )
        raise InputValueError(
            _("%(what)s: %(value)s is out of range: allowed %(lo)s to %(hi)s")
            % {"what": what, "value": value, "lo": lo, "hi": hi}
        )
    return value


def parse_decimal(
    text: str,
    what: str,
    lo: Decimal | int,
    hi: Decimal | int,
    *,
    places: int,
    above: bool = False,
    typed: str | None = None,
) -> Decimal:
    """A decimal number (``0.01`` or ``0,01``) from ``lo`` (exclusive when ``above``) to ``hi``
    with at most ``places`` decimal places; else :class:`InputValueError`. ``typed`` is the
    text the person typed, where ``text`` is a part of it (``150`` of ``150%``): the
    sentence quotes what was typed.

    >>> parse_decimal("150", "prizes", 0, 100, places=2, typed="150%")
    Traceback (most recent call last):
    romme_score.inputs.InputValueError: prizes '150%' is out of range: allowed from 0 to 100
    """
    from decimal import Decimal

    typed = (text if typed is None else typed).strip()
    body = text.strip().replace(",", ".")
    sign = ""
    if body[:1] in ("+", "-"):
        sign, body = body[0], body[1:]
    whole, dot, frac = body.partition(".")
    whole_digits = ascii_digits(whole) if whole else ""
    frac_digits = ascii_digits(frac) if frac else ""
    if (
        whole_digits is None
        or frac_digits is None
        or not (whole_digits or frac_digits)
        or "." in frac
        or len(whole_digits) > 18
    ):
        raise InputValueError(
            _("%(what)s %(text)s is not a decimal number (e.g. 0.01)") % {"what": what, "text": shown(typed)}
        )
    number = Decimal(f"{sign}{whole_digits or '0'}" + (f".{frac_digits}" if frac_digits else ""))
    if len(frac_digits.rstrip("0")) > places:
        raise InputValueError(
            _("%(what)s %(text)s has more than %(places)d decimal places")
            % {"what": what, "text": shown(typed), "places": places}
        )
    low_ok = number > lo if above else number >= lo
    if not low_ok or number > hi:
        if number < 0 <= lo:
            raise InputValueError(
                _("%(what)s %(text)s must not be negative") % {"what": what, "text": shown(typed)}
            )
        if above:
            message = _("%(what)s %(text)s is out of range: allowed more than %(lo)s to %(hi)s")
        else:
            message = _("%(what)s %(text)s is out of range: allowed from %(lo)s to %(hi)s")
        raise InputValueError(message % {"what": what, "text": shown(typed), "lo": lo, "hi": hi})
    return number


def nfc(text: str) -> str:
    """``text`` composed (NFC): an umlaut typed as a letter and a combining mark (NFD, as
    macOS writes it) is the one character a German keyboard types, so that what a person
    typed matches a word or a name however it was typed.

    >>> nfc("Jo\u0308rg") == "Jörg"
    True
    """
    if text.isascii():  # the common case, without unicodedata (romme check's start-up)
        return text
    import unicodedata

    return unicodedata.normalize("NFC", text)


def fold(text: str) -> str:
    """``text`` as names are compared: composed and case-folded (as the league compares people)."""
    return nfc(nfc(text).casefold())


_NOT_TEXT = "[\ud800-\udfff]"  # lone surrogates: what is not text in a str


def clean_text(text: str, what: str, *, escaped_bytes: bool = True) -> str:
    """``text`` composed (:func:`nfc`) if it is valid text, else :class:`InputValueError`
    naming the field ``what`` (already translated), the byte or code point and its position
    (counted from 1 in the bytes typed, or in the characters of a file). With
    ``escaped_bytes`` false (text decoded strictly, as a JSON body's: a lone surrogate there
    was written as one, ``"\\udc80"``), every surrogate is named as one, none as a byte.

    >>> clean_text("Café", "the note")
    'Café'
    >>> try:
    ...     clean_text("x\\ud800", "the note")
    ... except InputValueError as exc:
    ...     print(exc)
    the note is not valid text (U+D800 at position 2 is half of a surrogate pair)
    """
    if text.isascii():  # the common case, without compiling the pattern (romme check's start-up)
        return text
    found = re.search(_NOT_TEXT, text)
    if found is None:
        return nfc(text)
    code = ord(found.group())
    if escaped_bytes and 0xDC80 <= code <= 0xDCFF:  # a byte that could not be decoded, as Python keeps it
        position = len(text[: found.start()].encode("utf-8", "surrogateescape")) + 1
        raise InputValueError(
            _("%(what)s is not valid text (byte 0x%(byte)02X at position %(position)d)")
            % {"what": what, "byte": code - 0xDC00, "position": position}
        )
    raise InputValueError(
        _("%(what)s is not valid text (U+%(code)04X at position %(position)d is half of a surrogate pair)")
        % {"what": what, "code": code, "position": found.start() + 1}
    )


_HOST_LABEL = re.compile(r"[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?", re.IGNORECASE)


def read_host(text: str) -> tuple[str, int | None] | None:
    """The host and port of ``NAME`` or ``NAME:PORT`` as an address gives them, or None
    if ``text`` is not one: a host name (dot-separated labels of ASCII letters, digits,
    hyphens and underscores), an IPv4 address or an IPv6 one in brackets, and a port of
    digits 0-65535. A scheme, user information, a path, a query or a space is none.

    >>> read_host("Laptop.local:8765"), read_host("[::1]"), read_host("10.0.0.5")
    (('Laptop.local', 8765), ('::1', None), ('10.0.0.5', None))
    >>> read_host("https://a"), read_host("a:port"), read_host("a:65536"), read_host("x@evil")
    (None, None, None, None)
    """
    host, sep, port = text.rpartition(":") if not text.endswith("]") else (text, "", "")
    if not sep:
        host = text
    if host.startswith("[") and host.endswith("]"):
        import ipaddress

        try:
            host = str(ipaddress.IPv6Address(host[1:-1]))
        except ValueError:
            return None
    else:
        labels = host[:-1].split(".") if host.endswith(".") else host.split(".")
        if len(host) > 253 or not all(_HOST_LABEL.fullmatch(label) for label in labels):
            return None
    if not sep:
        return host, None
    if not (port.isascii() and port.isdigit()) or int(port) > 65535:
        return None
    return host, int(port)


def _has_control(text: str) -> bool:
    import unicodedata  # only for names: the referee's start-up never needs it

    return not text.isprintable() and any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in text)


def clean_note(text: str, what: str | None = None) -> str:
    """A note's text: valid text, trimmed, not blank, at most :data:`MAX_NOTE` characters;
    ``what`` names the field (already translated; default: "the note").

    >>> clean_note("  redealt ")
    'redealt'
    >>> clean_note(" ")
    Traceback (most recent call last):
    romme_score.inputs.InputValueError: a note needs some text
    """
    clean_text(text, _("the note") if what is None else what)
    body = text.strip()
    if not body:
        raise InputValueError(_("a note needs some text"))
    if len(body) > MAX_NOTE:
        raise InputValueError(_("a note holds at most %(max)d characters") % {"max": MAX_NOTE})
    return body


def clean_currency(text: str, what: str) -> str:
    """A currency: a code or a symbol (``EUR``, ``€``, ``Kč``), trimmed, of 1 to
    :data:`MAX_CURRENCY` characters without spaces or control characters, upper case.

    >>> clean_currency(" eur ", "--currency")
    'EUR'
    """
    clean_text(text, what)
    code = text.strip()
    if not code or len(code) > MAX_CURRENCY or any(ch.isspace() for ch in code) or _has_control(code):
        raise InputValueError(
            _(
                "%(what)s %(text)s is not a currency: give a code or a symbol of at most "
                "%(max)d characters, e.g. EUR"
            )
            % {"what": what, "text": shown(code), "max": MAX_CURRENCY}
        )
    return code.upper()


def clean_time(text: str, what: str) -> str:
    """A time kept with a round, a note or a session, as an export holds it: valid text of
    at most :data:`MAX_TIME` characters without control characters (empty: not known)."""
    clean_text(text, what)
    if len(text) > MAX_TIME or _has_control(text):
        raise InputValueError(
            _("%(what)s %(text)s is not a time (e.g. 2026-11-28T20:15:00+00:00)")
            % {"what": what, "text": shown(text)}
        )
    return text


def clean_name(text: str, what: str | None = None) -> str:
    """A player's or session's name: valid text, trimmed, non-empty, short, without '=' or
    control characters. ``what`` names the field in the message (already translated;
    default: "a name")."""
    what = _("a name") if what is None else what
    name = _letter_first(clean_text(text, what).strip(), what)
    if not name:
        raise InputValueError(_("%(what)s must not be empty") % {"what": what})
    if "=" in name:
        raise InputValueError(
            _("%(what)s %(name)s must not contain '=' (it separates name and cards)")
            % {"what": what, "name": shown(name)}
        )
    if _has_control(name):
        raise InputValueError(
            _("%(what)s %(name)s must not contain control characters") % {"what": what, "name": shown(name)}
        )
    if len(name) > MAX_NAME:
        raise InputValueError(
            _("%(what)s '%(name)s…' is longer than %(max)d characters")
            % {"what": what, "name": name[:MAX_NAME], "max": MAX_NAME}
        )
    return name


def clean_names(names: Iterable[str], what: str | None = None) -> list[str]:
    """Player names for one session: each clean, and unique ignoring case.
    ``what`` names the field (already translated; default: "player name")."""
    what = _("player name") if what is None else what
    out: list[str] = []
    seen: set[str] = set()
    for raw in names:
        name = clean_name(raw, what)
        if fold(name) in seen:
            raise InputValueError(
                _("the %(what)s %(name)s is given twice: names must be unique (ignoring case)")
                % {"what": what, "name": name}
            )
        seen.add(fold(name))
        out.append(name)
    return out


MAX_RATE = 1000  # money per penalty point
MONEY_PLACES = 8  # decimal places of a rate or a unit (a tenth of a Pfennig needs 3)


def parse_points(text: str, what: str) -> int:
    """Points left in one hand, counted by hand: 0 to :data:`MAX_POINTS`."""
    return parse_int(text, what, 0, MAX_POINTS)


def parse_total(text: str, what: str) -> int:
    """A player's total from a paper scoresheet: 0 to :data:`MAX_TOTAL`."""
    return parse_int(text, what, 0, MAX_TOTAL)


def parse_rate(text: str, what: str | None = None) -> Decimal:
    """Money per penalty point: 0 to :data:`MAX_RATE`, at most 8 decimal places. ``what``
    names the field in an error, as the door calls it (default: "the rate")."""
    return parse_decimal(text, _("the rate") if what is None else what, 0, MAX_RATE, places=MONEY_PLACES)


def parse_unit(text: str, what: str | None = None) -> Decimal:
    """The currency's smallest unit: more than 0, at most 1000, at most 8 decimal places.
    ``what`` names the field in an error, as the door calls it (default: "the unit")."""
    what = _("the unit") if what is None else what
    return parse_decimal(text, what, 0, 1000, places=MONEY_PLACES, above=True)


# Patterns, compiled by re's cache when a day is read: romme check never reads one.
_ISO_DAY = r"(?P<y>[0-9]{4})-(?P<m>[0-9]{1,2})-(?P<d>[0-9]{1,2})"
_GERMAN_DAY = r"(?P<d>[0-9]{1,2})\.(?P<m>[0-9]{1,2})\.(?P<y>[0-9]{4})"
_GERMAN_NO_YEAR = r"(?P<d>[0-9]{1,2})\.(?P<m>[0-9]{1,2})\.?"


def parse_day(text: str, what: str, today: date | None = None) -> date:
    """A day as typed: ISO ``2026-12-01`` or German ``1.12.2026`` / ``01.12.2026``. A German
    day without its year is refused with this year's (``today``) as what was meant.

    >>> parse_day("01.12.2026", "--since"), parse_day(" 2026-12-1 ", "--since")
    (datetime.date(2026, 12, 1), datetime.date(2026, 12, 1))
    >>> from datetime import date
    >>> parse_day("1.12.", "--since", date(2026, 11, 28))
    Traceback (most recent call last):
    romme_score.inputs.InputValueError: --since '1.12.' has no year: did you mean 1.12.2026?
    """
    from datetime import date

    typed = text.strip()
    found = re.fullmatch(_ISO_DAY, typed) or re.fullmatch(_GERMAN_DAY, typed)
    if found is None:
        short = re.fullmatch(_GERMAN_NO_YEAR, typed)
        if short is not None and today is not None:
            raise InputValueError(
                _("%(what)s %(text)s has no year: did you mean %(day)s?")
                % {"what": what, "text": shown(text), "day": f"{short['d']}.{short['m']}.{today.year}"}
            )
        raise InputValueError(
            _("%(what)s %(text)s is not a date: give it as 2026-12-01 or 1.12.2026")
            % {"what": what, "text": shown(text)}
        )
    year, month, day = int(found["y"]), int(found["m"]), int(found["d"])
    if year < 1:
        raise InputValueError(
            _("%(what)s %(text)s is not a date: give it as 2026-12-01 or 1.12.2026")
            % {"what": what, "text": shown(text)}
        )
    if not 1 <= month <= 12:
        raise InputValueError(
            _("%(what)s %(text)s is not a date: there is no month %(month)d")
            % {"what": what, "text": shown(text), "month": month}
        )
    import calendar

    last = calendar.monthrange(year, month)[1]
    if not 1 <= day <= last:
        raise InputValueError(
            _("%(what)s %(text)s is not a date: month %(month)d of %(year)d has %(last)d days")
            % {"what": what, "text": shown(text), "month": month, "year": year, "last": last}
        )
    return date(year, month, day)


# --- players ------------------------------------------------------------------------


class ChoiceProblem(enum.StrEnum):
    """Why a typed player means no one player."""

    EMPTY = "empty"  # nothing typed
    NO_SEAT = "no-seat"  # a seat number out of range
    AMBIGUOUS = "ambiguous"  # the first letters of several players
    UNKNOWN = "unknown"  # no player by that name or prefix


class PlayerChoiceError(InputValueError):
    """The text typed for a player means no one player: one sentence, and the facts.

    ``text`` is what was typed, ``players`` the players to choose from, ``problem`` why;
    ``seat`` the number typed (:attr:`~ChoiceProblem.NO_SEAT`), ``candidates`` the players
    it could be (:attr:`~ChoiceProblem.AMBIGUOUS`), ``close`` the one name close to it, if
    any (:attr:`~ChoiceProblem.UNKNOWN`). A front end may add where it was typed
    (``--winner: ...``) but says the sentence as it is."""

    code = "unknown-player"

    def __init__(
        self,
        problem: ChoiceProblem,
        text: str,
        players: Sequence[str],
        *,
        seat: int | None = None,
        candidates: Sequence[str] = (),
        close: str | None = None,
    ) -> None:
        self.problem = problem
        self.text = text
        self.players = tuple(players)
        self.seat = seat
        self.candidates = tuple(candidates)
        self.close = close
        super().__init__(self._sentence())

    def _sentence(self) -> str:
        players = ", ".join(self.players)
        if self.problem is ChoiceProblem.EMPTY:
            return _("no player given: a seat number, a name or its first letters (players: %(players)s)") % {
                "players": players
            }
        if self.problem is ChoiceProblem.NO_SEAT:
            seats = ", ".join(f"{i} {p}" for i, p in enumerate(self.players, 1))
            return _("there is no seat %(seat)s (seats: %(seats)s)") % {
                "seat": self.seat if self.seat is not None else self.text,
                "seats": seats,
            }
        if self.problem is ChoiceProblem.AMBIGUOUS:
            *first, last = self.candidates
            matches = ", ".join(first) + _(" or ") + last
            return _("%(text)s could be %(matches)s: type more letters") % {
                "text": shown(self.text),
                "matches": matches,
            }
        if self.close is not None:
            return _("unknown player %(text)s; did you mean %(close)s? (players: %(players)s)") % {
                "text": shown(self.text),
                "close": self.close,
                "players": players,
            }
        return _("unknown player %(text)s (players: %(players)s)") % {
            "text": shown(self.text),
            "players": players,
        }


def unknown_player(text: str, players: Sequence[str]) -> PlayerChoiceError:
    """The error for a name that is no player: with the one player whose name is close to
    it, ignoring case (difflib), if there is one. :func:`choose_player` raises it for a
    name it cannot place; import and the service use it where a name must match exactly."""
    import difflib  # only when a name is wrong: the referee's start-up never needs it

    folded = {fold(p): p for p in players}
    close = difflib.get_close_matches(fold(text.strip()), list(folded), n=1, cutoff=0.5)
    return PlayerChoiceError(ChoiceProblem.UNKNOWN, text, players, close=folded[close[0]] if close else None)


def choose_player(text: str, players: Sequence[str]) -> str:
    """The player meant by ``text``, ignoring case and surrounding spaces: a name typed in
    full, else a seat number (1 for the first player, digits of any script), else the first
    letters of exactly one player. Else :class:`PlayerChoiceError`.

    A name wins over a seat number: with a player named ``2``, ``2`` is that player.

    >>> players = ["Anna", "Ben", "Carl"]
    >>> choose_player(" BEN ", players), choose_player("3", players), choose_player("c", players)
    ('Ben', 'Carl', 'Carl')
    >>> choose_player("bne", players)
    Traceback (most recent call last):
    romme_score.inputs.PlayerChoiceError: unknown player 'bne'; did you mean Ben? (players: Anna, Ben, Carl)
    >>> choose_player("4", players)
    Traceback (most recent call last):
    romme_score.inputs.PlayerChoiceError: there is no seat 4 (seats: 1 Anna, 2 Ben, 3 Carl)
    """
    typed = nfc(text.strip())
    if not typed:
        raise PlayerChoiceError(ChoiceProblem.EMPTY, typed, players)
    if typed in players:
        return typed
    low = fold(typed)
    named = [p for p in players if fold(p) == low]
    if len(named) == 1:
        return named[0]
    digits = ascii_digits(typed)
    if digits is not None and not named:
        seat = int(digits) if len(digits) <= 18 else None  # int() of a huge string is slow
        if seat is None or not 1 <= seat <= len(players):
            raise PlayerChoiceError(ChoiceProblem.NO_SEAT, typed, players, seat=seat)
        return players[seat - 1]
    matches = named or [p for p in players if fold(p).startswith(low)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise PlayerChoiceError(ChoiceProblem.AMBIGUOUS, typed, players, candidates=matches)
    raise unknown_player(typed, players)


# --- hands --------------------------------------------------------------------------


class HandProblem(enum.StrEnum):
    """Why a typed hand cannot be read."""

    EMPTY = "empty"  # nothing typed
    NEGATIVE = "negative"  # points below zero
    POINTS = "points"  # a number that is no whole number of points, or out of range
    NOTATION = "notation"  # cards that cannot be read
    TOO_MANY = "too-many"  # points counted by hand above what any hand holds


class HandInputError(InputValueError):
    """A hand as typed cannot be read: one sentence naming the player and what was typed.
    ``notation`` is the card notation's own error (token, position, hint), where it is one."""

    code = "unreadable-hand"
    not_facts = ("notation",)  # the notation's own error, said in the sentence

    def __init__(
        self,
        problem: HandProblem,
        player: str,
        text: str,
        message: str,
        notation: NotationError | None = None,
    ) -> None:
        self.problem = problem
        self.player = player
        self.text = text
        self.notation = notation
        super().__init__(message)


def read_hand(player: str, text: str, profile: Profile = "de", never_out: bool = False) -> Hand:
    """``player``'s hand as typed: cards in notation (``profile``), or the points counted
    by hand (0 to :data:`MAX_POINTS`, digits of any script). Else :class:`HandInputError`.

    >>> read_hand("Ben", "-5")
    Traceback (most recent call last):
    romme_score.inputs.HandInputError: Ben=-5: points left in hand cannot be negative
    >>> read_hand("Ben", "HK H")
    Traceback (most recent call last):
    romme_score.inputs.HandInputError: Ben: cannot read card 'H' (2nd card): the rank is missing

    Nothing typed, or only separators, is no hand (a hand without cards is typed ``0``):

    >>> read_hand("Ben", " , ")
    Traceback (most recent call last):
    romme_score.inputs.HandInputError: Ben: type the cards left in hand, or a number of points (0 for none)
    """
    typed = text.strip()
    if not split_tokens(typed):  # nothing, or separators alone (",", ", ;"): no hand typed
        raise HandInputError(
            HandProblem.EMPTY,
            player,
            typed,
            _("%(player)s: type the cards left in hand, or a number of points (0 for none)")
            % {"player": player},
        )
    if looks_like_number(typed):
        digits = ascii_digits(typed[1:]) if typed.startswith("-") else None
        if digits is not None and digits.strip("0"):
            raise HandInputError(
                HandProblem.NEGATIVE,
                player,
                typed,
                _("%(player)s=%(text)s: points left in hand cannot be negative")
                % {"player": player, "text": shown(typed, quote=False)},
            )
        try:
            return Hand(
                points=parse_points(typed, f"{player}={shown(typed, quote=False)}"), never_out=never_out
            )
        except InputValueError as exc:
            raise HandInputError(HandProblem.POINTS, player, typed, str(exc)) from None
    try:
        return Hand(cards=tuple(parse_cards(typed, profile)), never_out=never_out)
    except NotationError as exc:
        raise HandInputError(HandProblem.NOTATION, player, typed, f"{player}: {exc}", exc) from None


def _letter_first(name: str, what: str) -> str:
    """``name``, or :class:`InputValueError` where it begins with a combining mark (an
    accent typed decomposed with no letter before it): shown after a quote or a space it
    would sit on that, and a name of marks alone shows as nothing (issue 37, the Unicode
    property test). Said by its code point, as the mark cannot be shown alone.

    >>> _letter_first("J\u00f6rg", "a name")
    'Jörg'
    >>> _letter_first("\u0308rg", "a name")
    Traceback (most recent call last):
    ...
    romme_score.inputs.InputValueError: a name begins with U+0308, an accent or mark with no letter before it
    """
    import unicodedata  # only for names: the referee's start-up never needs it

    if name and unicodedata.category(name[0]).startswith("M"):
        raise InputValueError(
            _("%(what)s begins with U+%(code)04X, an accent or mark with no letter before it")
            % {"what": what, "code": ord(name[0])}
        )
    return name
