"""What a database holds by name, for a shell's completion (:meth:`Store.names`): imported
only when names are asked for, so that no other command pays for the class."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Names:
    """What the database holds by name (what a shell completes); ``players`` in seating
    order, by session, ``entrants`` by start number, by tournament."""

    sessions: tuple[str, ...] = ()
    current: str | None = None
    players: dict[str, tuple[str, ...]] = field(default_factory=dict)
    tournaments: tuple[str, ...] = ()
    current_tournament: str | None = None
    entrants: dict[str, tuple[str, ...]] = field(default_factory=dict)
