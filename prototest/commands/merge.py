"""`prototest merge REPORT.json...`: the shards of one run (`--shard I/N`) joined into one
verdict, with one JSON and one JUnit report, and the exit status the unsharded run has."""

from __future__ import annotations

import signal
from pathlib import Path

import typer

from ..reports import jsonreport, junit, live, merge as merger, summary
from .common import check_output, html_writer, write_fixture_reports
from .exits import EXIT_FAIL, EXIT_PASS, UsageProblem, conclude


def execute(*, reports: list[Path], json_path: Path | None, junit_path: Path | None, quiet: bool,
            html_path: Path | None = None) -> None:
    for option, path in (("--json", json_path), ("--junit", junit_path), ("--html", html_path)):
        if path is not None:
            check_output(option, path)
    try:
        command, data = merger.read(list(reports))
        if command == "check":
            run = merger.check_run(data)
    except merger.MergeError as exc:
        raise UsageProblem(str(exc)) from None
    if command == "check":
        conclude(run, [("--json", json_path, jsonreport.write_json), ("--junit", junit_path, junit.write_junit),
                       ("--html", html_path, html_writer("write_check"))],
                 lambda r: summary.summary(r, findings_first=live.coloured()), quiet, f"after {len(run.games)} of {run.games_total} games")
        return
    merged = merger.fuzz_reports(data) if command == "fuzz" else merger.fixture_reports(command, data)
    errors: list[str] = []
    write_fixture_reports(merged, json_path, junit_path, errors,
                          junit=junit.write_merged_fuzz_junit if command == "fuzz" else None)
    text = summary.merged_summary(command, merged, len(data))
    if html_path is not None:
        _write_html(html_path, f"prototest merge: {len(data)} shards of a {command} run", text, errors)
    typer.echo(text if not quiet else text.splitlines()[-1])
    for line in errors:
        typer.echo(f"prototest: error: {line}", err=True)
    if merged.get("interrupted"):
        raise typer.Exit(128 + _signum(merged["interrupted"]))
    if not merged["passed"]:
        raise typer.Exit(EXIT_FAIL)
    raise typer.Exit(2 if errors else EXIT_PASS)


def _write_html(path: Path, title: str, text: str, errors: list[str]) -> None:
    from ..reports import htmlpage

    try:
        htmlpage.write_text_page(title, text, path)
    except OSError as exc:
        errors.append(f"--html {path}: cannot write: {exc.strerror or exc}")
    else:
        live.page_written(path)


def _signum(name: str) -> int:
    try:
        return int(signal.Signals[name])
    except KeyError:
        return int(signal.SIGINT)
