"""The service's errors as the JSON of a refused request: a status code, an English
``code`` for scripts and a sentence in the request's language (with what to do about it
on the pages, :func:`romme_score.views.web.error_sentence`)."""

from __future__ import annotations

from typing import Any

from romme_score.errors import InputProblem, Refusal
from romme_score.inputs import HandInputError, PlayerChoiceError
from romme_score.scoring import MissingHands, NoWinner, RoundError, StalemateWithWinner
from romme_score.sessions import GameOver, PendingChanged, RoundIncomplete
from romme_score.store.errors import NoRounds, NotFound, StoreBusy
from romme_score.views import web as views


class Answer(Exception):
    """A request answered with ``status`` and the JSON ``body`` (raised where it is known)."""

    def __init__(self, status: int, body: dict[str, Any]) -> None:
        super().__init__(body.get("code", status))
        self.status = status
        self.body = body


def refusal(code: str, status: int, **facts: Any) -> Answer:
    """The web's own refusal of a request (not of the game)."""
    limit = facts.get("limit")
    text = views.refused(code)
    if limit is not None:
        text = text % {"limit": limit}
    return Answer(status, {"error": text, "code": code, **facts})


def bad_field(field: str, kind: str) -> Answer:
    text = views.bad_field(field, views.expected(kind))
    return Answer(400, {"error": text, "code": "bad-request", "field": field})


def classify(exc: BaseException) -> tuple[int, str, dict[str, Any]]:
    """(status, code, more facts) of a service error."""
    if isinstance(exc, RoundIncomplete):
        code = "no-winner" if exc.no_winner else "missing-hands"
        return 409, code, {"missing": list(exc.missing)}
    if isinstance(exc, MissingHands):
        return 409, "missing-hands", {"missing": list(exc.missing)}
    if isinstance(exc, NoWinner):
        return 409, "no-winner", {"missing": []}
    if isinstance(exc, PendingChanged):
        return 409, "changed", {}
    if isinstance(exc, GameOver):
        return 400, "game-over", {}
    if isinstance(exc, NoRounds):
        return 409, "no-rounds", {}
    if isinstance(exc, HandInputError):
        return 400, "unreadable-hand", {"problem": exc.problem.value, "player": exc.player}
    if isinstance(exc, PlayerChoiceError):
        return 400, "unknown-player", {}
    if isinstance(exc, StalemateWithWinner):
        return 400, "stalemate-with-winner", {}
    if isinstance(exc, RoundError):
        return 400, "round-refused", {}
    if isinstance(exc, StoreBusy):
        return 503, "busy", {}
    if isinstance(exc, NotFound):
        return 404, "not-found", {}
    if isinstance(exc, InputProblem):
        return 400, "bad-input", {}
    if isinstance(exc, Refusal):
        return 409, "refused", {}
    raise exc


def answer_of(exc: InputProblem | Refusal) -> Answer:
    status, code, facts = classify(exc)
    return Answer(status, {"error": views.error_sentence(exc, code), "code": code, **facts})
