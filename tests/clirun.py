"""Running ``romme`` in-process for the tests: one helper, shared by the test files."""

from __future__ import annotations

from click.testing import CliRunner

from romme_score.cli import main


def run(*args: str, input: str | None = None, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """Exit code, standard output and standard error; an exception that is not an exit fails."""
    result = CliRunner().invoke(main, list(args), input=input, env=env)
    if result.exception and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def ok(*args: str, input: str | None = None) -> str:
    """Standard output of a command that must succeed."""
    code, out, err = run(*args, input=input)
    assert code == 0, err
    return out
