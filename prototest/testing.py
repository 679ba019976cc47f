"""`prototest fuzz` as a pytest test, for a bot's own repository.

    # tests/test_protocol.py in the bot's repository
    from prototest.testing import fuzz_test

    test_protocol = fuzz_test(["./mybot"], game="loa")
    test_games_only = fuzz_test(["./mybot"], game="loa", mode="game", budget="2m")
    test_from_config = fuzz_test()      # game, bot and seed from the repository's prototest.toml

Each call returns a test function that runs one fuzzing campaign: a Hypothesis test of
whole games, as `prototest fuzz --jobs 1` plays them (its swarm opponents, state probe,
shrinking and verdicts), with the same settings:

* **The budget** is the CLI's: 60 s by default, the whole of it used. `budget=` sets it
  for one test; otherwise the environment variable `PROTOTEST_FUZZ_BUDGET` (`90s`, `5m`,
  `1h`, `0` for none) sets it for every `fuzz_test` of the run, as a Hypothesis profile
  would (profiles cannot carry prototest's keys). The profile's `max_examples` is not
  used: it is sized for quick property tests, and would end a campaign after a few
  seconds; `examples=N` stops after N examples as `--examples` does.
* **The budget never hides a failure.** As on the command line, an answer asked for when
  the budget runs out is still judged to its limit (the game stops before the next one),
  so a run ends at most one answer's limit after its budget (plus, for a timing failure,
  the run alone that confirms it). A failure seen in any example, the state probe's game
  included, fails the test, with what shortening reached when the budget ended it; a run
  that judged no answer at all fails as INCOMPLETE, never passes.
* **The config file** (`prototest.toml` or pyproject.toml's `[tool.prototest]`, see
  prototest.commands.config) is read as the CLI reads it: looked for from `cwd`, or else from the
  test file's folder, upwards; its `game` (or `spec`), `bot`, `seed`, `time_scale`, `env`
  and `set` apply unless an argument gives them, and its bot runs in its folder.
  `config=PATH` reads that file, `config=False` none.
* **`cwd`**: what `cd CWD && prototest fuzz ...` would do: the config is looked for from
  there, and a bot given here runs there (a relative `cwd` is relative to the test file's
  folder, so the test works wherever pytest is started). Without it, a bot given here runs
  in pytest's current folder, as a bot given on the command line does.
* **The game**: `game=`, `spec=` or the config file's; when none chose it, it is chess, and
  the test says so (a `GameWarning` naming the game and how to choose), gives up on a first
  answer that waits, idle, for input of another protocol (as `check` does), and a failure
  that points to another protocol ends with the `game=` to choose (prototest.judge.detect).
* **The seed**: `seed=` or the config file's fixes Hypothesis's draws as `prototest fuzz
  --seed S --jobs 1` does (the same examples); with neither, pytest's `--hypothesis-seed`
  (a number; any other text is digested to one), else 0 under a profile's `derandomize`,
  else a random one. pytest's `--hypothesis-seed` wins over the config file's seed,
  `seed=` over both. Whichever it is, the test prints it (`seed S` and how to run the
  same examples again): it drives both Hypothesis's draws and prototest's own.

What it played (examples, answers, opponent styles, situations reached) is printed as the
CLI's summary: pytest shows it under the test's captured output, and for a passing test
at the end of the run (prototest.pytest_plugin; it is the test's `prototest fuzz` user
property too, which `--junitxml` writes). A failing campaign fails the test with the reproducer as its message, the
first thing pytest shows, ending in prototest's replay command (Hypothesis's `@seed(...)`
hint, which would not replay a bot's game, is not printed); a passing one reports its
warnings (slow answers, a `random` answer, a bot that answers the same input differently,
a failure seen only after a cold start, a timing failure that did not come back when
played again alone: `busy_machine`) as pytest warnings of the class `ProtocolWarning`. A
timing failure is a failure only when it comes back played again alone, as in `prototest
fuzz`. A bot that answers the same input differently (a time-bound search) gets its whole
budget, and no Hypothesis error ever surfaces instead of a verdict.

The example database is the active Hypothesis profile's, so a campaign shared between
machines is a profile away:

    # conftest.py: a Redis server shared between machines (pip install 'prototest[redis]')
    import redis
    from hypothesis import settings
    from hypothesis.extra.redis import RedisExampleDatabase

    shared = RedisExampleDatabase(redis.Redis(host="ci-cache", port=6379, db=0), key_prefix=b"prototest:")
    settings.register_profile("ci", database=shared)
    settings.load_profile("ci")

With the key prefix `prototest:`, `prototest fuzz --database redis://ci-cache:6379/0` and
the test share their failures: a failure that one found is replayed first by the other,
for the same bot command, game, mode and `max_plies`.
"""

