"""The shape of the package (STYLE.md "a pure core, thin edges"): no import circle, a core
that knows nothing of Click, SQLite, the store or the views, commands that do not import
each other, and a ``romme check`` that loads none of the session machinery."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from romme_score.cli import COMMANDS, main

PACKAGE = Path(__file__).resolve().parent.parent / "romme_score"
CORE = ("cards", "rules", "melds", "layoff", "scoring", "settlement", "solver")
FORBIDDEN_IN_CORE = (
    "click",
    "sqlite3",
    "tabulate",
    "romme_score.store",
    "romme_score.views",
    "romme_score.cli",
    "romme_score.sessions",
)


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports_of(path: Path) -> set[str]:
    """Every module a file imports, wherever in the file (function-local imports too)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            # "from romme_score import referee" imports the module romme_score.referee
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def internal_graph() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {}
    for name, path in known.items():
        edges = {m for m in imports_of(path) if m in known and m != name}
        graph[name] = edges
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle in the graph as a list of modules, or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return stack[stack.index(nxt) :] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_find_cycle_sees_a_circle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": set()}) is None


def test_no_import_circle_in_the_package() -> None:
    assert find_cycle(internal_graph()) is None


@pytest.mark.parametrize("core", CORE)
def test_core_module_imports_no_edge(core: str) -> None:
    names = [n for n in modules() if n == f"romme_score.{core}" or n.startswith(f"romme_score.{core}.")]
    assert names, f"no module romme_score.{core}"
    for name in names:
        bad = {
            m
            for m in imports_of(modules()[name])
            if any(m == f or m.startswith(f + ".") for f in FORBIDDEN_IN_CORE)
        }
        assert not bad, f"{name} imports {sorted(bad)}"


def test_no_command_module_imports_another() -> None:
    commands = {f"romme_score.cli.{target.split(':')[0]}" for target in COMMANDS.values()}
    graph = internal_graph()
    for name in commands:
        assert not (graph[name] & (commands - {name})), f"{name} imports {graph[name] & commands}"


def test_every_lazy_command_loads_and_has_help_with_an_example() -> None:
    ctx = main.make_context("romme", ["--help"], resilient_parsing=True)
    for name in COMMANDS:
        command = main.get_command(ctx, name)
        assert command is not None and command.name == name
        assert command.help and "romme " + name in command.help


def test_check_loads_no_session_machinery() -> None:
    code = (
        "import sys\n"
        "from romme_score.cli import main\n"
        "try:\n"
        "    main(['check', 'HK KK PK'], standalone_mode=False)\n"
        "finally:\n"
        "    print(' '.join(sorted(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(result.stdout.split())
    assert "romme_score.referee" in loaded  # the probe does see what check loads
    for heavy in (
        "sqlite3",
        "tabulate",
        "decimal",
        "romme_score.store",
        "romme_score.sessions",
        "romme_score.solver",
        "romme_score.scoring",
        "romme_score.cli.session",
        "prompt_toolkit",
        "platformdirs",
        "romme_score.table",
        "romme_score.layoff",
    ):
        assert heavy not in loaded, f"romme check imports {heavy}"
