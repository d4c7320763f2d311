"""How romme-score was installed, for the one command that adds an optional extra
(issue 30 item 5): ``pipx install --force 'romme-score[serve]'`` where romme runs in a
virtual environment of pipx, else ``pip install`` with the interpreter running romme.

pipx keeps each application in ``$PIPX_HOME/venvs/NAME`` (default ``~/.local/share/pipx``,
before pipx 1.3 ``~/.local/pipx``) and writes ``pipx_metadata.json`` into it. pipx
reinstalls with ``--force`` from the name given, so the line names every extra already
there too: ``romme-score[postgres,serve]`` keeps the club's server when adding the phones.
Read only when an extra is missing, never on a command's way to its answer.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shlex
import sys
from collections.abc import Mapping
from pathlib import Path
from urllib.parse import unquote, urlparse

# each extra, and a module only it brings
EXTRA_MODULES = {"postgres": "psycopg", "serve": "uvicorn"}
PIPX_HOMES = ("~/.local/share/pipx", "~/.local/pipx")


def in_pipx(prefix: str | None = None, environ: Mapping[str, str] | None = None) -> bool:
    """Whether the environment at ``prefix`` (default: the running one) is one of pipx's."""
    where = Path(sys.prefix if prefix is None else prefix)
    env = os.environ if environ is None else environ
    if (where / "pipx_metadata.json").is_file():
        return True
    homes = [env["PIPX_HOME"]] if env.get("PIPX_HOME") else []
    homes += PIPX_HOMES
    try:
        return any(where.resolve().parent == (Path(home).expanduser() / "venvs").resolve() for home in homes)
    except (OSError, RuntimeError):
        return False


def _installed(extra: str) -> bool:
    module = EXTRA_MODULES.get(extra)
    try:
        return module is not None and importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):  # a module set to None, or one without a spec
        return False


def source() -> str:
    """What pipx reinstalls from: the folder romme-score was installed from (a clone or an
    unpacked download, as the README installs it; PEP 610's ``direct_url.json``), else its
    name on a package index."""
    try:
        from importlib.metadata import PackageNotFoundError, distribution

        text = distribution("romme-score").read_text("direct_url.json")
    except (ImportError, PackageNotFoundError, OSError):
        return "romme-score"
    try:
        url = str(json.loads(text or "{}").get("url", ""))
    except (ValueError, AttributeError):
        return "romme-score"
    if url.startswith("file://"):
        folder = unquote(urlparse(url).path)
        if Path(folder).is_dir():
            return folder
    return "romme-score"


def install_line(extra: str, prefix: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The command that adds ``extra`` to this installation of romme-score.

    >>> install_line("serve", prefix="/nowhere", environ={}).endswith(" -m pip install 'romme-score[serve]'")
    True
    """
    if in_pipx(prefix, environ):
        extras = sorted({extra} | {other for other in EXTRA_MODULES if other != extra and _installed(other)})
        return f"pipx install --force {shlex.quote(source() + '[' + ','.join(extras) + ']')}"
    return f"{shlex.quote(sys.executable)} -m pip install {shlex.quote(f'romme-score[{extra}]')}"