from __future__ import annotations

import hashlib
import math
import os
import random
import re
import shlex
import sys
import warnings
from pathlib import Path
from typing import Callable, Mapping, Sequence

from hypothesis import core as hypothesis_core, settings as hypothesis_settings
from hypothesis.errors import HypothesisException

from .commands import config as configmod, settings as settingsmod
from .judge import detect, spec as specmod
from .sandbox import process
from .reports import fuzzsummary
from .reports.text import reproducer_lines, reproducer_text
from .commands.bot import bot_argv
from .commands.exits import UsageProblem
from .play.fuzz import BotFault, Campaign, _Stop, choose_mode
from .play.fuzzrun import DEFAULT_BUDGET_S, FuzzRun, Options, Target
from .commands.settings import parse_duration

#: The environment variable that sets the budget of every `fuzz_test` that gives none.
BUDGET_ENV = "PROTOTEST_FUZZ_BUDGET"
#: What the campaigns of the test that runs now played: prototest.pytest_plugin takes it
#: into the test's report.
PLAYED: list[str] = []


class Incomplete(AssertionError):
    """The budget ran out before a single answer of the bot was judged: no verdict, so
    the test fails rather than pass a bot it never saw answer."""


class ProtocolWarning(UserWarning):
    """A warning of prototest's judge about the bot (it passes, but a stricter judge or a
    slower machine may not)."""


class GameWarning(UserWarning):
    """No argument and no config file chose the game: the test fuzzes the default one."""


class UsageError(Exception):
    """The test's own settings cannot be used (no bot, a bot that cannot run, a bad
    budget): one line, as the CLI's status 2."""


class _Unset:
    def __repr__(self) -> str:
        return f"${BUDGET_ENV} or {DEFAULT_BUDGET_S:g} s"


#: `budget` not given: PROTOTEST_FUZZ_BUDGET, else the CLI's default.
DEFAULT = _Unset()


def fuzz_test(bot: str | Sequence[str] | None = None, *, game: str | None = None, mode: str | None = None,
              budget: float | str | None | _Unset = DEFAULT, examples: int | None = None,
              max_plies: int | None = None, spec: str | Path | None = None, overrides: Sequence[str] = (),
              env: Mapping[str, str] | None = None, time_scale: float | None = None, seed: int | None = None,
              cwd: str | Path | None = None, config: str | Path | bool | None = None,
              coverage: str = "auto") -> Callable[[], None]:
    """A test that fuzzes `bot` (a command: a list, or a string split as a shell would;
    None: the config file's) on `game`'s protocol; assign it to a name starting with `test_`.

    `budget` is seconds (or "90s", "5m"; None or 0 for no time limit; not given:
    $PROTOTEST_FUZZ_BUDGET, else 60 s); `examples` stops after that many examples too.
    `seed` fixes the examples (default: the config file's, else Hypothesis's own seed).
    `coverage`: "auto" (the bot's code coverage steers the search where the bot gives it),
    "on" or "off", as `prototest fuzz --coverage`.
    `cwd` and `config` as the module docstring says."""
    home = _caller_folder()
    folder = _folder(cwd, home)
    cfg = _config(config, folder or home)
    argv = (shlex.split(bot) if isinstance(bot, str) else list(bot)) if bot is not None else None
    spec_path = None if spec is None else Path(spec) if folder is None else folder / spec
    s = settingsmod.resolve(bot=argv, game=game, spec_path=spec_path, games=0, seed=seed, time_scale=time_scale,
                            env=dict(env or {}), overrides=list(overrides), config=cfg)
    if not s.bot:
        raise UsageError("fuzz_test: no bot given: fuzz_test(['./mybot'], ...), or bot = [...] in a prototest.toml")
    if not (math.isfinite(s.time_scale) and 0.01 <= s.time_scale <= 1000):
        raise UsageError(f"fuzz_test: time_scale {s.time_scale}: expected a number from 0.01 to 1000")
    loaded = _spec(s)
    module, rules = specmod.bind(loaded)
    chosen_mode = choose_mode(loaded, mode)
    fixed_seed = seed if seed is not None else cfg.seed if cfg is not None else None
    bot_cwd = s.bot_cwd or (str(folder) if folder is not None else None)
    name = f"fuzz_{loaded.name}_{chosen_mode}"

    def test() -> None:
        __tracebackhide__ = True
        argv_checked = _bot_argv(s.bot, s.env, bot_cwd)
        budget_s = _budget(budget)
        target = Target(loaded, rules, module, argv_checked, process.controlled_env(s.env), s.time_scale,
                        cwd=bot_cwd, stop_when_idle=not s.game_chosen, env_given=dict(s.env),
                        overrides_given=list(s.overrides[s.config_overrides:]))
        run_seed = _run_seed(seed, fixed_seed)
        options = Options(mode=chosen_mode, examples=examples, budget_s=budget_s, seed=run_seed,
                          max_plies=max_plies, coverage=coverage)
        if not s.game_chosen:
            warnings.warn(GameWarning(
                f"no game chosen: fuzzing the {loaded.name} protocol, the default; choose the bot's game with "
                f"fuzz_test(..., game='loa') (prototest games lists them) or game = \"loa\" in its prototest.toml"),
                stacklevel=2)
        run = _run(Campaign(target, options), run_seed)
        run.config = cfg.where if cfg is not None else None
        run.game_source = s.game_source
        if not s.game_chosen:
            run.hints = list(dict.fromkeys(h for f in run.failures if (h := detect.hint(f.example.report))))
        summary = played(run)
        print(summary)
        PLAYED.append(summary)
        if run.failed:
            failure = next(f for f in run.failures if f.confirmed)
            hints = [f"    hint:     {_as_argument(h)}" for h in run.hints]
            raise BotFault(failure, "\n".join([reproducer_text(failure), *hints])) from None
        if run.incomplete:  # nothing judged: never a pass (the CLI says INCOMPLETE, status 2)
            raise Incomplete(f"INCOMPLETE: no answer of the bot was judged before the "
                             f"{budget_s or 0:g} s budget ran out; give the test more time "
                             f"(fuzz_test(..., budget=...) or {BUDGET_ENV})")
        for text in _warnings(run):
            warnings.warn(ProtocolWarning(text), stacklevel=2)

    test.__name__ = test.__qualname__ = name
    return test


