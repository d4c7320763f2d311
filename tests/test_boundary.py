"""The boundary of issue 35 item 6: play is decided in one place.

- The front ends (``cli/``, ``table/``, ``web/``) and the views import no *function* of the
  game's core (``scoring``, ``melds``, ``layoff``, ``solver``, ``settlement``, and the pure
  rules of a tournament and a league): its types (cards, hands, verdicts, errors) are fine,
  a check or a sum is the service's to call.
- The store imports nothing from ``tournament/`` or ``league/``: not at the top, not inside
  a function, not for types.
- No import circle, counting imports inside functions and the names a package hands out
  lazily (``from romme_score.sessions import SessionService`` imports
  ``romme_score.sessions.service``).
- The core imports no Click: only the command line and the table mode do.
- No sentence of the core, the store or the services names a command-line option, not even
  as a default argument that ends up in an error.
"""

from __future__ import annotations

import ast
import importlib
import re
import types
from functools import cache
from pathlib import Path

import pytest
from test_architecture import PACKAGE, find_cycle, module_name

FRONT_ENDS = ("cli", "table", "web", "views")
GAME_CORE = ("scoring", "melds", "layoff", "solver", "settlement", "tournament.rules", "league.rules")
CLICK_ALLOWED = ("cli", "table")
OPTION = re.compile(r"(?<![\w-])--[a-z][a-z-]+")


def speaks_facts_only(name: str) -> bool:
    """The core, the store and the services: every module but the front ends and the views."""
    return package_part(name) not in (*FRONT_ENDS, "__main__")


