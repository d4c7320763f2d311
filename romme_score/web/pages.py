"""The pages of the three links, and what they load: one HTML template extending the base
every page shares (the parts of the other kinds of link left out), the scripts (ES
modules) and the style sheet shipped in the package, the
chart of the evening (the report's SVG), QR codes of the links. Nothing from anywhere
else; no inline script or style (the Content-Security-Policy forbids them).

Every name is escaped where the server writes it; the script writes names as text only.
"""

from __future__ import annotations

import functools
import json
import re
from collections.abc import Callable
from html import escape
from importlib import resources
from string import Template
from typing import Any

from romme_score.cards import Profile
from romme_score.history import chart_from_totals
from romme_score.i18n import LANGUAGES, language
from romme_score.stream import stream_json
from romme_score.views import report as report_views
from romme_score.views import web as views
from romme_score.web.cache import Tagged, answer, etag, held
from romme_score.web.context import Call
from romme_score.web.links import qr_svg

STATIC_TYPES = {
    name: "text/javascript; charset=utf-8"
    for name in (
        "main.js",  # the entry of every page: picks the page's module by the kind of link
        "net.js",
        "live.js",  # a page kept up to date: its state, its event stream, a link gone
        "outbox.js",  # the writes, kept in the phone until answered
        "render.js",
        "seat.js",
        "keeper.js",
        "board.js",
        "tournament.js",
        "paging.js",  # the pages of the tournament board's boxes on a projector
        "league.js",  # the board of romme serve --league
        "organizer.js",  # the organiser's page of romme serve --all
        "awake.js",  # "Keep screen on": the Wake Lock, or a muted inline video where there is none
        "app.js",  # the entry of old, kept: it loads main.js
        "sw.js",  # the service worker: the page, its scripts and styles kept for a reload offline
        "forget.js",  # what the phone keeps of a link, deleted when the link is no longer valid
        "gone.js",  # the 404 page's: forget.js for the link asked for
    )
}
STATIC_TYPES.update({"style.css": "text/css; charset=utf-8", "icon.svg": "image/svg+xml"})
_ONLY = re.compile(r"<!--only:([a-z,]+)-->\n?(.*?)<!--/only-->\n?", re.S)
_EXTENDS = re.compile(r"<!--extends:([a-z]+\.html)-->\n")
BLOCK = "<!--block-->\n"


@functools.cache
def static_file(name: str) -> bytes:
    return resources.files("romme_score.web").joinpath("static", name).read_bytes()


def _read(name: str) -> str:
    return resources.files("romme_score.web").joinpath("templates", name).read_text("utf-8")


@functools.cache
def template(name: str, kind: str) -> Template:
    """A page's template for a kind of link: put into the template it extends (its first
    line ``<!--extends:base.html-->``; the base's ``<!--block-->`` takes the page), the
    parts marked ``<!--only:KINDS-->`` left out for another kind; ``$name`` fields."""
    text = _read(name)
    extends = _EXTENDS.match(text)
    if extends is not None:
        text = _read(extends.group(1)).replace(BLOCK, text[extends.end() :])
    return Template(_ONLY.sub(lambda m: m.group(2) if kind in m.group(1).split(",") else "", text))


def languages_nav(base: str) -> str:
    """The footer's links to the page in each language (the one shown marked current)."""
    current = ' aria-current="true"'
    return " · ".join(
        f'<a href="{base}/?lang={code}"{current if code == language() else ""}>'
        f"{escape(views.LANGUAGE_NAMES[code])}</a>"
        for code in LANGUAGES
    )


def picker_html(notation: Profile) -> str:
    """The seat's card picker: a button per suit and per rank, each rank carrying the card
    as typed for each suit (the server's notation; the script only joins the tokens)."""
    suits, ranks, _joker = views.picker_cards(notation)
    suit_buttons = "".join(
        f'<button type="button" class="suit s-{letter.lower()}{" red" if red else ""}" '
        f'data-suit="{letter}" aria-pressed="false">{symbol}</button>'
        for letter, symbol, red in suits
    )
    rank_buttons = "".join(
        f'<button type="button" class="rank" data-rank="{letter}" '
        f'data-cards="{escape(json.dumps(cards))}" disabled>{letter}</button>'
        for letter, cards in ranks
    )
    return (
        f'    <div id="suits" class="suits">{suit_buttons}</div>\n'
        f'    <div id="ranks" class="ranks">{rank_buttons}</div>'
    )


def page(call: Call, session: str, lang_param: str | None) -> str:
    """The page of a link, in the request's language."""
    link = call.link
    base = "/" + link.token
    texts = views.page_texts(call.notation)
    values = {f"t_{key}": escape(text) for key, text in texts.items()}
    values.update(
        lang=language(),
        title=escape(views.page_title(link.kind, session, link.player)),
        base=escape(base),
        kind=link.kind,
        body_data=f' data-player="{escape(link.player or "")}" data-notation="{call.notation}"',
        lang_param=escape(lang_param or ""),
        texts=escape(json.dumps(texts, ensure_ascii=False)),
        heading=escape(session),
        sub_id="distance",
        own_url=escape(call.config.links.url(link)),
        languages=languages_nav(escape(base)),
        picker=picker_html(call.notation) if link.kind == "seat" else "",
        joker=views.picker_cards(call.notation)[2],
    )
    return template("page.html", link.kind).substitute(values)


