"""`prototest merge REPORT.json...`: the shards of one run (`--shard I/N`) joined into one
verdict, with one JSON and one JUnit report, and the exit status the unsharded run has."""

from __future__ import annotations

import signal
from pathlib import Path

import typer

from ..reports import jsonreport, junit, live, merge as merger, pgn, summary
from .common import check_output, html_writer, write_fixture_reports
from .exits import EXIT_FAIL, EXIT_PASS, UsageProblem, conclude


def execute(*, reports: list[Path], json_path: Path | None, junit_path: Path | None, quiet: bool,
            html_path: Path | None = None, pgn_path: Path | None = None) -> None:
    for option, path in (("--json", json_path), ("--junit", junit_path), ("--html", html_path), ("--pgn", pgn_path)):
        if path is not None:
            check_output(option, path)
    try:
        command, data = merger.read(list(reports))
        if command == "check":
            run = merger.check_run(data)
        elif command == "match":
            from ..reports import matchmerge

            match_run = matchmerge.match_run(data)
    except merger.MergeError as exc:
        raise UsageProblem(str(exc)) from None
    if pgn_path is not None and (command != "match" or match_run.spec.game.rules != "chess"):
        raise UsageProblem("--pgn: PGN records a chess match's games; these are not a chess match's shards")
    if command == "match":
        conclude(match_run, [("--json", json_path, jsonreport.write_match_json),
                             ("--junit", junit_path, junit.write_match_junit), ("--pgn", pgn_path, pgn.write_pgn),
                             ("--html", html_path, html_writer("write_match"))],
                 summary.match_summary, quiet, f"after {len(match_run.games)} of {match_run.games_total} games")
        return
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
