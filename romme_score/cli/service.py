"""What the session and settlement commands share beyond :mod:`~romme_score.cli.options`:
the session service as they open it (its errors become the edge's errors), and
reading decimal numbers and rates. Kept apart so that ``romme check`` loads neither."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from decimal import Decimal, InvalidOperation
from pathlib import Path

from romme_score.cli.options import InputError, Refused, fail_input
from romme_score.scoring import RoundError
from romme_score.sessions import SessionInputError, SessionService
from romme_score.store import StoreError


@contextmanager
def open_service(db: str | Path | None, create: bool = True) -> Iterator[SessionService]:
    """The session service on ``db``; refused actions exit 1, bad input exits 2."""
    try:
        with SessionService(db, create=create) as service:
            yield service
    except StoreError as exc:
        raise Refused(str(exc)) from None
    except (SessionInputError, RoundError) as exc:
        raise InputError(str(exc)) from None


def parse_decimal(text: str, what: str) -> Decimal:
    """A decimal number as typed (``0.01`` or ``0,01``); anything else is an input error."""
    try:
        number = Decimal(text.replace(",", "."))
    except InvalidOperation:
        fail_input(f"{what} '{text}' is not a decimal number (e.g. 0.01)")
    if not number.is_finite():
        fail_input(f"{what} '{text}' is not a decimal number (e.g. 0.01)")
    return number


def parse_rate(text: str | None, what: str = "--rate") -> Decimal | None:
    """Money per penalty point: a decimal number, not negative (None when not given)."""
    if text is None:
        return None
    rate = parse_decimal(text, what)
    if rate < 0:
        fail_input(f"{what} '{text}' must not be negative")
    return rate
