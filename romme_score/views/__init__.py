"""Every sentence and table the program prints, as text and as JSON, in one place.

Views are pure: data in, strings and dicts out, no I/O. One module per area,
so that a command imports only what it prints (start-up time of ``romme check``):

- :mod:`romme_score.views.referee`: ``check``, ``value`` and ``best``
- :mod:`romme_score.views.rules`: ``rules``
- :mod:`romme_score.views.session`: the session commands
- :mod:`romme_score.views.settle`: ``settle``
"""
