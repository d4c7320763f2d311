"""Every dependency pyproject.toml names is imported where it is needed, and nothing is
named that no module uses (issue 38 item 20: sse-starlette stayed in the ``[serve]`` extra
long after the last stream stopped using it). The runtime dependencies and the extras that
romme installs for a user (``postgres``, ``serve``) are imported by some module of
romme_score; the benchmarks' extra by a benchmark; the test extra by a test or a tool, or
it is a command that the Makefile or the pre-commit configuration runs."""

from __future__ import annotations

import ast
import functools
import re
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]

# A distribution whose import name is not its name with "_" for "-".
IMPORT_NAMES = {"open-spiel": "pyspiel", "pytest-xdist": "xdist"}
# The test extra's tools run as commands, never imported: where each is run.
COMMANDS = {
    "pytest-xdist": ("Makefile", "pytest -n"),
    "pre-commit": (".pre-commit-config.yaml", "repos:"),
    "ruff": ("Makefile", "ruff check"),
    "mypy": ("Makefile", "mypy --strict"),
}
# A benchmark's dependency that another one uses, never imported itself: where it is named.
INDIRECT = {"highspy": ("benchmarks/solver.py", "HiGHS")}  # rummikub-solver's MILP solver


def distribution(requirement: str) -> str:
    """``psycopg[binary]>=3.2`` -> ``psycopg``."""
    found = re.match(r"[A-Za-z0-9][A-Za-z0-9._-]*", requirement)
    assert found is not None, requirement
    return found.group(0).lower()


def import_name(dist: str) -> str:
    return IMPORT_NAMES.get(dist, dist.replace("-", "_").replace(".", "_"))


@functools.cache
def imported_by(*folders: str) -> set[str]:
    """The top-level names of every module imported by a Python file under ``folders``."""
    names: set[str] = set()
    for folder in folders:
        for path in (ROOT / folder).rglob("*.py"):
            if "node_modules" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    names.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    names.add(node.module.split(".")[0])
    return names


def requirements(*groups: str) -> list[str]:
    found: list[str] = []
    for group in groups:
        listed = PROJECT["dependencies"] if group == "runtime" else PROJECT["optional-dependencies"][group]
        found += [distribution(r) for r in listed]
    return found


def test_every_extra_is_one_this_test_knows_issue_38_item_20() -> None:
    assert set(PROJECT["optional-dependencies"]) == {"postgres", "test", "serve", "bench"}


@pytest.mark.parametrize("dist", requirements("runtime", "postgres", "serve"))
def test_each_runtime_and_user_extra_dependency_is_imported_by_romme_issue_38_item_20(
    dist: str,
) -> None:
    assert import_name(dist) in imported_by("romme_score"), f"{dist} is a dependency no module imports"


@pytest.mark.parametrize("dist", requirements("bench"))
def test_each_benchmark_dependency_is_imported_by_a_benchmark_issue_38_item_20(dist: str) -> None:
    if dist in INDIRECT:
        where, words = INDIRECT[dist]
        assert words in (ROOT / where).read_text(encoding="utf-8")
        return
    assert import_name(dist) in imported_by("benchmarks")


@pytest.mark.parametrize("dist", requirements("test"))
def test_each_test_dependency_is_imported_by_a_test_or_run_as_a_command_issue_38_item_20(dist: str) -> None:
    if dist.startswith("types-"):  # type information for mypy: the package it describes is imported
        assert import_name(dist.removeprefix("types-")) in imported_by("romme_score", "tests", "tools")
    elif dist in COMMANDS:
        where, words = COMMANDS[dist]
        assert words in (ROOT / where).read_text(encoding="utf-8")
    else:
        assert import_name(dist) in imported_by("tests", "tools")


def test_sse_starlette_is_no_dependency_issue_38_item_20() -> None:
    """No event stream of romme serve uses sse-starlette any more: it is named nowhere a
    user installs it from (the extras, the README's and the docs' install lines)."""
    everything = requirements("runtime", *PROJECT["optional-dependencies"])
    assert "sse-starlette" not in everything
    assert "sse_starlette" not in imported_by("romme_score")
    for doc in (ROOT / "README.md", *(ROOT / "docs").glob("*.md")):
        assert "sse-starlette" not in doc.read_text(encoding="utf-8"), doc.name
