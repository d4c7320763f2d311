"""How wide text is on a terminal: a column per character, two for a wide one (an emoji,
a CJK ideograph), none for a combining mark, as :mod:`wcwidth` measures it (tabulate uses
the same when it is installed). Own padding code pads and cuts by these widths, so that a
player called "Zoë 🃏" keeps the columns after the name in line.

>>> width("Zoë 🃏"), ljust("Zoë 🃏", 8) + "|", cut("Zoë 🃏🃏", 7)
(6, 'Zoë 🃏  |', 'Zoë 🃏…')
"""

from __future__ import annotations

# Characters one column wide that the program prints itself, measured without wcwidth
# (tests/test_display_width.py holds each to wcwidth): the suits, the dot, dashes, the
# ellipsis and the euro of the tables. With the printable characters below U+0300 (ASCII,
# Latin-1 and Latin Extended: every German name), a table of such text never imports
# wcwidth, whose import alone costs half of Click's (issue 28 item 3).
NARROW = frozenset("♥♦♠♣·–—…€×→←✓✗")
NARROW_BELOW = 0x300  # the combining marks start here


def narrow(text: str) -> bool:
    """Whether every character of ``text`` takes one column, known without wcwidth."""
    return all((ord(char) < NARROW_BELOW and char.isprintable()) or char in NARROW for char in text)


def width(text: str) -> int:
    """Columns ``text`` takes; a character wcwidth cannot measure (a control character)
    counts one."""
    if narrow(text):
        return len(text)
    from wcwidth import wcswidth, wcwidth  # only where a width must be measured

    total = wcswidth(text)
    if total >= 0:
        return total
    return sum(max(wcwidth(c), 0) if wcwidth(c) != -1 else 1 for c in text)


def ljust(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    return " " * max(0, columns - width(text)) + text


def cut(text: str, columns: int, mark: str = "…") -> str:
    """``text`` if it fits ``columns``, else its start and ``mark`` in at most ``columns``."""
    if width(text) <= columns:
        return text
    room = columns - width(mark)
    kept = ""
    for char in text:
        if width(kept + char) > room:
            break
        kept += char
    return kept + mark


def fits(text: str, columns: int) -> bool:
    """Whether every line of ``text`` fits ``columns``."""
    return all(width(line) <= columns for line in text.splitlines())


def wrap(text: str, columns: int | None, indent: str = "  ") -> str:
    """Each line of ``text`` broken at spaces to fit ``columns`` (by display width), the
    lines after the first of each indented; unchanged where ``columns`` is None. A word
    longer than the line stays whole.

    >>> print(wrap("Note on the game (1.12.2026, 10:15): Zoë 🃏 starts", 24))
    Note on the game
      (1.12.2026, 10:15):
      Zoë 🃏 starts
    >>> print(wrap("    points the first meld must reach", 20, indent="    "))
        points the first
        meld must reach
    """
    if columns is None:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if width(line) <= columns:
            out.append(line)
            continue
        words = line.lstrip(" ").split(" ")
        current = line[: len(line) - len(line.lstrip(" "))] + words[0]  # its own indent kept
        for word in words[1:]:
            if width(f"{current} {word}") > columns:
                out.append(current)
                current = indent + word
            else:
                current = f"{current} {word}"
        out.append(current)
    return "\n".join(out)
