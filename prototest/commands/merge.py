"""`prototest merge REPORT.json...`: the shards of one run (`--shard I/N`) joined into one
verdict, with one JSON and one JUnit report, and the exit status the unsharded run has."""

from __future__ import annotations

from pathlib import Path

import typer

from .. import merge as merger, report
from .common import check_output
from .exits import EXIT_FAIL, EXIT_PASS, UsageProblem, conclude


def execute(*, reports: list[Path], json_path: Path | None, junit_path: Path | None, quiet: bool) -> None:
    for option, path in (("--json", json_path), ("--junit", junit_path)):
        if path is not None:
            check_output(option, path)
    try:
        command, data = merger.read(list(reports))
        if command == "check":
            run = merger.check_run(data)
    except merger.MergeError as exc:
        raise UsageProblem(str(exc)) from None
    if command == "check":
        conclude(run, [("--json", json_path, report.write_json), ("--junit", junit_path, report.write_junit)],
                 report.summary, quiet, f"after {len(run.games)} of {run.games_total} games")
        return
    merged = merger.fuzz_reports(data) if command == "fuzz" else merger.fixture_reports(command, data)
    writers = [("--json", json_path, report.write_data_json),
               ("--junit", junit_path, report.write_merged_fuzz_junit if command == "fuzz"
                else report.write_fixture_junit)]
    errors = []
    for option, path, write in writers:
        if path is None:
            continue
        try:
            write(merged, path)
        except OSError as exc:
            errors.append(f"{option} {path}: cannot write: {exc.strerror or exc}")
    text = report.merged_summary(command, merged, len(data))
    typer.echo(text if not quiet else text.splitlines()[-1])
    for line in errors:
        typer.echo(f"prototest: error: {line}", err=True)
    if merged.get("interrupted"):
        raise typer.Exit(128 + _signum(merged["interrupted"]))
    if not merged["passed"]:
        raise typer.Exit(EXIT_FAIL)
    raise typer.Exit(2 if errors else EXIT_PASS)


def _signum(name: str) -> int:
    import signal
    try:
        return int(signal.Signals[name])
    except KeyError:
        return int(signal.SIGINT)
