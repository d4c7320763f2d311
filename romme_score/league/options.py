"""The options of a league (docs/rules.md §11), each a number a club chooses, validated when
built (as :class:`~romme_score.rules.RuleSet` is).

>>> LeagueOptions(points=parse_points("12,10,8"), best=parse_best("5")).points
(12, 10, 8)
>>> LeagueOptions().to_dict()
{'points': [10, 8, 6, 5, 4, 3, 2, 1], 'best': None, 'attendance': 0, 'tie_break': 'none'}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from romme_score.errors import InputProblem
from romme_score.i18n import _, shown

TieBreak = Literal["none", "most-wins"]
TIE_BREAKS: tuple[TieBreak, ...] = ("none", "most-wins")
DEFAULT_POINTS = (10, 8, 6, 5, 4, 3, 2, 1)  # §11 "Points per place"
MAX_POINTS = 10_000  # points of one place, or for attending
MAX_PLACES = 100  # numbers in a points list
MAX_BEST = 1000


class LeagueInputError(InputProblem):
    """A league option that cannot be used (exit code 2)."""


class BadPoints(LeagueInputError):
    def __init__(self, text: str, reason: str) -> None:
        super().__init__(
            _("the points list %(text)s cannot be used: %(reason)s") % {"text": shown(text), "reason": reason}
        )
        self.text = text
        self.reason = reason


class BadNumber(LeagueInputError):
    def __init__(self, option: str, text: str, lo: int, hi: int) -> None:
        super().__init__(
            _("%(option)s=%(text)s is not allowed: give a whole number from %(lo)d to %(hi)d")
            % {"option": option, "text": shown(text), "lo": lo, "hi": hi}
        )
        self.option = option
        self.text = text
        self.lo = lo
        self.hi = hi


@dataclass(frozen=True)
class LeagueOptions:
    """Every number of docs/rules.md §11.

    - ``points``: place k scores the k-th number, places beyond the list 0 (default
      10,8,6,5,4,3,2,1); no later place scores more than an earlier one.
    - ``best``: only a player's ``best`` highest event scores count (Streichergebnisse);
      None: every result counts.
    - ``attendance``: every player of an event scores this on top of the place's points.
    - ``tie_break``: ``none`` (equal totals share a place) or ``most-wins`` (more first
      places over every event played, then more second places, and so on).
    """

    points: tuple[int, ...] = DEFAULT_POINTS
    best: int | None = None
    attendance: int = 0
    tie_break: TieBreak = "none"

    def __post_init__(self) -> None:
        text = ",".join(str(p) for p in self.points)
        if not self.points:
            raise BadPoints(text, _("it is empty"))
        if len(self.points) > MAX_PLACES:
            raise BadPoints(text, _("it has more than %(max)d places") % {"max": MAX_PLACES})
        for value in self.points:
            if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_POINTS:
                raise BadPoints(text, _("every number must be 0 to %(max)d") % {"max": MAX_POINTS})
        for place, (a, b) in enumerate(zip(self.points, self.points[1:], strict=False), 2):
            if b > a:
                raise BadPoints(
                    text,
                    _("place %(place)d would score more than the place before it") % {"place": place},
                )
        if self.best is not None and (
            isinstance(self.best, bool) or not isinstance(self.best, int) or not 1 <= self.best <= MAX_BEST
        ):
            raise BadNumber("best", str(self.best), 1, MAX_BEST)
        if isinstance(self.attendance, bool) or not isinstance(self.attendance, int):
            raise BadNumber("attendance", str(self.attendance), 0, MAX_POINTS)
        if not 0 <= self.attendance <= MAX_POINTS:
            raise BadNumber("attendance", str(self.attendance), 0, MAX_POINTS)
        if self.tie_break not in TIE_BREAKS:
            raise LeagueInputError(
                _("tie_break=%(value)s is not allowed: use none or most-wins")
                % {"value": shown(self.tie_break)}
            )

    def place_points(self, place: int) -> int:
        """What place ``place`` scores (without attendance).

        >>> LeagueOptions().place_points(2), LeagueOptions().place_points(9)
        (8, 0)
        """
        return self.points[place - 1] if 1 <= place <= len(self.points) else 0

    def to_dict(self) -> dict[str, Any]:
        """The options as stored and as the JSON shows them."""
        return {
            "points": list(self.points),
            "best": self.best,
            "attendance": self.attendance,
            "tie_break": self.tie_break,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LeagueOptions:
        return cls(
            points=tuple(data.get("points", DEFAULT_POINTS)),
            best=data.get("best"),
            attendance=data.get("attendance", 0),
            tie_break=data.get("tie_break", "none"),
        )


def _whole(text: str) -> int | None:
    body = text.strip()
    if not body.isascii() or not body.isdigit() or len(body) > 9:
        return None
    return int(body)


def parse_points(text: str) -> tuple[int, ...]:
    """``--points 10,8,6``: whole numbers separated by commas (or spaces).

    >>> parse_points("25, 18 15")
    (25, 18, 15)
    """
    parts = [p for p in text.replace(",", " ").split() if p]
    if not parts:
        raise BadPoints(text, _("it is empty"))
    values = []
    for part in parts:
        value = _whole(part)
        if value is None:
            raise BadPoints(text, _("%(item)s is not a whole number") % {"item": shown(part)})
        values.append(value)
    return tuple(values)


def parse_best(text: str) -> int:
    """``--best N``: 1 or more (0 would count nothing)."""
    value = _whole(text)
    if value is None or not 1 <= value <= MAX_BEST:
        raise BadNumber("best", text, 1, MAX_BEST)
    return value


def parse_attendance(text: str) -> int:
    value = _whole(text)
    if value is None or value > MAX_POINTS:
        raise BadNumber("attendance", text, 0, MAX_POINTS)
    return value
