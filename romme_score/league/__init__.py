"""A club's season over evenings and tournaments (docs/rules.md §11), in three modules:

- :mod:`~romme_score.league.options`: the numbers of §11 (points per place, best results,
  attendance, tie break) as a frozen dataclass that validates itself, and how they are read;
- :mod:`~romme_score.league.rules`: the pure ranking of §11 (places to points, shared
  places, best results, most wins, people across events), no I/O;
- :mod:`~romme_score.league.service`: the league service, beside the session and the
  tournament services: it reads each event's places from them and never recomputes them.
"""
