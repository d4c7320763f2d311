"""Every sentence and table the program prints, as text and as JSON, in one place.

Views are pure: data in, strings and dicts out, no I/O. One module per area,
so that a command imports only what it prints (start-up time of ``romme check``):

- :mod:`~romme_score.views.referee`: ``check``; :mod:`~romme_score.views.value`: ``value``;
  :mod:`~romme_score.views.best`: ``best``; :mod:`~romme_score.views.rules`: ``rules``;
  :mod:`~romme_score.views.rules_from`: the line saying whose rules the referee used
- :mod:`~romme_score.views.session`: the session commands; :mod:`~romme_score.views.settle`:
  ``settle``; :mod:`~romme_score.views.play`: the table mode
- :mod:`~romme_score.views.chart`, :mod:`~romme_score.views.stats`,
  :mod:`~romme_score.views.report`: the evening as a picture, statistics, the HTML report
"""
