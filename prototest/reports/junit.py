"""The JUnit XML reports for CI, of check, match and fuzz (and of replay, record --update
and merged shards): a test case per check per game (per bot, in a match), a failure's text
its findings with their evidence, warnings in system-out, the figures as properties."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..judge.findings import CHECK_TITLES, CHECKS
from ..judge.game import CheckRun
from ..play import match as matchmod
from ..play.match import MatchRun, bot_name
from .figures import answer_figures, fuzz_resources, game_checks, resources, timing
from .summary import not_played_message
from .text import data_finding_lines, finding_lines, fuzz_warning_lines, reproducer_lines

if TYPE_CHECKING:  # a check's report never imports the fuzz machinery
    from ..play.fuzzrun import FuzzRun


def junit(run: CheckRun) -> ET.ElementTree:
    """One test case per check per game; warnings go to system-out."""
    suites = ET.Element("testsuites", name="prototest")
    suite = ET.SubElement(suites, "testsuite", name=f"prototest.{run.spec.name}")
    _resource_properties(suite, resources(run.games), timing(run.games))
    tests = failures = 0
    errors = 0
    for g in run.games:
        if g.interrupted is not None:
            errors += 1
            case = ET.SubElement(suite, "testcase", classname=f"prototest.{run.spec.name}.game",
                                 name=f"game {g.index} ({g.seat_name}): played to the end")
            ET.SubElement(case, "error", type="interrupted", message=f"interrupted by {g.reason} at ply {g.plies}")
            tests += 1
        for check in CHECKS:
            tests += 1
            case = ET.SubElement(suite, "testcase", classname=f"prototest.{run.spec.name}.{check}",
                                 name=f"game {g.index} ({g.seat_name}): {CHECK_TITLES[check]}")
            findings = [f for f in g.findings if f.check == check]
            fails = [f for f in findings if f.severity == "fail"]
            if fails:
                failures += 1
                failure = ET.SubElement(case, "failure", type=fails[0].kind, message=_xml_text(fails[0].message))
                failure.text = _xml_text("\n".join(line for f in fails for line in finding_lines(f)))
            if not fails and check == "legality" and game_checks(g)[check] == "none":
                ET.SubElement(case, "skipped", message="the bot played no move in this game")
            warns = [f for f in findings if f.severity == "warn"]
            if warns:
                out = ET.SubElement(case, "system-out")
                out.text = _xml_text("\n".join(line for f in warns for line in finding_lines(f)))
    for n in run.not_played:  # the run stopped before them: skipped, with why
        tests += 1
        case = ET.SubElement(suite, "testcase", classname=f"prototest.{run.spec.name}.game",
                             name=f"game {n.index} ({n.seat_name}): played")
        ET.SubElement(case, "skipped", message=_xml_text(not_played_message(run, n)))
    suite.set("tests", str(tests))
    suite.set("failures", str(failures))
    suite.set("skipped", str(len(run.not_played)))
    if run.interrupted is not None and not errors:  # stopped before or between games
        errors += 1
        tests += 1
        case = ET.SubElement(suite, "testcase", classname=f"prototest.{run.spec.name}.run",
                             name="every game played")
        ET.SubElement(case, "error", type="interrupted",
                      message=f"interrupted by {run.interrupted.name} after {len(run.games)} games")
    suite.set("errors", str(errors))
    ET.indent(suites)
    return ET.ElementTree(suites)


def _resource_properties(suite: ET.Element, res: dict[str, Any], times: dict[str, Any]) -> None:
    """The timing and resource figures, as the suite's properties (CI dashboards read them)."""
    props = ET.SubElement(suite, "properties")
    for key, value in [*((f"timing.{k}", v) for k, v in times.items()), *((f"resources.{k}", v) for k, v in res.items())]:
        if value not in (None, ""):
            ET.SubElement(props, "property", name=key, value=_xml_text(str(round(value, 3) if isinstance(value, float) else value)))


