"""The table mode, ``romme play``: a whole evening in one window.

- :mod:`romme_score.table.entry`: the round entry as a pure state machine (no terminal),
  shared with the interactive ``romme round``;
- :mod:`romme_score.table.app`: the prompt_toolkit front (prompts, completion, history,
  toolbar) and the loop at the prompt;
- :mod:`romme_score.table.words`: the words typed at the prompt, in one registry, and
  :mod:`romme_score.table.handlers`: what the words that need the terminal do (the
  others are the ``romme`` commands of their names, :mod:`romme_score.cli.inside`);
- :mod:`romme_score.table.script`: the scriptable mode, one command line per input line.

prompt_toolkit is imported only here, never on the path of ``romme check``.
"""
