"""The referee's one line and JSON field saying whose rules it judged under (issue 9):
``rules of session 'Friday' (wiki-51)`` and ``"rules_from": "session"``."""

from __future__ import annotations

from typing import Any

from romme_score.i18n import _


def rules_from_line(session: str, label: str) -> str:
    return _("rules of session '%(session)s' (%(label)s)") % {"session": session, "label": label}


def rules_from_json(kind: str, session: str | None, label: str | None) -> dict[str, Any]:
    """Only where the rules are a session's: ``"rules_from": "session"``, its name and the
    preset its rules match (the JSON of options or defaults stays as it was)."""
    if kind != "session":
        return {}
    return {"rules_from": "session", "session": session, "rules": label}
