"""A person's value (a name, a session) as one word of a shell's command line, for every
hint that shows what to type (issue 37 item 1): pasted back, the shell reads the same value
and runs nothing else.

>>> shell_word("Club"), shell_word("Club", "'"), shell_word("Cup S1 T1", '"')
('Club', "'Club'", '"Cup S1 T1"')
>>> print(shell_word("O'Brien Cup", "'"))
'O'"'"'Brien Cup'
>>> print(shell_word("Cup $HOME", '"'))
'Cup $HOME'
"""

from __future__ import annotations

# What a shell still reads specially between each kind of quotes (``!``: bash's history in
# a terminal).
_SPECIAL = {"'": frozenset("'"), '"': frozenset('"$`\\!')}


def shell_word(value: str, quotes: str = "") -> str:
    """``value`` between ``quotes`` (``'`` or ``"``: as the hint has always written it)
    where the shell reads that back unchanged, bare where ``quotes`` is empty and nothing
    needs quoting; else quoted by ``shlex.quote``."""
    if quotes and not _SPECIAL[quotes].intersection(value):
        return f"{quotes}{value}{quotes}"
    import shlex  # only a value that needs quoting: the views that import this print few such hints

    return shlex.quote(value)  # bare where nothing needs quoting
