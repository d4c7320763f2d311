"""The shape of the package (STYLE.md "a pure core, thin edges"): no import circle, a core
that knows nothing of Click, SQLite, the store or the views, commands that do not import
each other, and a ``romme check`` that loads none of the session machinery."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from romme_score.cli import COMMANDS, main

PACKAGE = Path(__file__).resolve().parent.parent / "romme_score"
CORE = (
    "cards",
    "rules",
    "melds",
    "layoff",
    "scoring",
    "settlement",
    "solver",
    "options",
    "tournament.rules",
    "tournament.options",
    "league.rules",
    "league.options",
)
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
        "romme_score.web",
        "starlette",
        "uvicorn",
        "segno",
        "anyio",
    ):
        assert heavy not in loaded, f"romme check imports {heavy}"


# --- start-up of romme check (issue 20 item 31) ---------------------------------------

# What romme check no longer loads, beyond what `python -c 'import click'` loads: each cost
# its start-up (1.52x import click in instructions before, 1.19x after; benchmarks/startup.py).
# locale: click.version_option's gettext call at import; struct: the catalogs' whole-file
# parsing; pathlib (and with it fnmatch, ntpath, urllib.parse, ipaddress): os.path where no
# file is. (dataclasses is no longer among them: the value types are dataclasses again, issue
# 38 item 19, within the goal of 1.5x import click.)
CHECK_STARTUP_FORBIDDEN = (
    "locale",
    "struct",
    "pathlib",
    "fnmatch",
    "ntpath",
    "urllib",
    "ipaddress",
)


def modules_loaded(code: str, tmp_path: Path) -> set[str]:
    """Every module loaded by ``code``, run as an installed romme runs: without the site
    module (whose editable-install hook loads pathlib before any program starts), Click and
    romme_score found on the path, no ROMME_DB, a data directory of its own."""
    env = {k: v for k, v in os.environ.items() if k not in ("ROMME_DB", "PYTHONPATH")}
    env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE.parent), sysconfig.get_paths()["purelib"]])
    env["XDG_DATA_HOME"] = str(tmp_path)
    code += "\nimport sys\nprint()\nprint(' '.join(sorted(sys.modules)))\n"
    result = subprocess.run([sys.executable, "-S", "-c", code], capture_output=True, text=True, env=env)
    assert result.returncode in (0, 1), result.stderr
    return set(result.stdout.splitlines()[-1].split())  # the last line: after what check printed


def modules_loaded_by_check(args: list[str], tmp_path: Path, plant: str = "") -> set[str]:
    """What a ``romme check`` run loads beyond ``import click`` (``plant``: code run before it)."""
    run = f"{plant}\nfrom romme_score.cli import main\nmain({args!r}, standalone_mode=False)"
    return modules_loaded(run, tmp_path) - modules_loaded("import click", tmp_path)


def forbidden_at_check_startup(loaded: set[str]) -> list[str]:
    return [m for m in CHECK_STARTUP_FORBIDDEN if m in loaded or any(n.startswith(m + ".") for n in loaded)]


def test_the_startup_check_sees_a_planted_import(tmp_path: Path) -> None:
    loaded = modules_loaded_by_check(["check", "HK KK PK"], tmp_path, plant="import pathlib")
    assert forbidden_at_check_startup(loaded) == ["pathlib", "fnmatch", "ntpath", "urllib", "ipaddress"]


@pytest.mark.parametrize("lang", ["en", "de"])
def test_check_starts_without_the_modules_taken_off_its_path(lang: str, tmp_path: Path) -> None:
    loaded = modules_loaded_by_check(["check", "--lang", lang, "HK KK PK", "♥2 ♥3 J"], tmp_path)
    assert "romme_score.referee" in loaded and "romme_score.melds" in loaded
    assert forbidden_at_check_startup(loaded) == []


@pytest.mark.parametrize(
    "xdg", ["/tmp/x", "/tmp/x/", "/tmp//x", "//x", "/", ".", "./rel", "rel", "/a/./b", "/a/../b", " /tmp/y "]
)
def test_the_default_database_is_where_pathlib_puts_it(xdg: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """romme_score.paths writes the default location with os.path where that is what pathlib
    writes (romme check's start-up), else asks pathlib."""
    from romme_score.paths import DATABASE_FILE, data_dir, default_location

    monkeypatch.delenv("ROMME_DB", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", xdg)
    assert default_location() == str(data_dir() / DATABASE_FILE)


# --- packages (issue 18 item 6): front ends use the service, the views and the core ------

# Front ends never import each other's packages (the command line may start the others).
FRONT_ENDS_MAY_NOT_IMPORT = {
    "romme_score.table": ("romme_score.cli", "romme_score.web"),
    "romme_score.web": ("romme_score.cli", "romme_score.table"),
}
WEB_STACK = ("starlette", "uvicorn", "segno", "anyio")


# A package whose modules sit in two layers counts module by module: romme_score.tournament
# holds the core of §10 (rules, options: the store reads the options) and the service above
# the store. Its __init__ imports its modules only when a name is asked for (tested below).
# So does romme_score.league: rules and options (the store reads the options), the service.
LAYERED_PACKAGES = ("romme_score.tournament", "romme_score.league")


def package_of(module: str) -> str:
    """``romme_score.table.app`` -> ``romme_score.table``; a top-level module is its own,
    and so is each module of a package in :data:`LAYERED_PACKAGES`."""
    if any(module.startswith(p + ".") for p in LAYERED_PACKAGES):
        return module
    return ".".join(module.split(".")[:2])


def package_graph(graph: dict[str, set[str]]) -> dict[str, set[str]]:
    packages: dict[str, set[str]] = {}
    for name, edges in graph.items():
        here = package_of(name)
        packages.setdefault(here, set()).update(package_of(e) for e in edges if package_of(e) != here)
    return packages


def forbidden_imports(graph: dict[str, set[str]]) -> list[tuple[str, str]]:
    """(module, what it imports) for every import a front end may not make."""
    found = []
    for name, edges in graph.items():
        for package, banned in FRONT_ENDS_MAY_NOT_IMPORT.items():
            if package_of(name) == package:
                found += [
                    (name, e) for e in sorted(edges) if any(e == b or e.startswith(b + ".") for b in banned)
                ]
    return found


def test_the_package_checks_see_a_table_module_importing_the_command_line() -> None:
    graph = {
        "romme_score.table.app": {"romme_score.cli.options"},
        "romme_score.cli.play": {"romme_score.table.app"},
    }
    assert forbidden_imports(graph) == [("romme_score.table.app", "romme_score.cli.options")]
    assert find_cycle(package_graph(graph)) == ["romme_score.cli", "romme_score.table", "romme_score.cli"]


def test_the_table_mode_imports_nothing_from_the_command_line() -> None:
    assert forbidden_imports(internal_graph()) == []


def test_the_web_stack_is_imported_by_the_web_package_alone() -> None:
    """The extra [serve] is optional: only romme_score.web (started by romme serve) needs it."""
    for name, path in modules().items():
        if package_of(name) == "romme_score.web":
            continue
        bad = {m for m in imports_of(path) if m.split(".")[0] in WEB_STACK}
        assert not bad, f"{name} imports {sorted(bad)}"


def test_no_import_circle_between_packages() -> None:
    assert find_cycle(package_graph(internal_graph())) is None


# --- messages of the core, the store and the service (issue 18 item 2) ---------------------

# Modules whose errors carry facts only: no command-line option, no `romme ...` command line.
# Each front end adds its own way out (romme_score/cli/hints.py for the command line).
FACT_MODULES = (
    "cards",
    "rules",
    "melds",
    "layoff",
    "scoring",
    "settlement",
    "options",
    "tournament",
    "league",
    "inputs",
    "sessions",
    "export",
    "history",
    "store",
    "solver",
)
COMMAND_LINE_WORDS = re.compile(r"(?<![\w-])--[a-z][a-z-]+|\bromme (?:" + "|".join(COMMANDS) + r")\b")


def messages_of(source: str) -> list[tuple[int, str]]:
    """(line, text) of every message a module words: the first argument of ``_``/``N_``,
    both of ``ngettext``, and every string given to an exception it raises."""
    found: list[tuple[int, str]] = []

    def strings(node: ast.AST) -> list[str]:
        return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]

    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            if node.func.id in ("_", "N_") and node.args:
                found += [(node.lineno, s) for s in strings(node.args[0])]
            elif node.func.id == "ngettext":
                found += [(node.lineno, s) for a in node.args[:2] for s in strings(a)]
        elif isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            found += [(node.lineno, s) for a in node.exc.args for s in strings(a)]
    return found


def command_line_words(source: str) -> list[tuple[int, str]]:
    return sorted({(line, text) for line, text in messages_of(source) if COMMAND_LINE_WORDS.search(text)})


def test_the_message_scan_sees_an_option_name_and_a_command_line() -> None:
    source = (
        "def f():\n"
        "    raise StoreError(_('%(path)s is not ours: give another file with --db'))\n"
        "def g():\n"
        "    raise RoundError('start one with romme new')\n"
        "def h():\n"
        "    return _('a stalemate round has no winner'), '--db', f'x{1}'\n"
    )
    assert [line for line, _text in command_line_words(source)] == [2, 4]


@pytest.mark.parametrize("core", FACT_MODULES)
def test_no_option_or_command_line_in_a_message_of_the_core_the_store_or_the_service(core: str) -> None:
    names = [n for n in modules() if n == f"romme_score.{core}" or n.startswith(f"romme_score.{core}.")]
    assert names, f"no module romme_score.{core}"
    for name in names:
        found = command_line_words(modules()[name].read_text(encoding="utf-8"))
        assert not found, f"{name} words the command line: {found}"


# --- what a module shares is public (issue 27 item 4) ---------------------------------


def is_private(name: str) -> bool:
    """``_check_value`` is private; ``__name__`` is not, nor ``_`` (gettext's, by convention)."""
    return name.startswith("_") and not name.startswith("__") and name != "_"


def dotted(node: ast.expr) -> str | None:
    """``a.b.c`` of an expression of names and attributes, else None."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    return ".".join([node.id, *reversed(parts)])


def private_uses(source: str, here: str, known: set[str]) -> list[tuple[int, str]]:
    """(line, module.name) for every private name of another romme_score module that the
    module ``here`` takes: ``from X import _name``, and ``X._name`` of a module ``X`` it
    imported (``import romme_score.rules as rules``, ``from romme_score import melds``)."""
    found: list[tuple[int, str]] = []
    bound: dict[str, str] = {}  # a local name -> the module it is
    tree = ast.parse(source)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            package = here.rsplit(".", node.level)[0] if node.level else ""
            module = ".".join(p for p in (package, node.module or "") if p)
            if not module.startswith("romme_score"):
                continue
            for alias in node.names:
                if is_private(alias.name) and module != here:
                    found.append((node.lineno, f"{module}.{alias.name}"))
                if f"{module}.{alias.name}" in known:
                    bound[alias.asname or alias.name] = f"{module}.{alias.name}"
        elif isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("romme_score"):
                    local = alias.asname or alias.name.split(".")[0]
                    bound[local] = alias.name if alias.asname else local
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and is_private(node.attr):
            path = dotted(node.value)
            if path is None:
                continue
            first, _sep, rest = path.partition(".")
            if first not in bound:
                continue
            module = ".".join(p for p in (bound[first], rest) if p)
            if module in known and module != here:
                found.append((node.lineno, f"{module}.{node.attr}"))
    return sorted(found)


def test_the_private_scan_sees_a_planted_import_and_attribute() -> None:
    known = {
        "romme_score",
        "romme_score.rules",
        "romme_score.melds",
        "romme_score.inputs",
        "romme_score.i18n",
    }
    source = (
        "import romme_score.rules as rules\n"
        "import romme_score.melds\n"
        "from romme_score import melds\n"
        "from romme_score.inputs import _digits, parse_int\n"
        "from romme_score.i18n import _\n"
        "def f(x):\n"
        "    return rules._check_value, melds.__name__, melds.run_slot, romme_score.melds._run_slot\n"
        "def g(x):\n"
        "    return x._private, _own(), rules.RuleSet._fields\n"
    )
    assert private_uses(source, "romme_score.table.app", known) == [
        (4, "romme_score.inputs._digits"),
        (7, "romme_score.melds._run_slot"),
        (7, "romme_score.rules._check_value"),
    ]
    assert private_uses("from romme_score.rules import _closest\n", "romme_score.rules", known) == []


def test_no_module_takes_another_modules_private_names() -> None:
    known = set(modules())
    found = {
        name: uses
        for name, path in modules().items()
        if (uses := private_uses(path.read_text(encoding="utf-8"), name, known))
    }
    assert found == {}


# --- front ends reach the database through a service, never its store (issue 27 item 4) ---

FRONT_END_PACKAGES = ("romme_score.cli", "romme_score.table", "romme_score.web")
STORE_ALLOWED: set[tuple[str, str]] = set()  # none: every front end asks a service


def store_uses(source: str) -> list[tuple[int, str]]:
    """(line, the line's text) of every ``X.store`` a module reads (``romme_score.store``, the
    package, is not a service's store)."""
    lines = source.splitlines()
    found = {
        (node.lineno, lines[node.lineno - 1].strip())
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr == "store" and dotted(node.value) != "romme_score"
    }
    return sorted(found)


def test_the_store_scan_sees_a_planted_reach_into_the_store() -> None:
    source = (
        "import romme_score.store\n"
        "from romme_score.store import open_store\n"
        "def f(service, call):\n"
        "    romme_score.store.open_store(None)\n"
        "    return service.store.tournament_tables(None), call.service.store\n"
    )
    assert store_uses(source) == [(5, "return service.store.tournament_tables(None), call.service.store")]


def test_no_front_end_reaches_into_a_services_store() -> None:
    found = [
        (name, text)
        for name, path in modules().items()
        if package_of(name) in FRONT_END_PACKAGES
        for _line, text in store_uses(path.read_text(encoding="utf-8"))
        if (name, text) not in STORE_ALLOWED
    ]
    assert found == []


# --- the package romme_score.tournament -----------------------------------------------


def test_the_three_old_tournament_modules_are_gone() -> None:
    """Tournaments are one package (issue 27 item 4): no module by the old names is left."""
    for old in ("tournament.py", "tournament_options.py", "tournaments.py"):
        assert not (PACKAGE / old).exists(), old


def test_the_tournament_package_hands_out_each_name_of_its_modules() -> None:
    import importlib

    import romme_score.tournament as package

    tree = ast.parse((PACKAGE / "tournament" / "__init__.py").read_text(encoding="utf-8"))
    typed = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith(package.__name__)
        for alias in node.names
    }
    exported = {(f"{package.__name__}.{m}", name) for m, names in package.EXPORTS.items() for name in names}
    assert typed == exported
    for module, name in exported:
        assert getattr(package, name) is getattr(importlib.import_module(module), name)
    with pytest.raises(AttributeError):
        package.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_the_tournament_options_load_neither_the_rules_of_the_draw_nor_the_service() -> None:
    """The store reads the options at every command: their package's __init__ imports its
    modules only when a name is asked for."""
    code = "import sys, romme_score.tournament.options\nprint(' '.join(sorted(sys.modules)))\n"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(result.stdout.split())
    assert "romme_score.tournament.options" in loaded
    for heavy in ("romme_score.tournament.rules", "romme_score.tournament.service", "romme_score.sessions"):
        assert heavy not in loaded


# --- the package romme_score.sessions -------------------------------------------------


def test_the_session_service_is_a_package_of_modules_around_its_ideas() -> None:
    """sessions.py (1,187 lines) became a package (STYLE.md: split a module past a few
    hundred lines around two ideas); no module of it is that long again."""
    assert not (PACKAGE / "sessions.py").exists()
    lengths = {
        p.name: len(p.read_text(encoding="utf-8").splitlines()) for p in (PACKAGE / "sessions").glob("*.py")
    }
    assert {"base.py", "hands.py", "reads.py", "rounds.py", "service.py", "transfer.py"} <= set(lengths)
    assert max(lengths.values()) < 400, lengths


def test_the_sessions_package_hands_out_each_name_of_its_modules() -> None:
    """``from romme_score.sessions import X`` works for every name it had as one module:
    the names typed for the type checkers are the names handed out, each the very object
    of the module that defines it."""
    import importlib

    import romme_score.sessions as package

    tree = ast.parse((PACKAGE / "sessions" / "__init__.py").read_text(encoding="utf-8"))
    typed = {
        (node.module, alias.name)
        for node in ast.walk(tree)
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("romme_score.")
        for alias in node.names
    }
    exported = {(module, name) for module, names in package.EXPORTS.items() for name in names}
    assert typed == exported
    for module, name in exported:
        assert getattr(package, name) is getattr(importlib.import_module(module), name)
    with pytest.raises(AttributeError):
        package.no_such_name  # type: ignore[attr-defined]  # noqa: B018


def test_the_session_service_loads_neither_the_export_nor_its_import() -> None:
    """Start-up (issue 28 item 3): every command that opens the service loads its parts,
    never the export and import of a whole session, which export and import load alone."""
    code = (
        "import sys\nfrom romme_score.sessions import SessionService, Standings, check_hand\n"
        "print(' '.join(sorted(sys.modules)))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    loaded = set(result.stdout.split())
    assert {"romme_score.sessions.service", "romme_score.sessions.rounds"} <= loaded  # the probe sees
    for heavy in ("romme_score.export", "romme_score.sessions.transfer", "romme_score.settlement"):
        assert heavy not in loaded
