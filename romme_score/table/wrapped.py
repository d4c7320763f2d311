"""What an in-window command prints, wrapped at spaces to the window as it is written
(issue 20's trial: a verdict of ``check``, an error of ``round``, the ``undo`` question).
The commands print as on the command line; the table mode puts :class:`WrappedStream`
in front of standard output and standard error while one runs, so that the terminal
never breaks a word. Widths are display widths (an emoji takes two columns).

>>> import io
>>> screen = io.StringIO()
>>> stream = WrappedStream(screen, 16)
>>> _ = stream.write("Remove round 1 (Dora 2, Zoë🃏 3)? [y/N]")
>>> stream.flush()
>>> print(screen.getvalue())
Remove round 1
  (Dora 2, Zoë🃏
  3)? [y/N]
"""

from __future__ import annotations

import contextlib
import io
import sys
from collections.abc import Iterator
from typing import TextIO

from romme_score.views.width import width as text_width

INDENT = "  "  # the lines after the first of a wrapped line, as the table's own errors


class WrappedStream(io.TextIOBase):
    """A text stream that writes to ``target``, breaking a line at the space before a word
    that would go past ``columns``; lines that fit pass unchanged. A word wider than the
    window stays whole. What is written is held only up to the end of its word: a
    question without a line end (``[y/N]``) shows when it is flushed."""

    def __init__(self, target: TextIO, columns: int) -> None:
        super().__init__()
        self.target = target
        self.columns = columns
        self.column = 0  # where the cursor is on the current line
        self.word = ""
        self.spaces = ""

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.target, "encoding", None) or "utf-8"

    def writable(self) -> bool:
        return True

    def isatty(self) -> bool:
        # as the terminal behind it (JSON indented there); the commands run in the window
        # print no styles, whose escapes would count as columns
        return bool(self.target.isatty())

    def write(self, text: str) -> int:
        if not isinstance(text, str):  # Click asks with b"" whether a stream takes bytes
            raise TypeError("WrappedStream takes text")
        for char in text:
            if char in "\r\n":
                self._word()
                self.spaces = ""
                self.target.write(char)
                self.column = 0
            elif char == " ":
                self._word()
                self.spaces += char
            else:
                self.word += char
        return len(text)

    def _word(self) -> None:
        if not self.word:
            return
        wide = text_width(self.word)
        if self.column > 0 and self.column + len(self.spaces) + wide > self.columns:
            self.target.write("\n" + INDENT)
            self.column, self.spaces = len(INDENT), ""
        self.target.write(self.spaces + self.word)
        self.column += len(self.spaces) + wide
        self.word = self.spaces = ""

    def line_read(self) -> None:
        """A line was typed in answer to what stands on the screen: the terminal echoed it
        and its Enter, so the cursor is at the start of a new line (issue 38 item 12: the
        answer after ``[j/N]`` then fits the whole width again)."""
        self.flush()
        self.column, self.spaces = 0, ""

    def flush(self) -> None:
        self._word()
        if self.spaces:
            self.target.write(self.spaces)
            self.column += len(self.spaces)
            self.spaces = ""
        self.target.flush()


class ReadingStream(io.TextIOBase):
    """Standard input that tells the wrapped streams when a line was read (a question's
    answer): the terminal's echo put the cursor at the start of a line. Everything else
    is the terminal's own standard input's."""

    def __init__(self, source: TextIO, streams: list[WrappedStream]) -> None:
        super().__init__()
        self.source = source
        self.streams = streams

    def readable(self) -> bool:
        return True

    def isatty(self) -> bool:
        return bool(self.source.isatty())

    def fileno(self) -> int:
        return self.source.fileno()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.source, "encoding", None) or "utf-8"

    def readline(self, size: int | None = -1, /) -> str:  # type: ignore[override]
        line = self.source.readline(-1 if size is None else size)
        if self.source.isatty():  # echoed with its Enter (a pipe's line is not shown)
            for stream in self.streams:
                stream.line_read()
        return line

    def read(self, size: int | None = -1, /) -> str:
        return self.source.read(-1 if size is None else size)

    def __getattr__(self, name: str) -> object:  # buffer, errors, ...: the terminal's own
        return getattr(self.source, name)


@contextlib.contextmanager
def wrapped_output(columns: int, out: bool = True) -> Iterator[None]:
    """Standard error, and standard output unless not ``out``, wrapped to ``columns``
    while the block runs; a line read from standard input starts their lines anew."""
    saved = sys.stdout, sys.stderr, sys.stdin
    streams = [WrappedStream(sys.stderr, columns)]
    sys.stderr = streams[0]
    if out:
        streams.append(WrappedStream(sys.stdout, columns))
        sys.stdout = streams[1]
    sys.stdin = ReadingStream(sys.stdin, streams)
    try:
        yield
    finally:
        for stream in streams:
            stream.flush()
        sys.stdout, sys.stderr, sys.stdin = saved


@contextlib.contextmanager
def unwrapped() -> Iterator[None]:
    """The terminal's own streams while the block runs, inside :func:`wrapped_output`: a
    round asked step by step is drawn by prompt_toolkit, which needs the terminal itself."""
    saved = sys.stdout, sys.stderr, sys.stdin
    for stream in saved[:2]:
        if isinstance(stream, WrappedStream):
            stream.flush()
    sys.stdout, sys.stderr = (s.target if isinstance(s, WrappedStream) else s for s in saved[:2])
    if isinstance(sys.stdin, ReadingStream):
        sys.stdin = sys.stdin.source
    try:
        yield
    finally:
        sys.stdout, sys.stderr, sys.stdin = saved
