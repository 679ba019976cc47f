"""Every timing sentence and its JSON agree (issue 29, item 4): each figure a message prints
is the finding's field of the same name (prototest.judge.answertime), and a share of a limit is
of the figure the message says. The builders are fed a constructed Spent (the figures the
issue measured on a busy machine); then the referee's own wiring, with a stand-in bot whose
readings are those figures."""

from __future__ import annotations

import os
import re
from types import SimpleNamespace

import pytest

from prototest.judge import answertime, spec as specmod
from prototest.sandbox import envelope, process
from prototest.judge.accounting import SHARED_QUOTA, Accounting
from prototest.judge.answertime import AnswerTime
from prototest.sandbox.envelope import Spent, Usage
from prototest.judge.events import placed
from prototest.judge.findings import TIME_FIELDS
from prototest.games import rules_module
from prototest.judge.judging import Judging
from prototest.judge.referee import GameConfig, Referee

MS = 1_000_000
_FIGURE = re.compile(r"(\d+(?:\.\d+)?)( ms|%)")
_LOAD = re.compile(r"load average (\d+\.\d) on (\d+) cores")


def numbers_are_fields(text: str, fields: dict) -> None:
    """Every 'N ms' and 'N%' of `text` is one of `fields`, printed as the text prints it
    (a time with one decimal, a limit whole, a share whole); the load too."""
    values = [v for v in fields.values() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    for number, unit in _FIGURE.findall(text):
        if unit == "%":
            assert int(number) == fields["limit_percent"], (number, text, fields)
            continue
        decimals = len(number.split(".")[1]) if "." in number else 0
        assert number in {f"{v:.{decimals}f}" for v in values}, (number, text, fields)
    for average, cores in _LOAD.findall(text):
        assert (average, int(cores)) == (f"{fields['load_average']:.1f}", fields["cores"]), (text, fields)


def spent(wall: float, *, cpu: float = 3.0, wait: float = 0.0, wait_max: float | None = None,
          throttled: float = 0.0, others: float | None = 1000.0, judge: float = 0.0,
          thread_cpu: float = 0.0) -> Spent:
    """A Spent from figures in ms."""
    return Spent(wall_ns=int(wall * MS), cpu_ns=int(cpu * MS), wait_ns=int(wait * MS),
                 wait_max_ns=int((wait if wait_max is None else wait_max) * MS), throttled_ns=int(throttled * MS),
                 others_ns=None if others is None else int(others * MS), judge_wait_ns=int(judge * MS),
                 run_max_ns=int(thread_cpu * MS))


# -- the builders --------------------------------------------------------------------------------

def test_a_slow_answer_on_a_quiet_machine_is_its_wall_time():
    message, fig = answertime.slow_near_limit(AnswerTime(int(93.1 * MS), spent(93.1)), 100 * MS)
    assert message == "answered in 93.1 ms, 93% of the 100 ms it had"
    assert (fig["machine_ms"], fig["own_ms"], fig["limit_percent"], fig["limit_ms"]) == (0.0, 93.1, 93, 100.0)
    numbers_are_fields(message, fig)


def test_the_issues_slow_warning_names_the_judges_wait_and_the_bots_own_time():
    """The issue's Java bot: 141.4 ms of 100, the JSON's wait_ms 0.0: the 56.4 ms the
    machine kept were the judge's own wait to read the answer. The 85% is of the bot's own
    85.0 ms, and says so; before, the text said 'answered in 141.4 ms, 85% of the 100 ms'."""
    took = AnswerTime(int(141.4 * MS), spent(141.4, wait=0.0, judge=56.4))
    message, fig = answertime.slow_near_limit(took, 100 * MS)
    assert message == ("answered in 141.4 ms, but the machine kept 56.4 ms of it from the answer (the judge waited "
                       "56.4 ms for a CPU): its own time, 85.0 ms, is 85% of the 100 ms it had")
    assert (fig["elapsed_ms"], fig["machine_ms"], fig["judge_wait_ms"], fig["bot_wait_ms"], fig["wait_ms"],
            fig["own_ms"], fig["limit_percent"]) == (pytest.approx(141.4), 56.4, 56.4, 0.0, 0.0, 85.0, 85)
    numbers_are_fields(message, fig)


def test_the_statement_limit_leaves_out_the_machines_time_and_the_quotas():
    took = AnswerTime(int(90 * MS), spent(90, wait=30, wait_max=25, throttled=5, judge=2))
    message, fig = answertime.slow_statement(took, 50 * MS, 100 * MS)
    # the bot's thread waited 25 ms, 5 of them held by its quota: 20 ms the machine's, with the judge's 2
    assert (fig["machine_ms"], fig["bot_wait_ms"], fig["throttled_ms"], fig["own_ms"]) == (22.0, 20.0, 5.0, 63.0)
    assert message == ("answered in 90.0 ms, but the machine kept 22.0 ms of it from the answer (a thread of the "
                       "bot waited 20.0 ms for a CPU besides its CPU quota's time; the judge waited 2.0 ms for a "
                       "CPU) and its CPU quota "
                       "held it back 5.0 ms: its own time, 63.0 ms, is over the statement's 50 ms, within the "
                       "referee's 100 ms")
    assert (fig["limit_ms"], fig["referee_limit_ms"]) == (50.0, 100.0)
    numbers_are_fields(message, fig)


def test_the_issues_busy_machine_line_names_both_waits():
    """The issue's line: 'kept the bot from a CPU for 151.7 ms' while its JSON said wait_ms
    65.1: the bot's threads waited 65.1 ms, the judge 86.6 ms; the text now says so and
    the JSON has each figure."""
    took = AnswerTime(int(250.3 * MS), spent(250.3, cpu=12.0, wait=65.1, judge=86.6))
    message, fig = answertime.busy_machine(took, "e2e4", 100 * MS, "the answer limit",
                                           {"load_average": 3.24, "cores": 2})
    assert message == ("'e2e4' after 250.3 ms: over the 100 ms it had (the answer limit), but the machine kept "
                       "151.7 ms of it from the answer (a thread of the bot waited 65.1 ms for a CPU; the judge "
                       "waited 86.6 ms for a CPU; load average 3.2 on 2 cores): its own time, 98.6 ms, is "
                       "within the limit, so this is not blamed on the bot (CPU 12.0 ms)")
    assert (fig["machine_ms"], fig["bot_wait_ms"], fig["judge_wait_ms"], fig["wait_ms"], fig["own_ms"],
            fig["cpu_ms"]) == (151.7, 65.1, 86.6, 65.1, 98.6, 12.0)
    assert fig["got"] == "'e2e4' after 250.3 ms" and fig["expected"] == "an answer within 100 ms"
    numbers_are_fields(message, fig)


def test_the_machines_time_capped_by_the_others_cpu_says_so():
    """Two threads of the bot on two cores wait for each other, not for the machine: the
    wait counts only up to the CPU time the machine's other processes used."""
    took = AnswerTime(int(300 * MS), spent(300, wait=150, others=40.0))
    message, fig = answertime.busy_machine(took, None, 200 * MS, "the answer limit",
                                           {"load_average": None, "cores": 2})
    assert fig["machine_ms"] == 40.0 and fig["others_cpu_ms"] == 40.0 and fig["bot_wait_ms"] == 150.0
    assert ("the machine kept 40.0 ms of it from the answer (a thread of the bot waited 150.0 ms for a CPU; "
            "counted up to the 40.0 ms of CPU the machine's other processes used meanwhile; the machine's load "
            "is not known): its own time, 260.0 ms") in message
    assert message.startswith("no answer after 300.0 ms")
    numbers_are_fields(message, fig)


def test_the_bots_own_time_is_never_less_than_its_busiest_threads_cpu():
    """Seen under a load of 20 on 2 cores: an answer of 51.3 ms, the bot's thread waiting
    35.7 ms for a CPU and the judge 16.0 ms, summed over the whole answer, while the thread
    ran 12.4 ms. The waits overlapped; before, the text said '12.4 ms of CPU and 0.0 ms of
    its own time'. Its own time is now at least the 12.4 ms it ran."""
    took = AnswerTime(int(51.3 * MS), spent(51.3, cpu=12.4, wait=35.7, judge=16.0, thread_cpu=12.4))
    words, fig = answertime.share_model(took, "move 15 11 14 12", int(102.3 * MS), 100 * MS, "Proglad's 0.3 CPU")
    assert (fig["machine_ms"], fig["own_ms"], fig["thread_cpu_ms"]) == (38.9, 12.4, 12.4)
    assert words == ("'move 15 11 14 12' took 12.4 ms of CPU and 12.4 ms of its own time here (the answer's 51.3 ms "
                     "less the 38.9 ms the machine kept from it); under Proglad's 0.3 CPU it takes up to 102.3 ms")
    line = answertime.time_line(fig)
    assert ("the machine kept 38.9 ms of it from the answer (a thread of the bot waited 35.7 ms for a CPU; the judge "
            "waited 16.0 ms for a CPU; counted up to the answer's time less the 12.4 ms of CPU its busiest thread "
            "used): its own time 12.4 ms") in line
    numbers_are_fields(words, fig)
    numbers_are_fields(line, fig)


def test_only_a_thread_seen_at_the_request_caps_the_machines_time():
    """A thread first seen at the answer (born meanwhile, or missed by the last walk) brings
    its whole past CPU time: not this answer's, so it caps nothing."""
    before = Usage(0, 0, {1: (100 * MS, 0)}, 0, None, 0)
    after = Usage(50 * MS, 0, {1: (110 * MS, 30 * MS), 2: (900 * MS, 0)}, 0, None, 0)
    used = envelope.spent(before, after)
    assert (used.run_max_ns, used.excused_ns) == (10 * MS, 30 * MS)
    start = envelope.spent(Usage(0, 0, {}, 0, None, 0), Usage(50 * MS, 0, {1: (20 * MS, 40 * MS)}, 0, None, 0))
    assert (start.run_max_ns, start.excused_ns) == (20 * MS, 30 * MS)  # from the bot's start: every thread is new


def test_only_the_judges_wait_since_its_last_poll_is_the_machines():
    """The judge waited 700 ms for a CPU at its wake-ups while the bot worked (looks at its
    memory, its stderr, looks again past a deadline), and 9 ms since its last look that found
    no output: only those 9 ms can have kept the answer from being read (seen beside two CPU
    burners: 980 ms of the judge's wait over a 1 s answer, the bot's thread 22 ms)."""
    before = Usage(0, 0, {1: (0, 0)}, 0, None, 100 * MS, 100 * MS)
    after = Usage(2600 * MS, 0, {1: (5 * MS, 20 * MS)}, 0, None, 809 * MS, 800 * MS)
    used = envelope.spent(before, after)
    assert (used.judge_wait_ns, used.excused_ns) == (9 * MS, 29 * MS)
    # a mark older than the request (every look since found the answer) leaves the whole stretch:
    # a judge kept from a CPU right after its request kept an instant answer in the pipe
    stale = Usage(2600 * MS, 0, {1: (5 * MS, 20 * MS)}, 0, None, 130 * MS, 50 * MS)
    assert envelope.spent(before, stale).judge_wait_ns == 30 * MS


def test_the_judges_wait_before_a_look_that_waited_is_not_the_machines():
    """The judge was kept from a CPU 25 ms right after its request, then began its look and
    waited in it (it was put on a CPU again since: slices 7 -> 8): the pipe was empty when
    the look began, so the bot was still at work through those 25 ms, and only the 2 ms
    the judge waited after the answer woke it count (seen beside two CPU burners: a bot
    sleeping 70 ms, over a 50 ms statement limit, unwarned, its own time cut below 50)."""
    before = Usage(0, 0, {1: (0, 0)}, 0, None, 100 * MS, 100 * MS, 5, 100 * MS, 5)
    after = Usage(80 * MS, 0, {1: (1 * MS, 0)}, 0, None, 127 * MS, 100 * MS, 8, 125 * MS, 7)
    assert envelope.spent(before, after).judge_wait_ns == 2 * MS
    # the look found the answer at once (never off a CPU since it began: slices unchanged):
    # the answer may have waited in the pipe through the judge's 25 ms, which count
    at_once = Usage(30 * MS, 0, {1: (1 * MS, 0)}, 0, None, 125 * MS, 100 * MS, 7, 125 * MS, 7)
    assert envelope.spent(before, at_once).judge_wait_ns == 25 * MS
    # a look begun before this request (none since: the line was read already) changes nothing
    old_look = Usage(30 * MS, 0, {1: (1 * MS, 0)}, 0, None, 125 * MS, 90 * MS, 9, 90 * MS, 4)
    assert envelope.spent(before, old_look).judge_wait_ns == 25 * MS


def test_the_meters_start_holds_the_judges_wait_so_far():
    """A handshake is judged from the meter's start: the judge's wait before the bot was
    started (its whole life in this thread) is not the handshake's."""
    with open("/proc/thread-self/schedstat") as fh:
        so_far = int(fh.read().split()[1])
    meter = envelope.Meter(os.getpid())
    try:
        assert meter.start.judge_wait_ns >= so_far  # not 0, as if the judge had never waited
        assert meter.start.judge_mark_ns == meter.start.judge_wait_ns
        meter.judge_looked()
        later = meter.usage()
        assert later.judge_mark_ns >= meter.start.judge_wait_ns and later.judge_wait_ns >= later.judge_mark_ns
    finally:
        meter.close()


def test_a_late_answer_by_the_quota_names_the_quotas_time():
    took = AnswerTime(int(104 * MS), spent(104, cpu=20, wait=5, throttled=5))
    message, fig = answertime.quota_late(took, "e2e4", 100 * MS, "the answer limit", "the CPU quota", SHARED_QUOTA)
    assert message.startswith("'e2e4' after 104.0 ms: over the 100 ms it has (the answer limit); it used 20.0 ms "
                              "of CPU, and the CPU quota held it back 5.0 ms")
    assert fig["throttled_ms"] == 5.0 and fig["cpu_ms"] == 20.0
    numbers_are_fields(message, fig)


def test_the_share_models_words_are_of_its_own_time():
    took = AnswerTime(int(60 * MS), spent(60, cpu=40, wait=10, judge=0))
    words, fig = answertime.share_model(took, "e2e4", int(95.25 * MS), 100 * MS, "Proglad's 0.3 CPU")
    assert words == ("'e2e4' took 40.0 ms of CPU and 50.0 ms of its own time here (the answer's 60.0 ms less the "
                     "10.0 ms the machine kept from it); under Proglad's 0.3 CPU it takes up to 95.2 ms")
    assert (fig["share_worst_ms"], fig["limit_percent"], fig["own_ms"]) == (95.25, 95, 50.0)
    numbers_are_fields(words, fig)


def test_a_failures_time_line_names_each_figure():
    fig = AnswerTime(int(350 * MS), spent(350, cpu=99.5, wait=260, wait_max=250)).figures()
    line = answertime.time_line(fig)
    assert line == ("350.0 ms; the machine kept 250.0 ms of it from the answer (a thread of the bot waited 250.0 ms "
                    "for a CPU): its own time 100.0 ms (CPU 99.5 ms; waited for a CPU 260.0 ms, its threads together)")
    numbers_are_fields(line, fig)
    held = AnswerTime(int(164.8 * MS), spent(164.8, cpu=45.2, wait=119.3, throttled=89.4, judge=5.6)).figures()
    line = answertime.time_line(held)  # a throttled thread counts as waiting: the quota's part of the wait
    assert line == ("164.8 ms; the machine kept 35.5 ms of it from the answer (a thread of the bot waited 29.9 ms for "
                    "a CPU besides its CPU quota's time; the judge waited 5.6 ms for a CPU): its own time 129.3 ms (CPU 45.2 ms; waited for a CPU "
                    "119.3 ms, its threads together, 89.4 ms of it held back by its CPU quota)")
    numbers_are_fields(line, held)
    quiet = AnswerTime(int(14.3 * MS), spent(14.3, cpu=0.04)).figures()
    assert answertime.time_line(quiet) == "14.3 ms (CPU 0.0 ms; waited for a CPU 0.0 ms, its threads together)"
    assert answertime.time_line(AnswerTime(int(14.3 * MS)).figures()) == "14.3 ms"  # nothing measured


def test_without_the_accounting_nothing_is_excused_and_nothing_is_claimed():
    message, fig = answertime.slow_near_limit(AnswerTime(int(95 * MS)), 100 * MS)
    assert message == "answered in 95.0 ms, 95% of the 100 ms it had"
    assert fig["machine_ms"] is None and fig["cpu_ms"] is None and fig["own_ms"] == 95.0


# -- the referee's wiring ------------------------------------------------------------------------

def test_judgings_slow_warning_carries_the_figures_it_prints():
    """Judging._timing, given what the answer used: the warning's fields are its figures."""
    warned = []
    judge = SimpleNamespace(
        spec=SimpleNamespace(time=SimpleNamespace(statement_answer_ms=0, near_limit_percent=90, first_answer_ms=0)),
        answer_used=spent(141.4, judge=56.4), bot_turns=3, _scaled=lambda ms: int(ms * MS),
        _warn=lambda key, kind, message, rule="", **evidence: warned.append((message, evidence)))
    Judging._timing(judge, int(141.4 * MS), 90 * MS)  # 85.0 of 90 ms: 94%
    [(message, evidence)] = warned
    assert evidence["limit_percent"] == 94 and evidence["own_ms"] == 85.0
    assert "its own time, 85.0 ms, is 94% of the 90 ms it had" in message
    numbers_are_fields(message, evidence)


class MeteredBot:
    """Hands over an answer line at `answer_ms`; its use of the machine is `after`."""

    stderr_tail: list[str] = []

    def __init__(self, answer_ms: float, after: Usage) -> None:
        self.t_ns = int(answer_ms * MS)
        self.after = after
        self.hold = SimpleNamespace(meter=None)  # no meter: no thread to look at

    def read_line(self, deadline_ns: int) -> process.Read:
        return process.Read("line", b"e2e4", self.t_ns)

    def usage(self, fresh: bool = False) -> Usage:
        return self.after


def referee() -> Referee:
    spec = specmod.load(specmod.spec_path_for("chess"))
    module = rules_module(spec.game.rules)
    ref = Referee(GameConfig(spec=spec, rules=module.make_rules(spec.rules), rules_module=module,
                             argv=["bot"], seat=0, seed=1))
    ref.bot_turns = 2
    return ref


def test_the_referees_busy_machine_and_slow_findings_say_what_their_json_holds():
    """An answer at 250.3 ms of 100: the bot's one thread waited 65.1 ms, the judge 86.6 ms.
    The busy_machine WARN and the slow WARN that follow it print only figures their JSON
    has; a finding about something else meanwhile gets none of the answer's figures."""
    ref = referee()
    before = Usage(0, 0, {7: (0, 0)}, 0, 0, 0)
    after = Usage(0, 12 * MS, {7: (12 * MS, int(65.1 * MS))}, 0, 1000 * MS, int(86.6 * MS))
    ref.bot = MeteredBot(250.3, after)  # type: ignore[assignment]
    r, text, elapsed_ns = ref._read_answer(0, 100 * MS, "the answer limit", before)
    ref.answer_ms = elapsed_ns / MS
    ref._judged_answer(r, text, elapsed_ns, 100 * MS)
    busy, slow = ref.report.findings
    assert (busy.kind, slow.kind) == ("busy_machine", "slow")
    for finding in (busy, slow):
        data = finding.to_json()
        assert {name: data[name] for name in TIME_FIELDS} == {
            "elapsed_ms": pytest.approx(250.3), "own_ms": 98.6, "machine_ms": 151.7, "bot_wait_ms": 65.1,
            "judge_wait_ms": 86.6, "others_cpu_ms": 988.0, "thread_cpu_ms": 12.0, "throttled_ms": 0.0,
            "cpu_ms": 12.0, "wait_ms": 65.1}
        numbers_are_fields(data["message"], data)
    assert slow.limit_percent == 99 and "its own time, 98.6 ms, is 99% of the 100 ms it had" in slow.message
    other = ref._finding("unexpected_output", "fail", "a line after the answer", elapsed_ms=260.0)
    assert all(getattr(other, name) is None for name in TIME_FIELDS if name != "elapsed_ms")
    placed_at = placed(ref._finding("file_operation", "warn", "created ./x"), None)
    assert all(getattr(placed_at, name) is None for name in TIME_FIELDS)


def test_a_late_answer_says_how_much_of_its_time_was_its_own():
    """Late by itself on a busy machine: the timeout's message names the machine's part and
    the bot's own time, each a field of its JSON."""
    ref = referee()
    before = Usage(0, 0, {7: (0, 0)}, 0, 0, 0)
    after = Usage(0, 150 * MS, {7: (150 * MS, 40 * MS)}, 0, 1000 * MS, 0)
    ref.bot = MeteredBot(260.0, after)  # type: ignore[assignment]
    with pytest.raises(Exception) as info:
        ref._read_answer(0, 100 * MS, "the answer limit", before)
    finding = info.value.finding  # type: ignore[attr-defined]
    assert finding.kind == "timeout" and finding.limit_ms == 100.0
    assert finding.message == ("answered 'e2e4' after 260.0 ms: over the 100 ms it had (the answer limit); the "
                               "machine kept 40.0 ms of it from the answer (a thread of the bot waited 40.0 ms "
                               "for a CPU): its own time, 220.0 ms, is still over it")
    numbers_are_fields(finding.message, finding.to_json())


def test_accountings_quota_finding_has_its_figures():
    found = []
    judge = SimpleNamespace(envelope=SimpleNamespace(cpu_share=0), spec=SimpleNamespace(severity={"cpu_share": "fail"}),
                            _finding=lambda kind, severity, message, **f: SimpleNamespace(message=message, **f),
                            _cpu_share=lambda finding, bot_usable=True: found.append(finding))
    Accounting._throttled(judge, spent(104, throttled=5, wait=5), 104 * MS, 100 * MS, "the answer limit", "e2e4")
    [finding] = found
    numbers_are_fields(finding.message, vars(finding))
