"""The replay command a fuzz report prints, and its run as printed before a failure's
claims are made: `reproducible` (every try failed the same way: the same kind at the same
ply) and the JSON's `confirmed` (at least one did) say what it did, and where it did not
fail the same way every time, the report says how often it did (k of n tries).
"""

from __future__ import annotations

import os
import shlex
from typing import TYPE_CHECKING, Any, Sequence

from ..judge.findings import TIMING_KINDS, Finding
from ..sandbox import interrupts, reaping
from .evidence import CRASH_KINDS
from .fuzzrun import Failure, Target
from .replayready import ReadyChecks

if TYPE_CHECKING:
    from .fuzz import Campaign

#: Runs of the printed replay command, at most, and at least for a bot that does not fail
#: the same way every time (one run that fails the same way does for a bot that does).
REPLAY_TRIES, REPLAY_MIN = 5, 3


def replay_command(target_: Target, failure: Failure) -> str:
    """A `prototest check` command line that plays the failing example again."""
    return shlex.join(replay_args(target_, failure))


def replay_args(target_: Target, failure: Failure) -> list[str]:
    """The arguments of `replay_command` (the first one `prototest`)."""
    example = failure.example
    spec = target_.spec
    args = ["prototest", "check", "--game", spec.name, "--seat", spec.game.seats[example.seat],
            "--games", "1"]
    if example.start_moves:
        args += ["--moves", ",".join(example.start_moves)]
    if (failure.cold != "reproduces" or failure.cold_turns > 1) and example.opponent_moves:
        args += ["--opponent-moves", ",".join(example.opponent_moves)]
    if target_.time_scale != 1:
        args += ["--time-scale", str(target_.time_scale)]
    if target_.start_delay_ms != spec.start.silent_ms * target_.time_scale:
        # the silence fuzz kept before its first line (none by default), not the spec's:
        # the example played as fuzz played it (chess's judge waits 1 s of silence first)
        args += ["--start-delay", str(target_.start_delay_ms)]
    for key, value in target_.env_given.items():
        args += ["--env", f"{key}={value}"]
    for override in target_.overrides_given:
        args += ["--set", override]
    args += ["--", *target_.argv]
    return args


def replay_printed(campaign: "Campaign", failure: Failure) -> Failure:
    """The replay command the report prints, run as printed (its JSON report and its
    transcripts written to a scratch folder, which changes nothing it plays), in the
    current folder: what it did decides `reproducible` (every try failed the same way:
    the same kind at the same ply) and the JSON's `confirmed` (at least one did).
    One try that fails the same way does for a bot never seen to answer the same input
    differently; otherwise REPLAY_MIN tries at least (the budget may be spent: a
    failure's claims are worth a few games), up to REPLAY_TRIES while a time budget
    lasts, and the report says how many of them failed the same way."""
    if campaign.run.interrupted is not None or interrupts.signals.first is not None:
        return failure
    args = replay_args(campaign.target, failure)
    # a crash may come only sometimes (a race, a buffer filled in time): never claimed
    # reproducible from one try
    flaky = (campaign.nondeterministic() or failure.finding.kind in CRASH_KINDS
             or (failure.cold_tries is not None and failure.cold_tries[0] < failure.cold_tries[1]))
    outcomes: list[dict[str, Any]] = []
    if flaky and failure.finding.kind not in TIMING_KINDS:
        # REPLAY_MIN tries at once (never for a timing failure: the tries would slow each other)
        at_once = run_printed_at_once(args, failure.finding, REPLAY_MIN, campaign.ready)
        if at_once is None:
            return failure  # interrupted
        outcomes.extend(at_once)
    while len(outcomes) < REPLAY_TRIES:
        if len(outcomes) >= REPLAY_MIN and (campaign.deadline is None or campaign.out_of_time()
                                            or campaign.shrinker.past_allowance()):
            break
        outcome = run_printed(args, failure.finding, campaign.ready)
        if outcome is None:
            break  # interrupted
        outcomes.append(outcome)
        same = sum(1 for o in outcomes if o["same"])
        if not flaky and same == len(outcomes):
            break
        flaky = True
        # past REPLAY_MIN, only while a time budget lasts (none: REPLAY_MIN) and shortening's
        # share of it (about the time the search took to find the failure: Shrinker)
    same = sum(1 for o in outcomes if o["same"])
    failure.replay = {"command": shlex.join(args), "tries": len(outcomes), "failed_same_way": same,
                      "outcomes": [o["said"] for o in outcomes]}
    failure.reproducible = bool(outcomes) and same == len(outcomes)
    return failure