@cache
def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def package_part(module: str) -> str:
    """``romme_score.table.app`` -> ``table``; ``romme_score.scoring`` -> ``scoring``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


@cache
def tree(path: Path) -> ast.Module:
    return ast.parse(path.read_text(encoding="utf-8"))


def absolute(node: ast.ImportFrom, here: str) -> str:
    """The module an ``ImportFrom`` names, relative imports made absolute."""
    if not node.level:
        return node.module or ""
    base = here.split(".")
    is_package = modules()[here].name == "__init__.py"
    base = base if is_package else base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def resolve(package: str, name: str) -> str | None:
    """The module that ``from package import name`` loads: the submodule of that name, or,
    for a name a package hands out (lazily too), the module that defines it."""
    known = modules()
    if f"{package}.{name}" in known:
        return f"{package}.{name}"
    if package not in known:
        return None
    try:
        value = getattr(importlib.import_module(package), name)
    except (AttributeError, ImportError):
        return package
    defined = (
        getattr(value, "__module__", None) if not isinstance(value, types.ModuleType) else value.__name__
    )
    if isinstance(defined, str) and defined in known:
        return defined
    return package


def edges_of(here: str) -> set[str]:
    """Every module of the package that ``here`` imports, wherever in the file, with the
    names a package hands out resolved to their own modules."""
    known = modules()
    found: set[str] = set()
    for node in ast.walk(tree(known[here])):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom):
            module = absolute(node, here)
            if module not in known:
                continue
            for alias in node.names:
                target = resolve(module, alias.name)
                found.add(target or module)
            if not node.names:
                found.add(module)
    found.discard(here)
    return found


@cache
def graph() -> dict[str, set[str]]:
    return {name: edges_of(name) for name in modules()}


# --- the front ends call the service, not the core's functions --------------------------


def is_game_core(module: str) -> bool:
    return any(module == f"romme_score.{m}" or module.startswith(f"romme_score.{m}.") for m in GAME_CORE)


def core_functions_used(here: str) -> list[str]:
    """``module.name`` of every function of the game's core that ``here`` imports (a class,
    a constant or a type alias is fine), and every core module it imports whole."""
    found = []
    for node in ast.walk(tree(modules()[here])):
        if isinstance(node, ast.Import):
            found += [a.name for a in node.names if is_game_core(a.name)]
        elif isinstance(node, ast.ImportFrom):
            module = absolute(node, here)
            for alias in node.names:
                if is_game_core(f"{module}.{alias.name}") and f"{module}.{alias.name}" in modules():
                    found.append(f"{module}.{alias.name}")
                    continue
                if not is_game_core(module):
                    continue
                value = getattr(importlib.import_module(module), alias.name, None)
                if callable(value) and not isinstance(value, type):
                    found.append(f"{module}.{alias.name}")
    return sorted(set(found))


def test_the_core_function_scan_sees_a_function_and_passes_a_type(tmp_path: Path) -> None:
    here = "romme_score.views.session"
    source = (
        "from romme_score.scoring import RoundScore, score_round\n"
        "def f():\n    from romme_score import solver\n"
    )
    tree.cache_clear()
    original = modules()[here]
    try:
        planted = tmp_path / "session.py"
        planted.write_text(source, encoding="utf-8")
        modules()[here] = planted
        assert core_functions_used(here) == ["romme_score.scoring.score_round", "romme_score.solver"]
    finally:
        modules()[here] = original
        tree.cache_clear()


@pytest.mark.parametrize("front", FRONT_ENDS)
def test_a_front_end_imports_no_function_of_the_games_core(front: str) -> None:
    found = {
        name: used
        for name in modules()
        if package_part(name) == front and (used := core_functions_used(name))
    }
    assert not found, f"these call the game's core themselves, not through the service: {found}"


# --- the store ------------------------------------------------------------------------------


def test_the_store_imports_nothing_from_the_tournament_or_the_league() -> None:
    found = {}
    for name in modules():
        if package_part(name) != "store":
            continue
        bad = {m for m in edges_of(name) if package_part(m) in ("tournament", "league")}
        # also a TYPE_CHECKING import or one of a module that is not there: by its text
        for node in ast.walk(tree(modules()[name])):
            if isinstance(node, ast.ImportFrom):
                module = absolute(node, name)
                if package_part(module) in ("tournament", "league"):
                    bad.add(module)
            elif isinstance(node, ast.Import):
                bad.update(a.name for a in node.names if package_part(a.name) in ("tournament", "league"))
        if bad:
            found[name] = sorted(bad)
    assert not found, f"the store reaches up into a service's package: {found}"


# --- no circle ----------------------------------------------------------------------------


def test_the_circle_scan_sees_a_circle_through_a_lazy_name() -> None:
    assert resolve("romme_score.sessions", "SessionService") == "romme_score.sessions.service"
    assert find_cycle({"a": {"b"}, "b": {"a"}}) == ["a", "b", "a"]


def test_no_import_circle_counting_function_imports_and_lazy_names() -> None:
    assert find_cycle(graph()) is None


# --- Click ------------------------------------------------------------------------------------


def test_only_the_command_line_and_the_table_mode_import_click() -> None:
    found = []
    for name, path in modules().items():
        if package_part(name) in CLICK_ALLOWED:
            continue
        for node in ast.walk(tree(path)):
            if isinstance(node, ast.Import) and any(a.name.split(".")[0] == "click" for a in node.names):
                found.append(name)
            elif isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "click":
                found.append(name)
    assert not found, f"Click outside the front ends: {sorted(set(found))}"


# --- sentences ----------------------------------------------------------------------------


def strings_outside_docstrings(source: str) -> list[tuple[int, str]]:
    """(line, text) of every string constant but docstrings."""
    module = ast.parse(source)
    docs: set[int] = set()
    for node in ast.walk(module):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                docs.add(id(body[0].value))
    return [
        (n.lineno, n.value)
        for n in ast.walk(module)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in docs
    ]


def test_the_option_scan_sees_a_default_argument_and_a_sentence() -> None:
    source = (
        '"""Mentions --rate in a docstring, which is fine."""\n'
        "def parse_rate(text, what='--rate'):\n"
        "    raise ValueError(_('--first judges melds'))\n"
    )
    assert [line for line, _t in strings_outside_docstrings(source) if OPTION.search(_t)] == [2, 3]


def test_no_sentence_of_the_core_the_store_or_the_services_names_a_command_line_option() -> None:
    found = {}
    for name, path in modules().items():
        if not speaks_facts_only(name):
            continue
        hits = [
            (line, text)
            for line, text in strings_outside_docstrings(path.read_text(encoding="utf-8"))
            if OPTION.search(text)
        ]
        if hits:
            found[name] = hits
    assert not found, f"the core, the store or a service words the command line: {found}"
