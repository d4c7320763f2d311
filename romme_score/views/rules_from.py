"""The referee's one line and JSON field saying whose rules it judged under (issue 9):
``rules of session 'Friday' (wiki-51)`` and ``"rules_from": "session"``."""

from __future__ import annotations

import re
from typing import Any

from romme_score.i18n import _, ngettext
from romme_score.rules import PRESETS, RuleSet


def preset_label(rules: RuleSet) -> str:
    """The preset a rule set is (its end of game aside), or the closest one and how many
    options differ: ``wiki-51``, ``standard with 2 changes``."""

    def changes(preset: RuleSet) -> int:
        base = preset.replace(game_end=rules.game_end)
        return sum(getattr(base, k) != v for k, v in vars(rules).items())

    name, count = min(((n, changes(p)) for n, p in PRESETS.items()), key=lambda nc: nc[1])
    return name if count == 0 else f"{name} with {count} change{'s' if count > 1 else ''}"


def label_text(label: str) -> str:
    """The preset label as the language says it (the JSON keeps ``standard with 2 changes``)."""
    found = re.fullmatch(r"(\S+) with (\d+) changes?", label)
    if found is None:
        return label
    count = int(found.group(2))
    return ngettext("%(preset)s with %(count)d change", "%(preset)s with %(count)d changes", count) % {
        "preset": found.group(1),
        "count": count,
    }


def rules_from_line(session: str, label: str) -> str:
    return _("rules of session '%(session)s' (%(label)s)") % {"session": session, "label": label_text(label)}


def rules_from_json(kind: str, session: str | None, label: str | None) -> dict[str, Any]:
    """Only where the rules are a session's: ``"rules_from": "session"``, its name and the
    preset its rules match (the JSON of options or defaults stays as it was)."""
    if kind != "session":
        return {}
    return {"rules_from": "session", "session": session, "rules": label}