def played(run: FuzzRun) -> str:
    """What the campaign played, as the CLI's summary says it: its head, where the settings
    came from, the games' figures (examples, answers, opponent styles, situations, the state
    probe), and its verdict line (the reproducer is the test's message)."""
    lines = fuzzsummary.fuzz_summary(run).split("\n")
    context = tuple(fuzzsummary.fuzz_context_lines(run))
    figures = []
    for line in lines[2:]:
        if not line.strip():
            break
        if line not in context:
            figures.append(line)
    again = (f"  seed {run.options.seed}: fuzz_test(..., seed={run.options.seed}) plays these examples again "
             f"(prototest fuzz --seed {run.options.seed} --jobs 1 on the command line)")
    return "\n".join([lines[0], *fuzzsummary.fuzz_context_lines(run, pytest=True), again, *figures, lines[-1]])


def _as_argument(hint: str) -> str:
    """A hint for the command line (`--game loa`) as fuzz_test's argument (`game='loa'`)."""
    return re.sub(r"--game ([A-Za-z0-9_-]+)", r"game='\1'", hint)


def _caller_folder() -> Path:
    """The folder of the test file that called fuzz_test (the current one if unknown)."""
    frame = sys._getframe(2)
    name = frame.f_globals.get("__file__")
    return Path(name).resolve().parent if name else Path.cwd()


def _folder(cwd: str | Path | None, home: Path) -> Path | None:
    if cwd is None:
        return None
    folder = (home / cwd).resolve()
    if not folder.is_dir():
        raise UsageError(f"fuzz_test: cwd {str(cwd)!r}: {folder} is not a folder")
    return folder


def _config(config: str | Path | bool | None, start: Path) -> configmod.Config | None:
    """The config file: found from `start` upwards (None), that file (a path), or none (False)."""
    if config is False:
        return None
    if config is None or config is True:
        return configmod.find(start)
    return configmod.load(start / config)


def _spec(s: settingsmod.Settings) -> specmod.Spec:
    """The spec with every override; a bad one from the config file is named as its."""
    try:
        path = s.spec_path or specmod.spec_path_for(s.game)
    except specmod.SpecError as exc:
        raise UsageError(f"fuzz_test: {exc.problem}") from None
    if s.config_overrides and s.config is not None:
        try:
            specmod.load(path, s.overrides[:s.config_overrides])
        except specmod.SpecError as exc:
            raise configmod.ConfigError(s.config.where, "set", str(exc)) from None
    return specmod.load(path, s.overrides)


