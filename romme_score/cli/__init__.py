"""The ``romme`` command line: one Click group whose commands are loaded lazily.

Each command lives in its own module under :mod:`romme_score.cli` and is
imported only when it runs (Click's documented lazy-group pattern), so that
``romme check`` never pays for SQLite, tabulate or the solver. A command
parses its arguments, calls the core or the session service, and hands the
result to a view (:mod:`romme_score.views`).
"""

from __future__ import annotations

import importlib
from typing import Any

import click

from romme_score.cli.options import InputError, Refused
from romme_score.errors import InputProblem, Refusal

INTERNAL_ERROR = 70  # EX_SOFTWARE: a bug of ours, never the user's input

# command name -> "module:attribute", relative to this package
COMMANDS = {
    "check": "check:check",
    "value": "value:value",
    "best": "best:best",
    "rules": "rules:rules",
    "settle": "settle:settle",
    "new": "session:new",
    "round": "session:round_",
    "undo": "session:undo",
    "edit": "session:edit",
    "standings": "session:standings",
    "sessions": "session:sessions",
    "use": "session:use",
    "export": "session:export",
    "import": "session:import_",
    "note": "session:note",
    "chart": "chart:chart",
    "stats": "stats:stats",
    "report": "report:report",
    "play": "play:play",
}


class LazyGroup(click.Group):
    """A group that imports a command's module only when that command is used."""

    def __init__(self, *args: object, lazy_subcommands: dict[str, str] | None = None,
                 **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.lazy_subcommands = lazy_subcommands or {}

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *self.lazy_subcommands])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy_subcommands:
            module_name, attr = self.lazy_subcommands[cmd_name].split(":")
            module = importlib.import_module(f"{__name__}.{module_name}")
            command = getattr(module, attr)
            if not isinstance(command, click.Command):
                raise TypeError(f"{module_name}:{attr} is not a Click command")
            return command
        return super().get_command(ctx, cmd_name)

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; every error becomes one sentence, never a traceback."""
        try:
            return super().invoke(ctx)
        except InputProblem as exc:
            raise InputError(str(exc)) from None
        except Refusal as exc:
            raise Refused(str(exc)) from None
        except (click.ClickException, click.exceptions.Exit, click.Abort):
            raise
        except RecursionError:
            raise InputError("the input is nested too deeply to be read") from None
        except MemoryError:
            raise Refused("this needs more memory than the machine has") from None
        except Exception as exc:  # the last resort: a bug, said in one line
            click.echo(f"internal error: {type(exc).__name__}: {exc} — please report it",
                       err=True)
            ctx.exit(INTERNAL_ERROR)


@click.group(cls=LazyGroup, lazy_subcommands=COMMANDS,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="romme-score")
def main() -> None:
    """romme-score: scorekeeper and referee for Rommé played with real cards.

    \b
    Examples:
      romme check "HK KK PK" "T9 T10 TB"      is this a legal meld? what is it worth?
      romme value "HK K10 J"                 penalty points left in a hand
      romme new Friday Anna Ben Carl Dora    start keeping score
      romme settle A=220 B=360 C=140 D=490 --rate 0.001
    """
