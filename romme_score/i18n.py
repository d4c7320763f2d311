"""The interface's language: German or English, through gettext catalogs in the package.

The language is chosen per command run (or per request), in this order: ``--lang de|en``
(any command), else ``ROMME_LANG``, else the environment as gettext reads it
(``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: the first one set; ``LANGUAGE``
may be a list such as ``fr:de:en``, whose first language with a catalog wins), else
English. It is a value held in a context variable,
never a process-wide switch: :func:`using_language` sets it for a block (a command run,
a request), so that two threads, or two requests of one event loop, each speak their
own. Where nothing set it (a fresh thread), it is the environment's language.
Nothing is read at import: the compiled catalog
(``romme_score/locale/<lang>/LC_MESSAGES/romme.mo``) is loaded on the first message.

Messages are English msgids with named placeholders (``%(player)s``)::

    >>> set_language("de")
    >>> ngettext("%(count)d card", "%(count)d cards", 3) % {"count": 3}
    '3 Karten'
    >>> with using_language("en"):
    ...     _("Total: %(points)d points") % {"points": 5}
    'Total: 5 points'
    >>> language()
    'de'

:func:`N_` only marks a string for extraction (help texts defined at import are
translated when shown, see :func:`romme_score.cli.translate_command`).
"""

from __future__ import annotations

import gettext as _gettext
import os
import sys
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar

LANGUAGES = ("de", "en")
DOMAIN = "romme"
LOCALE_DIR = os.path.join(os.path.dirname(__file__), "locale")

# The language of the current context (a command run, a request); None: the environment's.
_current: ContextVar[str | None] = ContextVar("romme_language", default=None)
# The environment's language, read once per process on first use (set_language(None) reads
# it again). Two threads reading it at once store the same answer.
_environment: str | None = None
# (language, domain) -> its catalog, each loaded once. A catalog is stored only when fully
# loaded, and setdefault keeps the first one stored: two threads that load the same
# catalog at once each get a whole one, and both go on with the same.
_catalogs: dict[tuple[str, str], _gettext.NullTranslations] = {}


