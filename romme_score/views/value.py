"""Views of ``romme value``: penalty points of the cards left in a hand, card by card."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from romme_score.cards import Card, Profile


def value_json(rows: Sequence[tuple[Card, int]], profile: Profile, ascii: bool) -> dict[str, Any]:
    return {"points": sum(p for _, p in rows),
            "cards": [{"card": c.format(profile, ascii), "points": p} for c, p in rows]}


def render_value(rows: Sequence[tuple[Card, int]], profile: Profile, ascii: bool) -> str:
    # Two columns by hand: importing tabulate would double this command's start-up time.
    shown = [(c.format(profile, ascii), p) for c, p in rows]
    width = max([4, *(len(c) for c, _ in shown)])
    lines = [f"{'card':<{width}}  points"]
    lines += [f"{c:<{width}}  {p:>6}" for c, p in shown]
    lines.append(f"Total: {sum(p for _, p in rows)} points")
    return "\n".join(lines)
