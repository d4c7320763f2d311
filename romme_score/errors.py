"""The project's one exception hierarchy (STYLE.md "Errors"), based on ``ValueError``.

Every error a user can cause is one of two kinds, and the command line turns
each into one sentence with its exit code:

- :class:`InputProblem`: input that cannot be read or used (exit code 2);
- :class:`Refusal`: an action refused as asked, e.g. on a damaged database or
  a finished game (exit code 1).

Each module defines its own classes on these (``NotationError``, ``RuleError``,
``RoundError``, ``StoreError`` ...), one class per kind of failure.
"""

from __future__ import annotations


class RommeError(ValueError):
    """Base of every error romme-score raises on purpose."""


class InputProblem(RommeError):
    """Input that cannot be read or used: exit code 2, nothing written."""


class Refusal(RommeError):
    """An action refused as asked: exit code 1, nothing written."""
