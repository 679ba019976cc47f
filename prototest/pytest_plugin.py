"""The pytest plugin of `prototest.testing.fuzz_test` (registered by the package's
`pytest11` entry point, so pytest loads it wherever prototest is installed).

It does one thing: what each `fuzz_test` campaign played (its summary: examples, answers,
opponent styles, situations, verdict) goes with the test's report as a user property named
`prototest fuzz` (pytest-xdist carries it from its workers; `--junitxml` writes it), and the
passing campaigns' summaries are shown at the end of the run, in a section of their own, so
a passing campaign says what it played without `-rP`. (A failing one shows it as its captured
output, under its reproducer.) Sessions that run no `fuzz_test` see nothing of it.
"""

from __future__ import annotations

import sys

import pytest

PROPERTY = "prototest fuzz"


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    testing = sys.modules.get("prototest.testing")
    if call.when != "call" or testing is None or not testing.PLAYED:
        return
    report = outcome.get_result()
    report.user_properties.append((PROPERTY, "\n".join(testing.PLAYED)))
    testing.PLAYED.clear()


def pytest_terminal_summary(terminalreporter) -> None:
    shown = [(report.nodeid, value) for report in terminalreporter.stats.get("passed", [])
             for name, value in getattr(report, "user_properties", ()) if name == PROPERTY]
    if not shown:
        return
    terminalreporter.section("prototest fuzz: what the passing campaigns played")
    for nodeid, text in shown:
        terminalreporter.write_line(nodeid)
        for line in str(text).splitlines():
            terminalreporter.write_line("  " + line)