_XML_INVALID = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_text(text: str) -> str:
    """XML 1.0 cannot hold most control characters, even escaped: show them as \\xNN."""
    return _XML_INVALID.sub(lambda m: f"\\x{ord(m.group()):02x}", text)


def write_junit(run: CheckRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    junit(run).write(path, encoding="utf-8", xml_declaration=True)


# -- prototest match ---------------------------------------------------------------------------

def match_junit(run: MatchRun) -> ET.ElementTree:
    """One test suite per bot, one test case per check per game it played, as `check --junit` has them."""
    suites = ET.Element("testsuites", name="prototest")
    for bot, argv in enumerate(run.bots):
        name = matchmod.LETTERS[bot]
        suite = ET.SubElement(suites, "testsuite", name=f"prototest.play.match.{run.spec.name}.{name}")
        props = ET.SubElement(suite, "properties")
        ET.SubElement(props, "property", name="bot", value=_xml_text(bot_name(argv)))
        tests = failures = 0
        for g in run.games:
            first, second = run.names(g)
            if name not in (first, second):
                continue
            mine = g.findings if name == first else g.opponent_findings
            seat = run.spec.seat_title(g.seat if name == first else 1 - g.seat)
            for check in CHECKS:
                tests += 1
                case = ET.SubElement(suite, "testcase", classname=f"prototest.play.match.{run.spec.name}.{name}.{check}",
                                     name=f"game {g.index} ({name} as {seat}): {CHECK_TITLES[check]}")
                findings = [f for f in mine if f.check == check]
                fails = [f for f in findings if f.severity == "fail"]
                if fails:
                    failures += 1
                    failure = ET.SubElement(case, "failure", type=fails[0].kind,
                                            message=_xml_text(fails[0].message))
                    failure.text = _xml_text("\n".join(line for f in fails for line in finding_lines(f)))
                warns = [f for f in findings if f.severity == "warn"]
                if warns:
                    out = ET.SubElement(case, "system-out")
                    out.text = _xml_text("\n".join(line for f in warns for line in finding_lines(f)))
        suite.set("tests", str(tests))
        suite.set("failures", str(failures))
        suite.set("errors", "1" if run.interrupted is not None else "0")
    ET.indent(suites)
    return ET.ElementTree(suites)


def write_match_junit(run: MatchRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    match_junit(run).write(path, encoding="utf-8", xml_declaration=True)


# -- prototest fuzz ----------------------------------------------------------------------------

def fuzz_junit(run: FuzzRun) -> ET.ElementTree:
    """One test case per check over the whole run; a failure holds its reproducer."""
    name = run.target.spec.name
    suites = ET.Element("testsuites", name="prototest")
    suite = ET.SubElement(suites, "testsuite", name=f"prototest.play.fuzz.{name}")
    _resource_properties(suite, fuzz_resources(run), {"answers": len(run.answer_ms), **answer_figures(run.answer_ms)})
    failures = 0
    for check in CHECKS:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.play.fuzz.{name}.{check}",
                             name=f"{run.options.mode} mode, {run.examples} examples: {CHECK_TITLES[check]}")
        fails = [fl for fl in run.failures if fl.finding.check == check and fl.confirmed]
        if fails:
            failures += 1
            first = fails[0].finding
            element = ET.SubElement(case, "failure", type=first.kind, message=_xml_text(first.message))
            element.text = _xml_text("\n".join(
                line for fl in fails for line in reproducer_lines(fl.details, fl.finding)))
        warns = [f for f in run.warnings if f.check == check]
        cold = [fl for fl in run.failures if fl.finding.check == check and not fl.confirmed]
        if warns or cold:
            out = ET.SubElement(case, "system-out")
            out.text = _xml_text("\n".join([line for f in warns for line in fuzz_warning_lines(f)]
                                           + [line for fl in cold for line in reproducer_lines(fl.details, fl.finding)]))
    errors = 0
    if run.interrupted is not None:
        errors = 1
        case = ET.SubElement(suite, "testcase", classname=f"prototest.play.fuzz.{name}.run", name="every example run")
        ET.SubElement(case, "error", type="interrupted",
                      message=f"interrupted by {run.interrupted.name} after {run.examples} examples")
    suite.set("tests", str(len(CHECKS) + errors))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    ET.indent(suites)
    return ET.ElementTree(suites)


def write_fuzz_junit(run: FuzzRun, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fuzz_junit(run).write(path, encoding="utf-8", xml_declaration=True)


# -- replay, record --update, and merged shards ------------------------------------------------

def fixture_junit(data: dict[str, Any]) -> ET.ElementTree:
    """replay / record --update: one test case per fixture; a difference or a fault fails it."""
    command = data["command"]
    suites = ET.Element("testsuites", name="prototest")
    suite = ET.SubElement(suites, "testsuite", name=f"prototest.{command}")
    failures = 0
    for entry in data["fixtures"]:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.{command}", name=entry["fixture"])
        if entry.get("resources"):
            _resource_properties(case, entry["resources"], {})
        text = "\n".join([entry["game"], *entry.get("lines", [])])
        if entry["failed"]:
            failures += 1
            failure = ET.SubElement(case, "failure", type=entry.get("status", "failed"),
                                    message=_xml_text(f"{entry['verdict']}: {entry['game']}"))
            failure.text = _xml_text(text)
        else:
            ET.SubElement(case, "system-out").text = _xml_text(text)
    errors = [*data.get("errors", [])]
    if data.get("interrupted"):
        errors.append(f"interrupted by {data['interrupted']}")
    for line in errors:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.{command}.run", name=line[:80])
        ET.SubElement(case, "error", type="error", message=_xml_text(line))
    suite.set("tests", str(len(data["fixtures"]) + len(errors)))
    suite.set("failures", str(failures))
    suite.set("errors", str(len(errors)))
    ET.indent(suites)
    return ET.ElementTree(suites)


def write_fixture_junit(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fixture_junit(data).write(path, encoding="utf-8", xml_declaration=True)


def merged_fuzz_junit(data: dict[str, Any]) -> ET.ElementTree:
    """Shards of one fuzz campaign: one test case per check over every shard's examples."""
    name = data["game"]
    suites = ET.Element("testsuites", name="prototest")
    suite = ET.SubElement(suites, "testsuite", name=f"prototest.play.fuzz.{name}")
    _resource_properties(suite, data.get("resources") or {}, data.get("timing") or {})
    failures = 0
    for check in CHECKS:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.play.fuzz.{name}.{check}",
                             name=f"{data['mode']} mode, {data['examples']} examples in {len(data['shards'])} "
                                  f"shards: {CHECK_TITLES[check]}")
        mine = [f for f in data["findings"] if f.get("check") == check]
        fails = [f for f in mine if f["severity"] == "fail"]
        if fails:
            failures += 1
            element = ET.SubElement(case, "failure", type=fails[0]["kind"], message=_xml_text(fails[0]["message"]))
            element.text = _xml_text("\n".join(line for f in fails for line in data_finding_lines(f)))
        warns = [f for f in mine if f["severity"] != "fail"]
        if warns:
            ET.SubElement(case, "system-out").text = _xml_text(
                "\n".join(line for f in warns for line in data_finding_lines(f)))
    errors = 1 if data.get("interrupted") else 0
    if errors:
        case = ET.SubElement(suite, "testcase", classname=f"prototest.play.fuzz.{name}.run", name="every example run")
        ET.SubElement(case, "error", type="interrupted", message=f"interrupted by {data['interrupted']}")
    suite.set("tests", str(len(CHECKS) + errors))
    suite.set("failures", str(failures))
    suite.set("errors", str(errors))
    ET.indent(suites)
    return ET.ElementTree(suites)


def write_merged_fuzz_junit(data: dict[str, Any], path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    merged_fuzz_junit(data).write(path, encoding="utf-8", xml_declaration=True)