def _bot_argv(argv: list[str], env: dict[str, str], cwd: str | None) -> list[str]:
    """The bot's command checked as the CLI checks it (a missing file, a #! line that
    cannot work), when the test runs: a bot may be built by a fixture."""
    try:
        return bot_argv(argv, process.controlled_env(env), cwd=cwd)
    except UsageProblem as exc:
        raise UsageError(f"fuzz_test: {exc}") from None


def _budget(budget: float | str | None | _Unset) -> float | None:
    """Seconds, or None for no time limit: the argument, else $PROTOTEST_FUZZ_BUDGET, else 60 s."""
    if isinstance(budget, _Unset):
        text = os.environ.get(BUDGET_ENV, "").strip()
        if not text:
            return DEFAULT_BUDGET_S
        try:
            return parse_duration(text)
        except ValueError as exc:
            raise UsageError(f"fuzz_test: {BUDGET_ENV}={text!r}: {exc}") from None
    return _seconds(budget)


def _run_seed(argument: int | None, fixed: int | None) -> int:
    """The seed of the run, Hypothesis's draws and prototest's own: the argument's; else
    pytest's --hypothesis-seed (the command line over the config file; text other than a
    number digested to one); else the config file's; else 0 under a profile's derandomize;
    else a random one. Always a number the test prints, which `seed=` takes to play the
    same examples again."""
    if argument is not None:
        return argument
    forced = getattr(hypothesis_core, "global_force_seed", None)
    if forced is not None:
        if isinstance(forced, int):
            return forced
        return int.from_bytes(hashlib.sha256(str(forced).encode()).digest()[:4], "big")
    if fixed is not None:
        return fixed
    if hypothesis_settings.default.derandomize:
        return 0
    return random.SystemRandom().randrange(1 << 32)


def _run(campaign: Campaign, seed: int | None = None) -> FuzzRun:
    """The campaign as pytest runs it: under the active profile (its database), until the
    budget or `options.examples` ends it."""
    campaign._start_clock()
    try:
        inner = campaign.search_test.test(campaign.search_modes, own_settings=False, seed=seed)
        try:
            inner()
        except _Stop:
            pass
        except HypothesisException as exc:  # never a raw Hypothesis error instead of a verdict
            # stopping before an example draws anything looks to Hypothesis like a flaky
            # test: that is our stop (as in SearchTest.search)
            if not campaign.stopping:
                campaign.run.stopped_early = f"Hypothesis stopped: {type(exc).__name__}: {exc}"
        else:
            campaign.run.ended = campaign.run.ended or "examples"
        if campaign.run.interrupted is None:
            campaign.finish()
    except KeyboardInterrupt as exc:
        campaign._interrupted(exc)
        raise
    return campaign.close()


def _warnings(run: FuzzRun) -> list[str]:
    texts = [f"{f.kind}: {f.message}" + (f" [in {f.examples} examples]" if f.examples and f.examples > 1 else "")
             for f in run.warnings]
    texts += ["\n".join(reproducer_lines(f.details, f.finding)) for f in run.unconfirmed]
    texts += [f"nondeterministic: the same input got {n.first!r} in example {n.first_example} and "
              f"{n.second!r} in example {n.second_example} (ply {n.ply})" for n in run.nondeterminism[:1]]
    if run.stopped_early:
        texts.append(run.stopped_early)
    if run.probe is not None and run.probe.stateful is not False:  # keeps state, or cannot tell
        texts.append(f"state probe: {run.probe.message}")
    return texts


def _seconds(budget: float | str | None) -> float | None:
    if budget is None or isinstance(budget, (int, float)):
        return float(budget) if budget else None
    return parse_duration(budget)


def make_campaign(bot: str | Sequence[str], *, game: str = "chess", mode: str | None = None,
                  max_plies: int | None = None, spec: str | Path | None = None,
                  overrides: Sequence[str] = (), env: Mapping[str, str] | None = None,
                  time_scale: float = 1.0, options: Options | None = None, cwd: str | None = None,
                  stop_when_idle: bool = False) -> Campaign:
    """A campaign of `prototest fuzz` for other runners (no config file read)."""
    argv = shlex.split(bot) if isinstance(bot, str) else list(bot)
    if not argv:
        raise ValueError("no bot given")
    loaded = specmod.load(Path(spec) if spec is not None else specmod.spec_path_for(game), list(overrides))
    module, rules = specmod.bind(loaded)
    bot_env = process.controlled_env({"PATH": os.environ.get("PATH", os.defpath), **(env or {})})
    options = options or Options()
    options.mode = choose_mode(loaded, mode)
    options.max_plies = max_plies
    return Campaign(Target(loaded, rules, module, argv, bot_env, time_scale, cwd=cwd,
                           stop_when_idle=stop_when_idle), options)
