"""The HTML document every page written to a file shares (``romme report``, ``romme league
report``, ``romme tournament sheets``): one self-contained page in the language of the run,
its style inline, nothing fetched from anywhere (the Content-Security-Policy says so)."""

from __future__ import annotations

from collections.abc import Iterable
from html import escape

from romme_score.i18n import language


def document(title: str, css: str, body: Iterable[str]) -> str:
    """The whole page: doctype, head (charset, viewport, policy, title, style) and the
    ``body`` parts, a line each."""
    return (
        '<!DOCTYPE html>\n<html lang="' + language() + '">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        # Nothing is fetched from anywhere: the page holds all it shows.
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'\">\n"
        f"<title>{escape(title)}</title>\n<style>{css}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )
