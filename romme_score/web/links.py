"""The phones' links: unguessable tokens, the address they name, and their QR codes.

A link is ``http://ADDRESS:PORT/TOKEN``; the token alone says which session and which
page (board, scorekeeper, a seat), so the address holds no name. Tokens are 128 bits
and more from :mod:`secrets`, kept in the database with the session (a restarted server
keeps every phone connected), and compared in constant time.
"""

from __future__ import annotations

import hashlib
import io
import secrets
import socket
from dataclasses import dataclass

from romme_score.store.records import Link

TOKEN_BYTES = 18  # 144 bits: 24 characters of URL-safe base64
ALL_INTERFACES = ("", "0.0.0.0", "::")
# Routing towards a private address tells which interface faces the local network; a UDP
# socket's connect() only chooses the route and sends nothing.
ROUTE_PROBE = ("10.255.255.254", 9)


def make_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


def lan_address() -> str:
    """The machine's address on the local network (the one phones on the Wi-Fi reach),
    found without sending anything; 127.0.0.1 where there is no network."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(ROUTE_PROBE)
        address = str(probe.getsockname()[0])
    except OSError:
        address = ""
    finally:
        probe.close()
    if not address or address.startswith("0."):
        try:
            address = socket.gethostbyname(socket.gethostname())
        except OSError:
            address = "127.0.0.1"
    return address


def link_host(host: str) -> str:
    """The address the printed links name: the local network's for all interfaces, else
    the one served on."""
    address = lan_address() if host in ALL_INTERFACES else host
    return f"[{address}]" if ":" in address else address


@dataclass(frozen=True)
class LinkSet:
    """The session's links as served: ``base`` is ``http://ADDRESS:PORT``."""

    base: str
    links: tuple[Link, ...]

    def url(self, link: Link) -> str:
        return f"{self.base}/{link.token}"

    def of_kind(self, kind: str) -> list[Link]:
        return [k for k in self.links if k.kind == kind]

    def seat(self, player: str) -> Link:
        return next(k for k in self.links if k.kind == "seat" and k.player == player)

    def summary(self) -> dict[str, object]:
        """``{"board": URL, "scorekeeper": URL, "seats": {"NAME": URL}}`` (``romme serve --json``)."""
        return {
            "board": self.url(self.of_kind("board")[0]),
            "scorekeeper": self.url(self.of_kind("scorekeeper")[0]),
            "seats": {k.player: self.url(k) for k in self.of_kind("seat") if k.player is not None},
        }


def token_digest(token: str) -> bytes:
    """A token's SHA-256 digest, by which the server looks a link up (a dict keyed by the
    tokens themselves would compare what was sent with a real token byte by byte)."""
    return hashlib.sha256(token.encode("utf-8", "surrogateescape")).digest()


def qr_svg(url: str, title: str, scalable: bool = False) -> bytes:
    """A QR code of ``url`` as an SVG image (black on white, a quiet zone of 4); ``scalable``:
    a viewBox and no size, for a page that gives the size (a printed sheet)."""
    import segno

    out = io.BytesIO()
    segno.make(url, error="m").save(
        out, kind="svg", scale=6, border=4, xmldecl=False, title=title, omitsize=scalable
    )
    return out.getvalue()


def qr_terminal(url: str) -> str:
    """A QR code of ``url`` in block characters, two modules a line, for the terminal."""
    import segno

    out = io.StringIO()
    segno.make(url, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue()
