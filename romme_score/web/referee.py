"""The referee on the phone, under the session's rules; reads only:

- ``GET {link}/read?cards=HK K10 J``: how the referee reads a hand, card by card, and
  what it counts (the seat's live reading while a hand is tapped or typed; the same
  :func:`~romme_score.inputs.read_hand` as ``POST {seat}/hand``), with what the page
  shows of it: ``"red"`` per card, ``"sum"`` and the whole line, ``"text"``;
- ``GET {link}/check?meld=...&meld=...``: whether melds are legal and what they are worth
  (``romme check``), ``&first=1`` as a first meld;
- ``GET {link}/best?hand=...``: the best arrangement of a hand (``romme best``), ``&came_out=1``
  as ``--came-out`` (the referee's :func:`~romme_score.best.judge_best`, as every door's).

Each answers the JSON of its command plus ``"text"``, the command's words.
"""

from __future__ import annotations

from typing import Any

from starlette.datastructures import QueryParams

from romme_score import referee
from romme_score.best import SupplyExceeded, judge_best
from romme_score.cards import NotationError, parse_cards
from romme_score.inputs import HandInputError
from romme_score.scoring import RoundError
from romme_score.sessions import typed_hand
from romme_score.solver import HandTooLarge
from romme_score.views import best as best_views
from romme_score.views import referee as referee_views
from romme_score.views import web as views
from romme_score.web.context import Call
from romme_score.web.errors import Answer, answer_of

MAX_MELDS = 20


def _unreadable(exc: Exception) -> Answer:
    return Answer(400, {"error": str(exc), "code": "unreadable-cards"})


def _without_name(text: str, who: str) -> str:
    """A seat's reading of its own hand says what is wrong without the seat's name first."""
    return text.removeprefix(f"{who}: ").removeprefix(f"{who}=")


def read(call: Call, params: QueryParams) -> dict[str, Any]:
    info = call.info()
    who = call.link.player or "?"
    try:
        # as the hand will be checked when sent: the cards the packs hold, the points a hand can
        hand, count = typed_hand(info.rules, who, params.get("cards", ""), call.notation)
    except HandInputError as exc:  # said under the seat's own hand: without its name before it
        answer = answer_of(exc)
        answer.body["error"] = _without_name(str(answer.body["error"]), who)
        raise answer from None
    except RoundError as exc:
        raise Answer(400, {"error": _without_name(str(exc), who), "code": "supply"}) from None
    reading = views.reading_json(hand, count, call.notation)
    return {**reading, **views.reading_shown(reading, hand)}


def check(call: Call, params: QueryParams) -> dict[str, Any]:
    rules = call.info().rules
    texts = [t for t in params.getlist("meld") if t.strip()][:MAX_MELDS]
    if not texts:
        raise Answer(400, {"error": views.bad_field("meld", views.expected("text")), "code": "bad-request"})
    try:
        parsed = [parse_cards(t, call.notation) for t in texts]
    except NotationError as exc:
        raise _unreadable(exc) from None
    verdict = referee.judge_melds(texts, parsed, rules, first=params.get("first") in ("1", "true"))
    return {
        **referee_views.verdict_json(verdict, call.notation),
        "text": referee_views.render_verdict(verdict, call.notation),
    }


def best(call: Call, params: QueryParams) -> dict[str, Any]:
    rules = call.info().rules
    try:
        cards = parse_cards(params.get("hand", ""), call.notation)
    except NotationError as exc:
        raise _unreadable(exc) from None
    if not cards:
        raise Answer(400, {"error": views.bad_field("hand", views.expected("text")), "code": "bad-request"})
    try:
        verdict = judge_best(cards, (), rules, came_out=params.get("came_out") in ("1", "true"))
    except (SupplyExceeded, HandTooLarge) as exc:
        raise Answer(400, {"error": str(exc), "code": "refused"}) from None
    return {
        **best_views.best_json(verdict.best, verdict.table, rules, call.notation),
        "text": best_views.render_best(
            verdict.best, verdict.hand, verdict.table, rules, verdict.came_out, call.notation
        ),
    }


READS = {"read": read, "check": check, "best": best}