def run_printed(args: Sequence[str], finding: Finding, ready: ReadyChecks | None = None) -> dict[str, Any] | None:
    """One run of a printed replay command (`prototest check ...`, as this Python runs
    prototest), its JSON report and transcripts in a scratch folder: whether it failed the
    same way (the same kind at the same ply), and what it did in a few words. None when
    interrupted. `ready`: processes started ahead to take the command line (see
    prototest.play.replayready), else it starts its own."""
    done = run_printed_at_once(args, finding, 1, ready)
    return None if done is None else done[0]


def run_printed_at_once(args: Sequence[str], finding: Finding, tries: int,
                        ready: ReadyChecks | None = None) -> list[dict[str, Any]] | None:
    """`tries` runs of a printed replay command at once (see run_printed); None when interrupted."""
    import subprocess
    import sys
    import tempfile

    with tempfile.TemporaryDirectory(prefix="prototest-replay-") as folder:
        procs = []
        try:
            for n in range(tries):
                out = os.path.join(folder, f"replay-{n}.json")
                given = [args[1], "--json", out, "--transcripts", os.path.join(folder, f"transcripts-{n}"),
                         "--quiet", *args[2:]]
                proc = ready.take(given) if ready is not None else None
                if proc is None:
                    proc = subprocess.Popen([sys.executable, "-m", "prototest", *given], stdin=subprocess.DEVNULL,
                                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                            errors="replace")
                procs.append((out, proc))
            outcomes = []
            for out, proc in procs:
                try:
                    stdout, stderr = proc.communicate(timeout=3600)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.communicate()
                    outcomes.append({"same": False, "status": None, "said": "did not end within an hour"})
                    continue
                if interrupts.signals.first is not None:
                    return None
                outcomes.append(_outcome(out, _Done(proc.returncode, stdout, stderr), finding))
            return outcomes
        finally:
            for _, proc in procs:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
                reaping.helpers.discard(proc.pid)


def _outcome(out: str, done: "_Done", finding: Finding) -> dict[str, Any]:
    """What one run of the printed replay did, from its JSON report (`out`)."""
    import json

    try:
        with open(out, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        data = None
    if data is None:
        last = (done.stderr.strip().splitlines() or done.stdout.strip().splitlines() or [""])[-1]
        return {"same": False, "status": done.returncode, "said": f"status {done.returncode}: {last[:200]}"}
    fails = [f for f in data.get("findings", []) if f.get("severity") == "fail"]
    same = any(f.get("kind") == finding.kind and f.get("ply") == finding.ply for f in fails)
    if same:
        said = f"failed the same way ({finding.kind} at ply {finding.ply})"
    elif fails:
        f = fails[0]
        said = f"{f.get('kind')} at ply {f.get('ply')} ({str(f.get('message'))[:120]})"
    else:
        said = "passed" if done.returncode == 0 else f"status {done.returncode}, no failure"
    return {"same": same, "status": done.returncode, "said": said}


class _Done:
    """A finished run's status and output, as subprocess.run gives them."""

    def __init__(self, returncode: int, stdout: str, stderr: str) -> None:
        self.returncode, self.stdout, self.stderr = returncode, stdout, stderr
