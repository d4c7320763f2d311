"""The pages of the three links, and what they load: one HTML template (the parts of the
other kinds of link left out), the script and the style sheet shipped in the package, the
chart of the evening (the report's SVG), QR codes of the links. Nothing from anywhere
else; no inline script or style (the Content-Security-Policy forbids them).

Every name is escaped where the server writes it; the script writes names as text only.
"""

from __future__ import annotations

import functools
import json
import re
from html import escape
from importlib import resources
from string import Template

from romme_score.history import chart_of
from romme_score.i18n import LANGUAGES, language
from romme_score.views import report as report_views
from romme_score.views import web as views
from romme_score.web.context import Call
from romme_score.web.links import LinkSet, qr_svg

STATIC_TYPES = {
    "app.js": "text/javascript; charset=utf-8",
    "tournament.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
    "icon.svg": "image/svg+xml",
}
_ONLY = re.compile(r"<!--only:([a-z,]+)-->\n?(.*?)<!--/only-->\n?", re.S)


@functools.cache
def static_file(name: str) -> bytes:
    return resources.files("romme_score.web").joinpath("static", name).read_bytes()


@functools.cache
def _template(kind: str) -> Template:
    text = resources.files("romme_score.web").joinpath("templates", "page.html").read_text("utf-8")
    kept = _ONLY.sub(lambda m: m.group(2) if kind in m.group(1).split(",") else "", text)
    return Template(kept)


def page(call: Call, session: str, lang_param: str | None) -> str:
    """The page of a link, in the request's language."""
    link = call.link
    base = "/" + link.token
    texts = views.page_texts(call.notation)
    values = {f"t_{key}": escape(text) for key, text in texts.items()}
    links: LinkSet = call.config.links
    current = ' aria-current="true"'
    languages = " · ".join(
        f'<a href="{base}/?lang={code}"{current if code == language() else ""}>'
        f"{escape(views.LANGUAGE_NAMES[code])}</a>"
        for code in LANGUAGES
    )
    values.update(
        lang=language(),
        title=escape(views.page_title(link.kind, session, link.player)),
        base=escape(base),
        kind=link.kind,
        player=escape(link.player or ""),
        lang_param=escape(lang_param or ""),
        notation=call.notation,
        texts=escape(json.dumps(texts, ensure_ascii=False)),
        session=escape(session),
        own_url=escape(links.url(link)),
        languages=languages,
    )
    return _template(link.kind).substitute(values)


def chart(call: Call) -> bytes:
    """The chart of the evening, as ``romme report`` draws it."""
    service = call.service
    standings = service.standings(call.info())
    return report_views.svg_chart(chart_of(standings)).encode("utf-8")


def links_json(call: Call) -> dict[str, object]:
    """The links for the scorekeeper's page: each with what it is for and its QR code."""
    links = call.config.links
    items = [
        {
            "kind": k.kind,
            "player": k.player,
            "label": views.link_heading(k.kind, k.player),
            "url": links.url(k),
            "qr": "qr/board.svg" if k.kind == "board" else f"qr/seat-{i}.svg",
        }
        for i, k in enumerate(links.links)
        if k.kind != "scorekeeper"
    ]
    return {**links.summary(), "links": items}


def qr_of(call: Call, which: str | None) -> bytes | None:
    """A QR code: of the link itself (``which`` None), or, for the scorekeeper, of the
    board (``board``) or a seat (``seat-N``, its place among the links)."""
    links = call.config.links
    if which is None:
        target = call.link
    elif which == "board":
        target = links.of_kind("board")[0]
    else:
        kind, _dash, number = which.partition("-")
        if kind != "seat" or not number.isdigit() or int(number) >= len(links.links):
            return None
        target = links.links[int(number)]
        if target.kind != "seat":
            return None
    label = views.link_heading(target.kind, target.player)
    return qr_svg(links.url(target), label)
