"""The referee's timing decisions, with a stand-in for the bot process."""

from __future__ import annotations

import pytest

from prototest.sandbox import process
from prototest.judge import spec as specmod
from prototest.games import rules_module
from prototest.judge.referee import Forfeit, GameConfig, Referee

MS = 1_000_000


class LateBot:
    """Hands over a whole answer line, but only `late_ms` after the deadline."""

    stderr_tail: list[str] = []

    def __init__(self, late_ms: float) -> None:
        self.late_ns = int(late_ms * MS)

    def read_line(self, deadline_ns: int) -> process.Read:
        return process.Read("line", b"e2e4", deadline_ns + self.late_ns)


def referee() -> Referee:
    spec = specmod.load(specmod.spec_path_for("chess"))
    module = rules_module(spec.game.rules)
    ref = Referee(GameConfig(spec=spec, rules=module.make_rules(spec.rules), rules_module=module,
                             argv=["bot"], seat=0, seed=1))
    ref.bot_turns = 2
    return ref


def test_an_answer_read_after_the_deadline_is_a_timeout():
    ref = referee()
    ref.bot = LateBot(late_ms=1)  # type: ignore[assignment]
    with pytest.raises(Forfeit) as info:
        ref._read_answer(0, 100 * MS, "the answer limit")
    f = info.value.finding
    assert (f.kind, f.severity) == ("timeout", "fail")
    assert "answered 'e2e4' after 101.0 ms: over the 100 ms it had (the answer limit)" == f.message
    assert f.elapsed_ms == pytest.approx(101.0)


def test_an_answer_on_the_deadline_is_in_time():
    ref = referee()
    ref.bot = LateBot(late_ms=0)  # type: ignore[assignment]
    read, text, elapsed_ns = ref._read_answer(0, 100 * MS, "the answer limit")
    assert (read.data, text, elapsed_ns) == (b"e2e4", "e2e4", 100 * MS)


def test_abandon_kills_the_other_seats_bot_even_when_the_first_kill_is_interrupted():
    """A bot started ahead whose game is not played: an interrupt read while its kill
    runs (Bot.kill raises it once the bot is dead) must not leave the other seat's bot
    started ahead with it running."""
    from types import SimpleNamespace

    killed: list[str] = []

    class FakeBot:
        def __init__(self, name: str, interrupted: bool = False) -> None:
            self.name, self.interrupted = name, interrupted

        def kill(self) -> None:
            killed.append(self.name)
            if self.interrupted:
                raise KeyboardInterrupt

    other = SimpleNamespace(bot=FakeBot("other seat"), seat=None)
    other.abandon = lambda: Referee.abandon(other)
    main = SimpleNamespace(bot=FakeBot("bot", interrupted=True), seat=SimpleNamespace(referee=other))
    with pytest.raises(KeyboardInterrupt):
        Referee.abandon(main)
    assert killed == ["bot", "other seat"]


@pytest.mark.parametrize("whose", ["bot", "other seat"])
def test_an_interrupt_swallowed_by_a_start_ahead_stops_the_game_in_play(whose):
    """Referee.launch takes an interrupt that comes while its bot starts as its game's
    (the game reports it when its turn comes). Started ahead, during the game before, that
    interrupt must stop the game in play too: else that game goes on to its end, the
    user's Ctrl-C spent (later signals are only noted)."""
    import signal
    from types import SimpleNamespace

    from prototest.play import runner

    other = SimpleNamespace(report=SimpleNamespace(interrupted=None))
    following = SimpleNamespace(report=SimpleNamespace(interrupted=None), seat=SimpleNamespace(referee=other))

    def launch_all() -> None:  # as Referee.launch does when Ctrl-C comes while the bot starts
        (following if whose == "bot" else other).report.interrupted = signal.SIGINT

    following.launch_all = launch_all
    with pytest.raises(KeyboardInterrupt) as raised:
        runner._launch_ahead(following)
    assert raised.value.signum == signal.SIGINT


def test_a_game_dropped_while_its_bot_thinks_ends_at_once_with_no_finding_of_its(tmp_path):
    """GameConfig.abandon (fuzzing: another worker found a failure) is asked while the
    judge waits for an answer too: the game is dropped there, the bot killed, and the
    answer it never gave is no timeout (without it, the judge waits out the limit)."""
    import sys
    import threading

    from prototest.judge.game import ABANDONED

    bot = tmp_path / "thinks.py"
    bot.write_text("import sys, time\nsys.stdin.readline()\ntime.sleep(60)\n")
    spec = specmod.load(specmod.spec_path_for("impasse"))
    module = rules_module("impasse")
    asked: list[int] = []

    def abandon() -> str | None:  # None before the first answer is asked for, then a reason
        asked.append(1)
        return ABANDONED if len(asked) > 2 else None

    cfg = GameConfig(spec=spec, rules=module.make_rules(spec.rules), rules_module=module,
                     argv=[sys.executable, str(bot)], seat=0, seed=1, index=1, env=process.controlled_env(),
                     cwd=str(tmp_path), abandon=abandon)
    ref = Referee(cfg)
    done: list = []
    thread = threading.Thread(target=lambda: done.append(ref.run()), daemon=True)
    thread.start()
    thread.join(60)
    assert done, "the game did not end"
    report = done[0]
    assert (report.result, report.reason) == ("stopped", ABANDONED)
    assert len(asked) == 3 and ref.bot_turns == 1
    assert not [f for f in report.findings if f.severity == "fail"], report.findings
    assert ref.bot is not None and not ref.bot.alive()
