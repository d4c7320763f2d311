"""The store over SQL, written once for every SQL backend.

- :mod:`.store`: :class:`~.store.SQLStore`, the whole :class:`~romme_score.store.protocol.Store`
  (every write one transaction), made of a part per subject: :mod:`.sessions` (with their
  notes and renames), :mod:`.rounds`, :mod:`.pending` (the round in progress and the
  links), :mod:`.keys` (the phones' idempotency keys), on :mod:`.base` (the connection,
  the transactions, the change counter and the lock);
- :mod:`.phones`: the SQL of the round in progress (hands arriving from the phones) and the links;
- :mod:`.lines`: the long reads (export lines, scoresheet, statistics);
- :mod:`.tournaments`: a tournament's players, series and tables;
- :mod:`.schema`: the tables, their column types named by what they hold;
- :mod:`.dialect`: what a backend brings: its :class:`~.dialect.Connection` and its
  :class:`~.dialect.Dialect` (placeholders, returned ids, locks, notifications, types).

The backends are :mod:`romme_score.store.sqlite` and :mod:`romme_score.store.postgres`,
listed in :data:`romme_score.store.BACKENDS`; a third is one more module of the same two
classes, and the contract suite runs on it unchanged.
"""