def choose_language(explicit: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language of this run: ``de`` or ``en``.

    >>> choose_language(None, {"LANG": "de_DE.UTF-8"})
    'de'
    >>> choose_language(None, {"LANG": "de_DE.UTF-8", "LC_ALL": "C"})
    'en'
    >>> choose_language("en", {"ROMME_LANG": "de"})
    'en'
    >>> choose_language(None, {"LANGUAGE": "fr:de:en", "LANG": "en_US.UTF-8"})
    'de'
    >>> choose_language(None, {})
    'en'
    """
    env = os.environ if environ is None else environ
    if explicit:
        return _normalise(explicit)
    if env.get("ROMME_LANG", "").strip():
        return _normalise(env["ROMME_LANG"])
    # gettext's order (Python's gettext.find): the first variable set decides
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name, "").strip()
        if value:
            return _first_known(value)
    return "en"


def _first_known(value: str) -> str:
    """The first language of a colon list (``LANGUAGE=fr:de``) that has a catalog;
    ``C``/``POSIX`` (or none known) is English, as gettext falls back to the msgids.

    >>> _first_known("fr_FR:de_AT:en"), _first_known("C:de"), _first_known("fr")
    ('de', 'en', 'en')
    """
    for part in value.split(":"):
        code = part.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
        if code in ("c", "posix"):
            return "en"
        if code in LANGUAGES:
            return code
    return "en"


def _normalise(value: str) -> str:
    """``de_DE.UTF-8`` -> ``de``; anything not German (``C``, ``POSIX``, ``fr_FR``) -> ``en``."""
    code = value.strip().lower().replace("-", "_").split(".")[0].split("@")[0].split("_")[0]
    return code if code in LANGUAGES else "en"


def set_language(lang: str | None) -> None:
    """Set the language of the current context, for the rest of it (``None``: choose
    again from the environment). Prefer :func:`using_language`, which ends with its block."""
    global _environment
    if not lang:
        _environment = None
    _current.set(_normalise(lang) if lang else None)


@contextmanager
def using_language(lang: str) -> Iterator[str]:
    """Speak ``lang`` inside the block, in this context only; the language before it
    comes back at the end, also on an exception.

    >>> with using_language("de"):
    ...     decimal_text("0.5")
    '0,5'
    """
    normalised = _normalise(lang)
    token = _current.set(normalised)
    try:
        yield normalised
    finally:
        _current.reset(token)


def chosen_language() -> str | None:
    """The language set in the current context, or None where none is (then
    :func:`language` is the environment's)."""
    return _current.get()


def language() -> str:
    """The language in use: the current context's, else the environment's."""
    global _environment
    lang = _current.get()
    if lang is not None:
        return lang
    found = _environment  # one read: set_language(None) in another thread may clear it
    if found is None:
        found = _environment = choose_language()
    return found


def catalog(domain: str = DOMAIN) -> _gettext.NullTranslations:
    """The compiled catalog of the language in use, loaded once per process."""
    key = (language(), domain)
    found = _catalogs.get(key)
    if found is None:
        path = os.path.join(LOCALE_DIR, key[0], "LC_MESSAGES", f"{domain}.mo")
        try:
            with open(path, "rb") as fp:
                found = MoCatalog.read(fp.read(), path)
        except OSError:  # a catalog missing from the installation: the English msgids
            found = _gettext.NullTranslations()
        found = _catalogs.setdefault(key, found)
    return found


_LE_MAGIC = 0x950412DE  # a .mo file written little-endian, as Babel and msgfmt write it here


class MoCatalog(_gettext.NullTranslations):
    """A compiled catalog read message by message: what ``gettext.GNUTranslations`` answers,
    without decoding every message of the file first (that took about 4 % of a
    ``romme check``'s start-up, for the ten messages it shows). The GNU ``.mo`` format keeps
    the msgids sorted so that they can be binary-searched; tests/test_i18n.py holds every
    shipped catalog's answers equal to ``GNUTranslations``' for every message."""

    # NullTranslations' own attributes, which typeshed leaves out
    _info: dict[str, str]
    _charset: str | None
    _fallback: _gettext.NullTranslations | None
    plural: Callable[[int], int]

    def __init__(self, data: bytes, words: memoryview) -> None:
        super().__init__()
        self._data = data
        self._words = words  # the file as 32-bit words: the header, the tables of lengths and offsets
        self._count, self._originals, self._translations = words[2], words[3] // 4, words[4] // 4
        self._found: dict[bytes, list[str] | None] = {}
        self.plural = _germanic_plural
        self._charset = "utf-8"  # the header's, as GNUTranslations reads it
        header = self._lookup(b"")
        self._found.clear()
        self._charset = None  # as GNUTranslations keeps it
        last = None
        for line in (header[0] if header else "").split("\n"):
            item = line.strip()
            if not item or (item.startswith("#-#-#-#-#") and item.endswith("#-#-#-#-#")):
                continue
            if ":" not in item:
                if last:
                    self._info[last] += "\n" + item
                continue
            name, value = item.split(":", 1)
            name, value = name.strip().lower(), value.strip()
            self._info[name] = value
            last = name
            if name == "content-type":
                self._charset = value.split("charset=")[1]
            elif name == "plural-forms":
                expression = value.split(";")[1].split("plural=")[1]
                if expression.strip() not in ("(n != 1)", "n != 1"):
                    self.plural = _gettext.c2py(expression)

    @classmethod
    def read(cls, data: bytes, name: str = "") -> _gettext.NullTranslations:
        """The catalog in ``data``; one this class cannot read on demand (written big-endian,
        or on a machine of the other byte order) is read whole by ``GNUTranslations``."""
        words = memoryview(data)[: len(data) // 4 * 4].cast("I")
        if len(words) < 5 or words[0] != _LE_MAGIC or sys.byteorder != "little" or words[1] >> 16 > 1:
            import io

            stream = io.BytesIO(data)
            stream.name = name  # GNUTranslations names the file in its errors
            return _gettext.GNUTranslations(stream)
        return cls(data, words)

    def _lookup(self, key: bytes, prefix: bool = False) -> list[str] | None:
        """The translations (one, or the plural forms) of msgid ``key``; with ``prefix``, of the
        first msgid that starts with ``key`` (a plural entry: singular, NUL, plural)."""
        if key in self._found:
            return self._found[key]
        data, words, originals = self._data, self._words, self._originals
        lo, hi = 0, self._count
        while lo < hi:  # the first msgid not below key
            mid = (lo + hi) // 2
            start = words[originals + 2 * mid + 1]
            if data[start : start + words[originals + 2 * mid]] < key:
                lo = mid + 1
            else:
                hi = mid
        result = None
        if lo < self._count:
            start = words[originals + 2 * lo + 1]
            msgid = data[start : start + words[originals + 2 * lo]]
            if msgid.startswith(key) if prefix else msgid == key:
                start = words[self._translations + 2 * lo + 1]
                text = data[start : start + words[self._translations + 2 * lo]]
                result = str(text, self._charset or "ascii").split("\x00")
        self._found[key] = result
        return result

    def _key(self, message: str) -> bytes | None:
        try:
            return message.encode(self._charset or "ascii")
        except UnicodeError:  # no msgid holds what the catalog's charset cannot
            return None

    def _translated(self, message: str, n: int | None) -> str | None:
        """As GNUTranslations looks ``message`` up: a singular entry, else (and for a plural
        ``n``) the form for ``n`` (``gettext`` takes the singular form) of a plural entry."""
        key = self._key(message)
        if key is None or b"\x00" in key:
            return None
        found = self._lookup(key) if n is None else None
        if found is not None and len(found) == 1:
            return found[0]
        found = self._lookup(key + b"\x00", prefix=True)
        index = self.plural(1 if n is None else n)
        return found[index] if found is not None and 0 <= index < len(found) else None

    def gettext(self, message: str) -> str:
        found = self._translated(message, None)
        if found is not None:
            return found
        return self._fallback.gettext(message) if self._fallback else message

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        found = self._translated(msgid1, n)
        if found is not None:
            return found
        if self._fallback:
            return self._fallback.ngettext(msgid1, msgid2, n)
        return msgid1 if n == 1 else msgid2

    def pgettext(self, context: str, message: str) -> str:
        found = self._translated(f"{context}\x04{message}", None)
        if found is not None:
            return found
        return self._fallback.pgettext(context, message) if self._fallback else message

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        found = self._translated(f"{context}\x04{msgid1}", n)
        if found is not None:
            return found
        if self._fallback:
            return self._fallback.npgettext(context, msgid1, msgid2, n)
        return msgid1 if n == 1 else msgid2


def _germanic_plural(n: int) -> int:
    """The plural form of German and English (``plural=(n != 1)``), as ``gettext.c2py``
    makes it."""
    if not isinstance(n, int):
        n = _gettext._as_int(n)
    return int(n != 1)


def _(message: str) -> str:
    """The message in the language in use."""
    return catalog().gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for ``n`` in the language in use."""
    return catalog().ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """The message in the language in use, as meant in ``context``: one English word that
    German says two ways (a league's "game" is a Partie, a tournament table's a Spiel)."""
    return catalog().pgettext(context, message)


def N_(message: str) -> str:
    """Mark a message for extraction only; it is translated where it is shown."""
    return message


def decimal_text(value: object) -> str:
    """A decimal number as the language writes it: ``0,01`` in German, ``0.01`` in English.

    >>> set_language("de"); decimal_text("0.001")
    '0,001'
    >>> set_language("en"); decimal_text("0.001")
    '0.001'
    """
    text = str(value)
    return text.replace(".", ",") if language() == "de" else text


def tenths_text(tenths: int) -> str:
    """A number kept in tenths (003's leaderboard points), with its one decimal as the
    language writes it.

    >>> set_language("de"); tenths_text(77), tenths_text(300)
    ('7,7', '30,0')
    >>> set_language("en"); tenths_text(77)
    '7.7'
    """
    whole, tenth = divmod(tenths, 10)
    return decimal_text(f"{whole}.{tenth}")


def grouped(number: int) -> str:
    """A whole number with its thousands marked as the language writes them.

    >>> set_language("de"); grouped(10_000_000)
    '10.000.000'
    >>> set_language("en"); grouped(10_000_000)
    '10,000,000'
    """
    text = f"{number:,}"
    return text.replace(",", ".") if language() == "de" else text


SHOWN_WHOLE = 80  # characters of a value that a message quotes whole
SHOWN_START = 40  # characters of a longer value that it quotes, before "…" and the length


def _printable(text: str) -> str:
    """Text as it is, or with what cannot be printed escaped as ``repr`` escapes it."""
    return text if text.isprintable() else repr(text)[1:-1]


def shown(value: object, quote: bool = True, whole: int = SHOWN_WHOLE) -> str:
    """A value as a message quotes it: as ``repr`` writes it (one line, control characters
    escaped), or as it is with ``quote=False``; a longer value than ``whole`` characters
    shortened to its start and its length, so that a sentence about a 10 MB value stays a
    sentence.

    >>> set_language("en"); shown("HX"), shown(17), shown("HX", quote=False)
    ("'HX'", '17', 'HX')
    >>> shown("x" * 10_000_000)
    "'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…' (10,000,000 characters)"
    """
    if isinstance(value, str):
        if len(value) <= whole:
            return repr(value) if quote else _printable(value)
        start, length = value[:SHOWN_START] + "…", len(value)
        text = repr(start) if quote else _printable(start)
    else:
        try:
            text = repr(value)
        except ValueError:  # an int beyond Python's limit of digits for str()
            return _("a number of more than %(digits)s digits") % {
                "digits": grouped(sys.get_int_max_str_digits())
            }
        if len(text) <= whole:
            return text
        text, length = text[:SHOWN_START] + "…", len(text)
    return _("%(start)s (%(count)s characters)") % {"start": text, "count": grouped(length)}


# What the operating system says most often about a file, worded in the language in use
# (its own strerror is in English whatever the language): errno name -> message.
OS_REASONS = {
    "ENOENT": N_("there is no such file or folder"),
    "EACCES": N_("permission denied"),
    "EPERM": N_("the operating system does not allow it"),
    "EROFS": N_("the file system is read-only"),
    "ENOSPC": N_("no space left on the disk"),
    "EISDIR": N_("it is a folder"),
    "ENOTDIR": N_("part of the path is not a folder"),
    "EEXIST": N_("it exists already"),
}


def os_reason(exc: OSError) -> str:
    """Why a file operation failed, as a message says it: the common errors worded in the
    language in use, any other as the operating system says it.

    >>> set_language("de"); os_reason(FileNotFoundError(2, "No such file or directory"))
    'die Datei oder den Ordner gibt es nicht'
    >>> set_language("en"); os_reason(OSError(5, "Input/output error"))
    'Input/output error'
    """
    import errno

    name = errno.errorcode.get(exc.errno) if isinstance(exc.errno, int) else None
    if name in OS_REASONS:
        return _(OS_REASONS[name])
    return exc.strerror or str(exc)


def click_gettext(message: str) -> str:
    """Click's own messages (``Usage:``, ``Error:``, ``Missing argument``...)."""
    return catalog("click").gettext(message)


def click_ngettext(singular: str, plural: str, n: int) -> str:
    return catalog("click").ngettext(singular, plural, n)
