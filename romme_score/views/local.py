"""Money, days and times as the language of the run writes them, for a person to read.

The language decides, never the card notation: German ``-0,54 €`` and ``1.12.2026, 10:15``,
English ``-€0.54`` and ``1 Dec 2026, 10:15`` (day, month and year in an order no reader
takes the wrong way round). A time is kept in UTC (ISO 8601, as JSON and the export
give it) and shown in the local time zone. JSON keeps its own formats: nothing here is
used for it.

>>> from decimal import Decimal
>>> from datetime import timezone, timedelta
>>> from romme_score.i18n import using_language
>>> with using_language("de"):
...     money(Decimal("-0.54"), "EUR"), time_text("2026-12-01T09:15:08+00:00", timezone(timedelta(hours=1)))
('-0,54 €', '1.12.2026, 10:15')
>>> with using_language("en"):
...     money(Decimal("-0.54"), "EUR"), time_text("2026-12-01T09:15:08+00:00", timezone(timedelta(hours=1)))
('-€0.54', '1 Dec 2026, 10:15')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from romme_score.i18n import language

if TYPE_CHECKING:  # imported where used: a command that prints neither pays for them
    from datetime import date, datetime, tzinfo
    from decimal import Decimal

# Month names of the English forms, fixed rather than the C library's (%b follows LC_TIME).
MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
NO_BREAK = "\u00a0"  # between an amount and its symbol on a page: "0,28 €" never splits


def money(
    amount: Decimal,
    currency: str | None,
    unit: Decimal | None = None,
    ascii: bool = False,
    no_break: bool = False,
) -> str:
    """An amount with its currency as the language writes it; in plain ASCII the code
    stands for the symbol (``0,33 EUR``); ``no_break`` joins number and symbol with a
    no-break space (HTML). ``unit``: the smallest unit (default 0.01).

    >>> from decimal import Decimal
    >>> from romme_score.i18n import using_language
    >>> with using_language("de"):
    ...     money(Decimal("0.33"), "EUR", ascii=True), money(Decimal("0.33"), "EUR", no_break=True)
    ('0,33 EUR', '0,33\\xa0€')
    """
    from decimal import Decimal

    unit = Decimal("0.01") if unit is None else unit
    style = "de" if language() == "de" else "en"
    text = format_money(amount, currency, style, unit)
    if ascii and not text.isascii():
        text = format_money(amount, None, style, unit) + (f" {currency.upper()}" if currency else "")
    return text.replace(" ", NO_BREAK) if no_break else text


CURRENCY_SYMBOLS = {
    "EUR": "€",
    "USD": "$",
    "GBP": "£",
    "CHF": "CHF",
    "JPY": "¥",
    "DKK": "kr",
    "SEK": "kr",
    "NOK": "kr",
    "PLN": "zł",
    "CZK": "Kč",
    "DM": "DM",
}


def format_money(
    amount: Decimal, currency: str | None, profile: str = "de", unit: Decimal | None = None
) -> str:
    """An amount with its currency: ``0,33 €`` in ``de``, ``€0.33`` in ``en``; ``unit`` the
    smallest amount (0.01 unless given) tells the decimals.

    >>> from decimal import Decimal
    >>> format_money(Decimal("-1234.5"), "EUR", "de")
    '-1.234,50 €'
    >>> format_money(Decimal("0.33"), "EUR", "en")
    '€0.33'
    """
    exponent = unit.as_tuple().exponent if unit is not None else -2
    places = max(0, -exponent) if isinstance(exponent, int) else 2
    sign = "-" if amount < 0 else ""
    text = f"{abs(amount):,.{places}f}"
    if profile == "de":
        text = text.replace(",", "\0").replace(".", ",").replace("\0", ".")
    code = (currency or "").upper()
    symbol = CURRENCY_SYMBOLS.get(code, code)
    if not symbol:
        return f"{sign}{text}"
    if profile == "de" or len(symbol) > 1:
        return f"{sign}{text} {symbol}"
    return f"{sign}{symbol}{text}"


def day_text(day: date, column: bool = False) -> str:
    """A day: ``1.12.2026`` in German, ``1 Dec 2026`` in English; in a table's ``column``
    of days with two digits each (``01.12.2026``, ``01 Dec 2026``), so that the column
    keeps its width from one day to the next."""
    number = f"{day.day:02d}" if column else str(day.day)
    if language() == "de":
        return f"{number}.{day.month:02d}.{day.year}" if column else f"{number}.{day.month}.{day.year}"
    return f"{number} {MONTHS[day.month - 1]} {day.year}"


def _local(stamp: str, zone: tzinfo | None) -> datetime | None:
    from datetime import UTC, datetime

    try:
        moment = datetime.fromisoformat(stamp)
    except ValueError:
        return None
    if moment.tzinfo is None:  # a stored time is UTC; one without a zone is read as such
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(zone)


def time_text(stamp: str | None, zone: tzinfo | None = None) -> str:
    """A stored time (ISO 8601, UTC) in local time (``zone``, default the system's):
    ``1.12.2026, 10:15`` or ``1 Dec 2026, 10:15``; a time that cannot be read as it is."""
    if not stamp:
        return ""
    moment = _local(stamp, zone)
    if moment is None:
        return stamp
    return f"{day_text(moment.date())}, {moment:%H:%M}"


def stamp_day(stamp: str | None, zone: tzinfo | None = None, column: bool = False) -> str:
    """The local day of a stored time, as :func:`day_text` writes it."""
    if not stamp:
        return ""
    moment = _local(stamp, zone)
    return day_text(moment.date(), column) if moment is not None else stamp[:10]
