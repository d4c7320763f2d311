"""Printing to whatever terminal there is: every output degrades to what the encoding of
standard output and standard error can show, and never fails on a character.

``romme`` runs under any locale: UTF-8, Latin-1 (``de_DE.ISO-8859-1``, which has no ``♥``,
``€`` or ``−``), plain ASCII (``PYTHONIOENCODING=ascii``). :func:`showable_streams`, called
before anything is printed, makes both streams replace what their encoding cannot hold:
a suit by its letter (``♥`` H), ``€`` by ``EUR``, a dash by ``-``, a German letter on an
ASCII terminal by its spelling (``ä`` ae) and anything else by ``?``. Text an ASCII
terminal can show is printed as it is, Click's help pages included. JSON and HTML say
every character in ASCII (``\\u0141``, ``&#321;``): :func:`fit_json` and :func:`fit_html`
keep them whole where the terminal cannot show a character. A file written with ``-o`` is
always UTF-8 (:mod:`romme_score.cli.files`).
"""

from __future__ import annotations

import codecs
import io
import sys
from typing import IO, Any

from romme_score.views.output import PLAIN

ERRORS = "romme-shown"  # the error handler of both streams
ASCII = "romme-ascii"  # ASCII by another name: Click leaves a stream of it alone


def _shown(exc: UnicodeError) -> tuple[str, int]:
    """The error handler: what the encoding cannot hold, as the terminal can show it."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    text = exc.object
    out = []
    for at in range(exc.start, exc.end):
        char = text[at]
        if char == "€":  # €0.40 -> EUR 0.40, 0,40 € -> 0,40 EUR
            out.append("EUR " if text[at + 1 : at + 2].isdigit() else "EUR")
        else:
            out.append(PLAIN.get(char, "?"))
    return "".join(out), exc.end


def _json_escaped(exc: UnicodeError) -> tuple[str, int]:
    """JSON's own escapes for what the encoding cannot hold (only strings hold any)."""
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for char in exc.object[exc.start : exc.end]:
        code = ord(char)
        if code > 0xFFFF:  # a pair of surrogates, as JSON spells it
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), exc.end


def _find_ascii(name: str) -> codecs.CodecInfo | None:
    if name.replace("_", "-") != ASCII:
        return None
    plain = codecs.lookup("ascii")
    return codecs.CodecInfo(
        plain.encode,
        plain.decode,
        name=ASCII,
        incrementalencoder=plain.incrementalencoder,
        incrementaldecoder=plain.incrementaldecoder,
        streamreader=plain.streamreader,
        streamwriter=plain.streamwriter,
    )


codecs.register_error(ERRORS, _shown)
codecs.register_error("romme-json", _json_escaped)
codecs.register(_find_ascii)


def showable_streams() -> None:
    """Make standard output and standard error print any text (see the module). Click
    writes UTF-8 to a stream it finds declared ASCII, whatever the terminal shows; such a
    stream is declared :data:`ASCII` instead, which Click takes as it is."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name, None)
        if not isinstance(stream, io.TextIOWrapper) or stream.errors == ERRORS:
            continue
        try:
            if codecs.lookup(stream.encoding).name == "ascii":
                stream.reconfigure(encoding=ASCII, errors=ERRORS)
            else:
                stream.reconfigure(errors=ERRORS)
        except (LookupError, ValueError, io.UnsupportedOperation):
            continue


def _encoding(stream: IO[Any] | None) -> str:
    return getattr(stream, "encoding", None) or "utf-8"


def holds_everything(stream: IO[Any] | None = None) -> bool:
    """Whether the stream (default: standard output) can hold every character."""
    try:
        return codecs.lookup(_encoding(sys.stdout if stream is None else stream)).name.startswith("utf")
    except LookupError:
        return False


def _fit(text: str, errors: str) -> str:
    if holds_everything():
        return text
    encoding = _encoding(sys.stdout)
    try:
        return text.encode(encoding, errors).decode(encoding)
    except LookupError:
        return text


def fit_json(text: str) -> str:
    """JSON for standard output: what it cannot hold written as ``\\uXXXX`` escapes, so the
    JSON stays whole (only a JSON string holds a character beyond ASCII)."""
    return _fit(text, "romme-json")


def fit_html(text: str) -> str:
    """An HTML page for standard output: what it cannot hold as character references
    (``&#321;``), so the page says every name right whatever the terminal's encoding."""
    return _fit(text, "xmlcharrefreplace")


def terminal_columns() -> int:
    """The terminal's width as :func:`shutil.get_terminal_size` gives it (``COLUMNS`` where
    it is a positive number, else the terminal of standard output, else 80), for a command
    that fits a table to it."""
    import shutil  # where a width is needed: it imports the compression modules

    return shutil.get_terminal_size().columns
