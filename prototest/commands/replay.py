"""`prototest replay`: play the judge's side of each fixture against the bot and report
the first difference."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import typer

from ..reports import figures, live, summary
from ..reports.text import resources_line
from ..play import pool, replay as replayer
from ..sandbox import process
from ..sandbox.interrupts import signals
from ..play.runner import timing_bound
from .common import (check_output, check_time_scale, fixtures_report, in_shard, load_fixtures, parse_env,
                     parse_shard, write_fixture_reports)
from .exits import UsageProblem, bots_ahead, fixture_exit, plural


def execute(*, args: list[str], time_scale: float | None, env_pairs: list[str], transcripts: Path | None,
            exact_lines: bool, quiet: bool, typed: list[str], jobs: int | None = None, shard: str | None = None,
            json_path: Path | None = None, junit_path: Path | None = None, bot_letter: str | None = None,
            seat: str | None = None, html_path: Path | None = None) -> None:
    """Play the judge's side of each fixture against the bot; report the first difference.
    A match game's transcript is played again against the bot `bot_letter` or `seat` names,
    the other bot's moves taken from the record (see prototest.play.matchgame)."""
    bots_ahead()
    paths, bot = _after_dashes(list(args or []), typed, "replay")
    if not paths:
        raise UsageProblem("replay: give the fixtures to replay (files or folders, or a match game's transcript "
                           "with --bot), and after -- a bot if not the one each fixture names")
    if time_scale is not None:
        check_time_scale(time_scale)
    part = parse_shard(shard)
    for option, path in (("--json", json_path), ("--junit", junit_path), ("--html", html_path)):
        if path is not None:
            check_output(option, path)
    env = process.controlled_env(parse_env(env_pairs))
    pairs = load_fixtures([Path(p) for p in paths], env, time_scale, argv=bot, matches=True, bot=bot_letter,
                          seat=seat)
    folder = transcripts or Path("prototest-transcripts") / f"replay-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    check_output("--transcripts", folder, folder=True)
    mine = [(number, fixture, setup) for number, (fixture, setup) in enumerate(pairs, 1)
            if in_shard(number - 1, part)]
    jobs = jobs or pool.default_jobs()
    errors: list[str] = []
    entries: dict[int, dict] = {}
    shown: dict[int, tuple] = {}  # number -> (the result, its lines as printed): for --html
    interrupted = None

    def done(position: int, result, first) -> bool:
        nonlocal interrupted
        number = mine[position][0]
        if result.status == "interrupted":
            interrupted = signal.Signals(result.report.interrupted)
            return True
        note = "" if first is None else (f"re-checked alone: a timing finding while {jobs} replays ran at once; "
                                         f"this is the replay played alone")
        kept = _keep_replay(result, folder, number, transcripts is not None, errors)
        entries[number] = _entry(number, result, kept, note)
        shown[number] = (result, _replay_lines(result, kept) + (f"\n  {note}" if note else ""))
        if not quiet:
            typer.echo(_replay_lines(result, kept) + (f"\n  {note}" if note else ""))
        return False

    def spoiled(result) -> bool:  # a timing fault while other replays ran
        return result.status != "interrupted" and result.failed and timing_bound(result.report)

    try:
        pool.play_all(mine, lambda task: replayer.replay(task[1], task[2], exact_lines=exact_lines), jobs, done,
                      again=spoiled)
    except KeyboardInterrupt as exc:
        interrupted = signal.Signals(getattr(exc, "signum", signal.SIGINT))
    signals.armed = False
    data = fixtures_report("replay", [entries[n] for n in sorted(entries)], len(pairs), part, errors, interrupted)
    write_fixture_reports(data, json_path, junit_path, errors)
    if html_path is not None:
        _write_html(html_path, [shown[n] for n in sorted(shown)], data, len(mine), errors)
    fixture_exit(counted([fixture for _, fixture, _ in mine]), "replayed", data["failed"], errors, interrupted)


def counted(fixtures: list) -> str:
    """What was replayed, counted by kind: "2 fixtures", "1 match game", "3 fixtures and match games"."""
    kinds = list(dict.fromkeys(f.kind for f in fixtures)) or ["fixture"]
    if len(kinds) == 1:
        return plural(len(fixtures), kinds[0])
    return f"{len(fixtures)} " + " and ".join(kind + "s" for kind in kinds)


def _write_html(path: Path, shown: list[tuple], data: dict, total: int, errors: list[str]) -> None:
    """--html: the replays as printed, and a board for each that failed or differs."""
    from ..reports import htmlpage

    what = counted([result.fixture for result, _ in shown]) if len(shown) == total else plural(total, "fixture")
    last = (f"FAIL: {data['failed']} of {what} failed" if data["failed"] else f"PASS: {what} replayed")
    text = "\n".join([*(lines for _, lines in shown), "", last])
    try:
        htmlpage.write_replay([result for result, _ in shown], text, path)
    except OSError as exc:
        errors.append(f"--html {path}: cannot write: {exc.strerror or exc}")
    else:
        live.page_written(path)


def _after_dashes(args: list[str], typed: list[str], command: str) -> tuple[list[str], list[str] | None]:
    """Split the arguments at the `--` the user typed (click drops it; `typed` is the
    command line as typed): fixtures, then a bot."""
    raw = typed or sys.argv[1:]
    if command not in raw or "--" not in raw[raw.index(command):]:
        return args, None
    after = len(raw) - raw.index("--", raw.index(command)) - 1
    if after == 0:
        raise UsageProblem(f"{command}: nothing after --: give the bot's command there, or leave out the --")
    return args[:len(args) - after], args[len(args) - after:]


def _keep_replay(result, folder: Path, number: int, write_all: bool, errors: list[str]) -> Path | None:
    """The replay's full transcript (times, stderr) as evidence: for a failure, or every one."""
    if not (write_all or result.failed):
        return None
    path = folder / f"{number:03d}-{result.fixture.path.stem}.txt"
    try:
        return result.report.transcript.write(path)
    except OSError as exc:
        errors.append(f"--transcripts {path}: cannot write: {exc.strerror or exc}")
        return None


VERDICTS = {"pass": "pass", "differs": "DIFFERS", "came back": "FAIL", "fails": "FAIL", "did not come back": "pass",
            "interrupted": "STOP"}


def _entry(number: int, result, kept: Path | None, note: str) -> dict:
    """One replay in the JSON report."""
    return {"number": number, "fixture": str(result.fixture.path), "kind": result.fixture.kind, "status": result.status,
            "verdict": VERDICTS[result.status], "failed": bool(result.failed),
            "game": summary.game_line(result.report), "lines": list(result.lines),
            "transcript": str(kept) if kept is not None else None, "rechecked_alone": note or None,
            "resources": figures.resources([result.report])}


def _replay_lines(result, kept: Path | None) -> str:
    verdict = VERDICTS[result.status]
    lines = [f"{result.fixture.path}: {verdict} ({summary.game_line(result.report)})"]
    lines += [f"  {line}" for line in result.lines]
    used = resources_line(figures.resources([result.report]))
    if used:
        lines.append(used)
    if kept is not None:
        lines.append(f"  transcript: {kept}")
    return "\n".join(lines)
