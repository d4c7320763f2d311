"""Kept for :mod:`romme_score.store` alone, which imports :class:`TournamentOptions` from
here: the options are :mod:`romme_score.tournament.options`. This file goes once the store
imports them from there (tests/test_architecture.py lets no other module import it)."""

from romme_score.tournament.options import TournamentOptions as TournamentOptions
