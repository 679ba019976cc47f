"""How a command ends: the exit status, the last lines, and every problem as one line.

Library code raises domain exceptions (SpecError, ConfigError, PositionError ...); only
the commands turn them into one line on stderr and an exit status: 0 all passed, 1 the
bot failed a check, 2 a usage error (bad spec, bot or option), 3 a bug in prototest,
128 + N a signal N.
"""

from __future__ import annotations

import errno
import os
import signal
import sys

import typer

from . import config as configmod, usage
from ..sandbox import interrupts
from ..reports import live
from ..judge import spec as specmod
from ..sandbox.interrupts import signals

EXIT_PASS, EXIT_FAIL, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 3


class UsageProblem(Exception):
    """A usage error found after parsing: printed as one line, exit status 2."""


def bots_ahead() -> None:
    """Called by a command that starts bots (check, fuzz, record, replay) before its first
    bot and before any worker is forked: prototest becomes the reaper of its bots' orphans
    (see process.become_subreaper), reaped again at the end of run_app. The other commands
    never import the judge's process machinery."""
    from ..sandbox import process

    process.become_subreaper()


def games_begin() -> None:
    """Called by check and match right before their games: what exists now (modules, the
    spec, the rules' tables) lives as long as the command, so it is put out of the cycle
    collector's sight (gc.freeze): each full collection walked all of it, some 3 % of a run
    of instant games, and a forked worker's collection no longer copies its pages."""
    import gc

    gc.freeze()


def conclude(run, writers, summary, quiet: bool, progress: str) -> None:
    """The end of a command that ran a bot: reports written (a write error is kept, not
    raised), the summary, and the exit status: 128 + signal, 2 when no game was chosen and
    the bot seems to play another (a hint), 1 failed, 2 unwritable or a given move not legal
    where it came (each one line on stderr), 0."""
    signals.armed = False  # the verdict is complete: a late signal is ignored
    for option, path, write in writers:
        if path is None:
            continue
        try:
            write(run, path)
        except OSError as exc:
            run.write_errors.append(f"{option} {path}: cannot write: {exc.strerror or exc}")
        else:
            if option == "--html":
                live.page_written(path, quiet)
    text = summary(run)
    if not quiet and live.coloured():  # a terminal: coloured, wrapped at its width
        live.print_text(text)
    else:
        typer.echo(text if not quiet else text.splitlines()[-1])
    usage_errors = getattr(run, "usage_errors", [])  # check: a given move not legal where it came
    for line in [*run.write_errors, *usage_errors]:
        live.say(f"prototest: error: {line}")
    if run.interrupted:
        signals.told = True
        live.say(f"prototest: interrupted ({run.interrupted.name}) {progress}; "
                 f"the bot's processes were killed")
        raise typer.Exit(128 + run.interrupted)
    if getattr(run, "hints", None):  # no game chosen, and the bot plays another: a usage problem
        raise typer.Exit(EXIT_USAGE)
    if run.failed:
        raise typer.Exit(EXIT_FAIL)
    incomplete = getattr(run, "incomplete", False)  # fuzz: no answer judged within the budget
    raise typer.Exit(EXIT_USAGE if run.write_errors or usage_errors or incomplete else EXIT_PASS)


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def fixture_exit(total: str, done: str, failed: int, errors: list[str], interrupted, skipped: int = 0) -> None:
    """The last line and the exit status of record and replay, as check's; `skipped`
    counts the games that were not written (their errors say why)."""
    for line in errors:
        live.say(f"prototest: error: {line}")
    if interrupted is not None:
        signals.told = True
        live.say(f"prototest: interrupted ({interrupted.name}); the bot's processes were killed")
        raise typer.Exit(128 + interrupted)
    if failed:
        typer.echo(f"FAIL: {failed} of {total} failed")
    else:
        typer.echo(f"ERROR: {skipped} of {total} not {done}" if skipped else f"PASS: {total} {done}")
    raise typer.Exit(EXIT_FAIL if failed else EXIT_USAGE if errors else EXIT_PASS)


def run_app(app: typer.Typer, argv: list[str] | None = None) -> None:
    """Parse and run a command of `app`, and turn every problem into one line and an
    exit status (sys.exit)."""
    signals.install()
    try:
        command = typer.main.get_command(app)
        code = command.main(args=argv, prog_name="prototest", standalone_mode=False)
    except typer.TyperException as exc:  # usage errors from option parsing
        ctx = getattr(exc, "ctx", None)
        if type(exc).__name__ == "NoArgsIsHelpError" and ctx is not None:
            typer.echo(ctx.get_help(), err=True)
        else:
            live.say(f"prototest: error: {exc.format_message()}{_option_hint(exc, argv)}")
        code = EXIT_USAGE
    except typer.Abort:
        typer.echo("prototest: aborted", err=True)
        code = 130
    except (UsageProblem, specmod.SpecError, configmod.ConfigError) as exc:
        live.say(f"prototest: error: {exc}")
        code = EXIT_USAGE
    except KeyboardInterrupt as exc:
        code = 128 + getattr(exc, "signum", signal.SIGINT)
    except SystemExit as exc:  # typer's answer to a closed stdout pipe (EPIPE)
        code = 128 + signal.SIGPIPE if exc.code == 1 else exc.code
    except OSError as exc:
        if exc.errno == errno.EPIPE:  # the reader went away (| head): nothing more to say
            code = 128 + signal.SIGPIPE
            _drop_stdout()
        elif exc.errno in (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EBADF):
            _drop_stdout()
            _say(f"prototest: error: cannot write the output: {exc.strerror}")
            code = EXIT_USAGE
        else:
            code = _internal(exc)
    except Exception as exc:
        code = _internal(exc)
    if signals.first is not None and not signals.told:  # typer makes Ctrl-C a silent 130
        code = 128 + signals.first
        _say(f"prototest: interrupted ({interrupts.signal_name(signals.first)})")
    process = sys.modules.get("prototest.sandbox.process")  # imported when a bot may have run
    if process is not None:
        process.keeper.close_hosts()
        process.reap_orphans(0.2)
    try:
        sys.stdout.flush()
    except OSError:  # what typer could not write is lost; do not fail again at exit
        _drop_stdout()
    signals.ignore_all()  # all is said: do not die now
    sys.exit(code if isinstance(code, int) else 0)


def _option_hint(exc: Exception, argv: list[str] | None) -> str:
    """An unknown option that follows the bot's program (`java -cp DIR P`) belongs to the
    bot's command: say to put the command after --."""
    ctx = getattr(exc, "ctx", None)
    if not getattr(exc, "option_name", None) or ctx is None or ctx.command.name != "check":
        return ""
    args = list(sys.argv[1:] if argv is None else argv)
    if "check" not in args:
        return ""
    return usage.option_hint(ctx.command.params, args[args.index("check") + 1:])


def _drop_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush cannot fail again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _internal(exc: Exception) -> int:
    """A bug in prototest itself: one line, unless debugging."""
    if os.environ.get("PROTOTEST_DEBUG"):
        raise exc
    _say(f"prototest: internal error: {type(exc).__name__}: {exc} (set PROTOTEST_DEBUG=1 for the traceback)")
    return EXIT_INTERNAL


def _say(line: str) -> None:
    """One line on stderr, if stderr can still be written."""
    try:
        typer.echo(line, err=True)
    except OSError:
        pass
