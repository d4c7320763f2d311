"""``python -m romme_score``: the same as the ``romme`` command."""

from romme_score.cli import main

main()
