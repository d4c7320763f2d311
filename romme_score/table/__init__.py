"""The table mode, ``romme play``: a whole evening in one window.

- :mod:`romme_score.table.entry`: the round entry as a pure state machine (no terminal),
  shared with the interactive ``romme round``;
- :mod:`romme_score.table.app`: the prompt_toolkit front (prompts, completion, history,
  toolbar) and the loop that runs the in-window commands through the same Click commands;
- :mod:`romme_score.table.script`: the scriptable mode, one command line per input line.

prompt_toolkit is imported only here, never on the path of ``romme check``.
"""