CHART_ROUNDS = 100  # the rounds a page's chart draws at most: a longer session's is thinned


def chart(call: Call, seen: str | None = None) -> Tagged:
    """The chart of the evening, as ``romme report`` draws it, from the totals kept per
    round (a session of more than :data:`CHART_ROUNDS` rounds thinned, see
    :func:`~romme_score.history.chart_from_totals`); built once per version of the
    session and language, its ETag a digest of the picture: unchanged by a hand of the
    round in progress."""
    service, info = call.service, call.info()

    def build() -> tuple[int, Tagged]:
        version = service.version(info)
        svg = report_views.svg_chart(chart_from_totals(service, info, CHART_ROUNDS)).encode("utf-8")
        return version, Tagged(etag("chart", svg), svg)

    built = call.services.built.get(("chart", info.id, call.language), service.version(info), build)
    return answer(built, seen)


def cached_chart(call: Call, seen: str | None = None) -> Tagged | None:
    """In the event loop: the chart as built at the session's version, or None."""
    info = call.info()
    key = ("chart", info.id, call.language)
    found = held(call.services.built, key, lambda: call.service.version(info), lambda chart: chart)
    return answer(found, seen) if found is not None else None


BOARD_READ_TRIES = 3  # a board's state built again while its events are written meanwhile


def board_json(version: Callable[[], int], build: Callable[[int], dict[str, Any]], kind: str) -> bytes:
    """A read-only board's ``state.json`` (a tournament's, a league's): ``build(version)``
    with its ``kind``, built again when the version moved while it was built, so that the
    text is of one version (at most :data:`BOARD_READ_TRIES` times)."""
    text = ""
    for _attempt in range(BOARD_READ_TRIES):
        before = version()
        data = build(before)
        data["kind"] = kind
        text = "".join(stream_json(data))
        if version() == before:
            break
    return text.encode("utf-8")


def board_page(
    template_name: str,
    kind: str,
    token: str,
    name: str,
    title: str,
    texts: dict[str, str],
    own_url: str,
    lang_param: str | None,
) -> str:
    """A read-only board's page (a tournament's, a league's), in the request's language:
    the heading ``name``, the texts its script shows, its own link for another screen."""
    base = "/" + token
    values = {f"t_{key}": escape(text) for key, text in texts.items()}
    values.update(
        lang=language(),
        title=escape(title),
        heading=escape(name),
        sub_id="status",
        kind=kind,
        body_data="",
        base=escape(base),
        lang_param=escape(lang_param or ""),
        texts=escape(json.dumps(texts, ensure_ascii=False)),
        own_url=escape(own_url),
        languages=languages_nav(escape(base)),
    )
    return template(template_name, kind).substitute(values)


def manifest(base: str, title: str, lang: str) -> bytes:
    """The web app manifest of a link (``{link}/manifest.webmanifest``): the phone can put
    the page on its home screen; scope and start are the link's own path, so that one
    link's page is never taken for another's."""
    data = {
        "name": title,
        "short_name": "Rommé",
        "lang": lang,
        "start_url": base,
        "scope": base,
        "display": "standalone",
        "background_color": "#fbfbfd",
        "theme_color": "#1848a8",
        "icons": [{"src": f"{base}/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}],
    }
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


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


def _notice(title: str, text: str, hint: str, refresh: int | None, script: str = "", extra: str = "") -> str:
    """A page of its own, in the language in use: its style sheet and icon (and
    ``script``, if any) from the paths every link shares (``/static/...``), its language
    links relative; ``extra``: HTML after the hint."""
    current = ' aria-current="true"'
    languages = " · ".join(
        f'<a href="?lang={code}"{current if code == language() else ""}>'
        f"{escape(views.LANGUAGE_NAMES[code])}</a>"
        for code in LANGUAGES
    )
    return Template(_read("notice.html")).substitute(
        lang=language(),
        title=escape(title),
        text=escape(text),
        hint=escape(hint),
        languages=languages,
        refresh=f'<meta http-equiv="refresh" content="{refresh}">\n' if refresh else "",
        script=f'<script src="/static/{script}" type="module"></script>\n' if script else "",
        extra=extra,
    )


def missing_page() -> str:
    """The one 404 page (a wrong token, a changed one, any path that is not there). Its
    script (``gone.js``) deletes what the phone kept of the link asked for (the service
    worker's copy of its page, its last state, its unsent writes) and then shows the
    sentences saying so (hidden till then)."""
    texts = views.missing_texts()
    said = "".join(
        f'  <p id="{name}" class="help" role="status" hidden>{escape(texts[key])}</p>\n'
        for name, key in (("forgot", "forgot"), ("forgot-writes", "forgot_writes"))
    )
    return _notice(texts["title"], texts["text"], texts["hint"], None, "gone.js", said)


def unavailable_page(sentence: str, retry: int) -> str:
    """The page asked while its database cannot be used: the sentence, and a reload in
    ``retry`` seconds."""
    texts = views.unavailable_texts()
    return _notice(texts["title"], sentence, texts["hint"], retry)


PUBLIC_STATIC = (
    "style.css",
    "icon.svg",
    "gone.js",
    "forget.js",
)  # also at /static/NAME, for the pages of no link
