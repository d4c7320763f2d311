"""The writes of the phones, each one call of the session service (one transaction):

- ``POST {seat}/hand``: the seat's cards left (``{"cards": "HK K10 J"}``) or counted
  points (``{"points": 23}``), read by :func:`~romme_score.inputs.read_hand` as typed
  anywhere else, refused (409 ``out-no-hand``) while this seat's claim to have gone out
  stands; ``POST {seat}/out``: this seat went out (``{"hand_romme": false}``), refused
  (409 ``already-out``) while another seat's claim stands.
- ``POST {scorekeeper}/pending``: any part of the round in progress, for a player without
  a phone; ``/save`` (the round as ``romme round --json`` prints it), ``/discard``,
  ``/undo``.

Points above 150 are unlikely: ``/hand`` and ``/pending`` answer 409 ``unlikely_points``
(with the question to ask) and store nothing, unless the body says ``"confirm": true``.

A seat's link writes only its own seat; a board's link writes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from romme_score.inputs import choose_player
from romme_score.sessions import RoundChange, TypedHand, hand_given, went_out
from romme_score.store.records import KEEP, Keep
from romme_score.views import session as session_views
from romme_score.views import web as views
from romme_score.web.context import Call
from romme_score.web.errors import Answer, bad_field, refusal

Write = Callable[[Call, dict[str, Any]], dict[str, Any]]


def _typed(value: object, call: Call, field: str) -> TypedHand:
    """A hand given in JSON: a text of cards or points, or a whole number of points, read
    by the service (:class:`TypedHand`)."""
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise bad_field(field, "hand")
    return TypedHand(str(value), call.notation)


def _names(body: Mapping[str, Any], field: str, players: tuple[str, ...]) -> set[str]:
    """A list of players in JSON (``"never_out": ["Ben"]``), each read as typed anywhere."""
    value = body.get(field, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise bad_field(field, "players")
    return {choose_player(v, players) for v in value}


def _flag(body: Mapping[str, Any], field: str) -> bool | None:
    value = body.get(field)
    if value is None:
        return None
    if not isinstance(value, bool):
        raise bad_field(field, "bool")
    return value


def _own_seat(call: Call, body: Mapping[str, Any]) -> str:
    player = call.link.player
    assert player is not None
    named = body.get("player")
    if named is not None and named != player:  # a seat writes its own hand only
        raise refusal("forbidden", 403)
    return player


def hand(call: Call, body: dict[str, Any]) -> dict[str, Any]:
    player = _own_seat(call, body)
    info = call.info()
    if "cards" in body and "points" in body:
        raise bad_field("points", "hand")
    if "cards" in body:
        if not isinstance(body["cards"], str):
            raise bad_field("cards", "text")
        typed = _typed(body["cards"], call, "cards")
    elif "points" in body:
        if isinstance(body["points"], bool) or not isinstance(body["points"], int):
            raise bad_field("points", "hand")
        typed = _typed(body["points"], call, "points")
    else:
        raise bad_field("cards", "hand")
    never_out = _flag(body, "never_out") or False
    change = hand_given(player, typed, never_out=never_out, confirm=_flag(body, "confirm") or False)
    state = call.service.change_round(info, change)
    return views.hand_json(state.given[player], state.counts[player], call.notation)


def out(call: Call, body: dict[str, Any]) -> dict[str, Any]:
    player = _own_seat(call, body)
    hand_romme = _flag(body, "hand_romme") or False
    pending = call.service.change_round(call.info(), went_out(player, hand_romme)).round
    return {"winner": pending.winner, "hand_romme": pending.hand_romme}


def pending(call: Call, body: dict[str, Any]) -> dict[str, Any]:
    info = call.info()
    winner: str | None | Keep = KEEP
    if "winner" in body:
        named = body["winner"]
        if named is not None and not isinstance(named, str):
            raise bad_field("winner", "player")
        winner = choose_player(named, info.players) if named is not None else None
    given = body.get("hands", {})
    if not isinstance(given, dict):
        raise bad_field("hands", "object")
    never_out = _names(body, "never_out", info.players)
    hands = tuple(
        (choose_player(name, info.players), None if value is None else _typed(value, call, f"hands.{name}"))
        for name, value in given.items()
    )
    change = RoundChange(
        winner,
        _flag(body, "stalemate"),
        _flag(body, "hand_romme"),
        hands,
        frozenset(never_out),
        confirm=_flag(body, "confirm") or False,
    )
    now = call.service.change_round(info, change)
    return views.pending_json(info, now.round, now.missing, call.notation, now.score, now.counts)


def save(call: Call, body: dict[str, Any]) -> dict[str, Any]:
    recorded = call.service.save_pending(call.info())
    return views.saved_json(recorded, session_views.recorded_json(recorded))


def discard(call: Call, body: dict[str, Any]) -> dict[str, Any]:
    call.service.discard_pending(call.info())
    return {"discarded": True, "message": views.page_texts()["discarded"]}


def undo(call: Call, body: dict[str, Any]) -> dict[str, Any]:
    undone = call.service.undo(call.info())
    return {
        **session_views.undone_json(undone),
        "message": views.page_texts()["undone"].format(number=undone.record.number),
    }


# path -> (the kinds of link that may write it, what it does)
WRITES: dict[str, tuple[tuple[str, ...], Write]] = {
    "hand": (("seat",), hand),
    "out": (("seat",), out),
    "pending": (("scorekeeper",), pending),
    "save": (("scorekeeper",), save),
    "discard": (("scorekeeper",), discard),
    "undo": (("scorekeeper",), undo),
}


def check_allowed(call: Call, path: str) -> Write:
    kinds, write = WRITES[path]
    if call.link.kind not in kinds:
        raise refusal("forbidden", 403)
    return write


__all__ = ["WRITES", "Answer", "check_allowed"]
