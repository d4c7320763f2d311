"""The service's errors as the JSON of a refused request: a status code, an English
``code`` for scripts and a sentence in the request's language (with what to do about it
on the pages, :func:`romme_score.views.web.error_sentence`)."""

from __future__ import annotations

from typing import Any

from romme_score.errors import RommeError
from romme_score.views import web as views


class Answer(Exception):
    """A request answered with ``status`` and the JSON ``body`` (raised where it is known)."""

    def __init__(self, status: int, body: dict[str, Any], headers: dict[str, str] | None = None) -> None:
        super().__init__(body.get("code", status))
        self.status = status
        self.body = body
        self.headers = headers or {}


RETRY_AFTER = 2  # seconds a client is asked to wait before it tries a 503 again
# the database cannot be used just now: 503, a sentence of the web's own (not the
# server's English reason, nor where the database is) and a Retry-After
LOST = ("unreachable", "database-gone")
# after these a connection may not be worth keeping: the thread's service is closed, and
# the next request opens a new one
DROPPED = (*LOST, "write-failed", "damaged")


def refusal(code: str, status: int, **facts: Any) -> Answer:
    """The web's own refusal of a request (not of the game)."""
    limit = facts.get("limit")
    text = views.refused(code)
    if limit is not None:
        text = text % {"limit": limit}
    headers = {"retry-after": str(RETRY_AFTER)} if status == 503 else None
    return Answer(status, {"error": text, "code": code, **facts}, headers)


def bad_field(field: str, kind: str) -> Answer:
    text = views.bad_field(field, views.expected(kind))
    return Answer(400, {"error": text, "code": "bad-request", "field": field})


# The service's error codes as the phones' JSON answers them: (status, the code the JSON
# carries, published before the errors had codes of their own; a code not listed is
# answered by its kind: 400 "bad-input" for input, 409 "refused" for a refusal).
ANSWERS: dict[str, tuple[int, str]] = {
    "no-winner": (409, "no-winner"),
    "missing-hands": (409, "missing-hands"),
    "changed": (409, "changed"),
    "no-rounds": (409, "no-rounds"),
    "already-out": (409, "already-out"),
    "out-no-hand": (409, "out-no-hand"),
    "unlikely_points": (409, "unlikely_points"),
    "key-reused": (422, "key-reused"),
    "game-over": (400, "game-over"),
    "unreadable-hand": (400, "unreadable-hand"),
    "unknown-player": (400, "unknown-player"),
    "stalemate-with-winner": (400, "stalemate-with-winner"),
    "round-refused": (400, "round-refused"),
    "series-incomplete": (409, "series-incomplete"),
    "busy": (503, "busy"),
    "unreachable": (503, "unreachable"),
    "database-gone": (503, "database-gone"),
    "not-found": (404, "not-found"),
    "no-database": (404, "not-found"),
    "no-current-session": (404, "not-found"),
    "no-such-session": (404, "not-found"),
    "round-not-there": (404, "not-found"),
    "no-current-tournament": (404, "not-found"),
    "no-such-tournament": (404, "not-found"),
    "no-such-league": (404, "not-found"),
}
BY_KIND = {2: (400, "bad-input"), 1: (409, "refused")}
# facts an answer has always carried, whatever the error knows
ALWAYS: dict[str, dict[str, Any]] = {"no-winner": {"missing": []}}


def classify(exc: RommeError) -> tuple[int, str, dict[str, Any]]:
    """(status, code, facts) of a service error, by its code."""
    status, code = ANSWERS.get(exc.code) or BY_KIND[exc.exit_code]
    return status, code, {**ALWAYS.get(code, {}), **exc.facts()}


def answer_of(exc: RommeError) -> Answer:
    if exc.code in LOST:
        return refusal(exc.code, 503)
    status, code, facts = classify(exc)
    body = {**facts, **views.error_facts(exc, code), "error": views.error_sentence(exc, code), "code": code}
    return Answer(status, body, {"retry-after": str(RETRY_AFTER)} if status == 503 else None)
