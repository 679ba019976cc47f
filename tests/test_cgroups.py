"""Per-bot cgroups: the kernel enforces the limits on a bot started through the keeper.

Skipped where cgroups.missing() says this machine cannot make them, unless
PROTOTEST_REQUIRE_CGROUP=1, where that is a failure.
"""

from __future__ import annotations

import os
import sys
import time

import pytest

from conftest import RUN_TOKEN
from prototest.sandbox import cgroups, keeper, process

MB = 1 << 20
REQUIRED = os.environ.get("PROTOTEST_REQUIRE_CGROUP") == "1"


def need_cgroups() -> None:
    why = cgroups.missing()
    if why:
        if REQUIRED:
            pytest.fail(f"PROTOTEST_REQUIRE_CGROUP=1, but no per-bot cgroups here: {why}")
        pytest.skip(f"no per-bot cgroups here: {why}")
    if not keeper.supported():
        pytest.skip("no keeper on this system")


@pytest.fixture
def make_group():
    made = []

    def make(**limits) -> cgroups.Group:
        need_cgroups()
        group = cgroups.Group.create(cgroups.Limits(**limits))
        made.append(group)
        return group

    yield make
    for group in made:
        group.remove()


def env() -> dict[str, str]:
    key, _, value = RUN_TOKEN.partition("=")
    return {**process.controlled_env(), key: value}


def start(group_or_files, code: str) -> keeper.Started:
    files = group_or_files.join_files if isinstance(group_or_files, cgroups.Group) else group_or_files
    return keeper.start([sys.executable, "-c", code], env(), None, watch_files=False, cgroup_join=files)


def finish(started: keeper.Started, timeout: float = 20) -> tuple[int, bytes, bytes]:
    started.proc.stdin.close()
    out = started.proc.stdout.read()
    err = started.proc.stderr.read()
    code = started.proc.wait(timeout)
    started.proc.stdout.close()
    started.proc.stderr.close()
    if started.report_fd is not None:
        os.close(started.report_fd)
    return code, out, err


def fill(megabytes: int) -> str:
    # bytes * n writes every page (a bytearray of zeros would not be charged until touched)
    return f"import sys; b = b'x' * ({megabytes} << 20); print('filled', flush=True); sys.stdin.read()"


# -- the kernel's limits ----------------------------------------------------------------------

def test_over_the_memory_limit_the_bot_is_oom_killed(make_group):
    group = make_group(memory_bytes=64 * MB)
    started = start(group, fill(100))
    code, out, _ = finish(started)
    assert started.cgroup_error == ""
    assert code == -9 and b"filled" not in out
    assert group.oom_kills() >= 1
    assert group.memory_peak() >= 60 * MB


def test_within_the_memory_limit_the_bot_lives_and_its_peak_is_shown(make_group):
    group = make_group(memory_bytes=64 * MB)
    code, out, _ = finish(start(group, fill(30)))
    assert (code, out.strip()) == (0, b"filled")
    assert group.oom_kills() == 0
    assert group.memory_peak() >= 30 * MB
    assert group.memory_now() is not None


def test_past_the_pids_limit_threads_are_refused(make_group):
    group = make_group(pids=20)
    code = ("import threading, sys\n"
            "stop = threading.Event(); started = 0\n"
            "try:\n"
            "    for _ in range(40):\n"
            "        threading.Thread(target=stop.wait, daemon=True).start(); started += 1\n"
            "except RuntimeError as exc:\n"
            "    print(exc, file=sys.stderr)\n"
            "print(started, flush=True); stop.set()\n")
    status, out, err = finish(start(group, code))
    assert status == 0
    assert b"can't start new thread" in err
    assert 15 <= int(out) <= 19  # 20 tasks: the main thread and 19 more
    assert group.pids_refused() >= 1
    assert group.pids_peak() in (None, 20)


def test_a_cpu_quota_throttles_the_bot_to_its_share(make_group):
    group = make_group(cpu_quota_us=30_000, cpu_period_us=100_000)
    busy = "import time\nt = time.monotonic()\nwhile time.monotonic() - t < 0.5: pass\n"
    t0 = time.monotonic()
    code, _, _ = finish(start(group, busy))
    wall_ns = (time.monotonic() - t0) * 1e9
    assert code == 0
    share = group.cpu_ns() / wall_ns
    # held to its 30 % share (a busy machine can only give it less: no lower bound), by the
    # quota: throttled, unless the machine never gave it even its share in any period
    assert 0 < share <= 0.5, (group.cpu_ns(), wall_ns)
    assert (group.throttled_ns() > 0 and group.nr_throttled() > 0) or share < 0.3, (share, group.nr_throttled())


# -- joining ------------------------------------------------------------------------------------

@pytest.mark.parametrize("namespace", [True, False], ids=["pid-namespace", "no-namespace"])
def test_the_bot_and_its_children_are_in_the_group_from_the_start(make_group, monkeypatch, namespace):
    group = make_group()
    if not namespace:
        monkeypatch.setattr(keeper, "_namespace", "off for this test")
    elif keeper.namespace_missing():
        pytest.skip(f"no PID namespace here: {keeper.namespace_missing()}")
    code = ("import os, subprocess, sys\n"
            "child = subprocess.Popen([sys.executable, '-c', 'import sys; sys.stdin.read()'])\n"
            "print(child.pid, flush=True); sys.stdin.readline()\n")
    started = start(group, code)
    try:
        assert started.cgroup_error == ""
        assert started.containment == ("pid-namespace" if namespace else "keeper")
        started.proc.stdout.readline()
        procs = group.pids()
        assert started.bot_pid in procs and len(procs) == 2
        assert set(procs) <= set(group.tids())
    finally:
        finish(started)


def test_a_failed_join_is_reported_and_the_bot_starts_anyway():
    if not keeper.supported():
        pytest.skip("no keeper on this system")
    code, out, _ = finish(missing := start(["/nonexistent/prototest/cgroup.procs"], "print('up')"))
    assert (code, out.strip()) == (0, b"up")
    assert "/nonexistent/prototest/cgroup.procs" in missing.cgroup_error


# -- the end ------------------------------------------------------------------------------------

def test_remove_kills_what_is_left_and_leaves_no_folder(make_group):
    group = make_group(pids=50)
    started = start(group, "import os, subprocess, sys\n"
                           "subprocess.Popen(['sleep', '60'], start_new_session=True)\n"
                           "print('up', flush=True); sys.stdin.read()\n")
    try:
        assert started.proc.stdout.readline().strip() == b"up"
        left = group.pids()
        assert len(left) == 2
        group.remove()
    finally:
        code, _, _ = finish(started)  # the bot reads stdin to its end: it ends, if remove() failed
    assert code == -9
    assert not any(os.path.exists(folder) for folder in group.folders)
    assert not any(os.path.exists(parent) for parent in group._parents)  # no other group of ours
    for pid in left:
        assert not os.path.exists(f"/proc/{pid}") or _state(pid) == "Z"
    group.remove()  # twice: nothing happens


def _state(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return ""


def test_an_empty_leftover_of_a_dead_prototest_is_removed(make_group):
    need_cgroups()
    place = cgroups._probed[1]
    dead = os.fork()
    if dead == 0:
        os._exit(0)
    os.waitpid(dead, 0)
    leftovers = [os.path.join(base, f"prototest-{dead}", "bot-1") for base in set(place.bases.values())]
    for folder in leftovers:
        os.makedirs(folder)
    try:
        cgroups._cleaned_for = None
        make_group()
        assert not any(os.path.exists(os.path.dirname(folder)) for folder in leftovers)
    finally:
        for folder in leftovers:
            for path in (folder, os.path.dirname(folder)):
                if os.path.exists(path):
                    os.rmdir(path)


def test_prototest_no_cgroup_turns_it_off(monkeypatch):
    monkeypatch.setenv("PROTOTEST_NO_CGROUP", "1")
    assert cgroups.missing() == "turned off by PROTOTEST_NO_CGROUP"
    with pytest.raises(OSError):
        cgroups.Group.create(cgroups.Limits())


# -- reading the hierarchies (fake files) ---------------------------------------------------------

MOUNTINFO_V1 = """\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime shared:9 - cgroup cgroup rw,cpu,cpuacct
35 31 0:32 /outer /sys/fs/cgroup/mem\\040ory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup rw,xattr,name=systemd
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw,nsdelegate
"""
PROC_CGROUP_V1 = """\
12:pids:/user.slice
4:memory:/outer/job/7
3:cpu,cpuacct:/
1:name=systemd:/user.slice/session-3.scope
0::/user.slice/session-3.scope
"""


def test_v1_hierarchies_are_found_from_mountinfo_co_mounted_or_not():
    v1, v2, why = cgroups.locate(MOUNTINFO_V1, PROC_CGROUP_V1)
    assert why == ""
    assert v1 == {"cpu": "/sys/fs/cgroup/cpu,cpuacct", "cpuacct": "/sys/fs/cgroup/cpu,cpuacct",
                  "memory": "/sys/fs/cgroup/mem ory/job/7", "pids": "/sys/fs/cgroup/pids/user.slice"}
    assert v2 == "/sys/fs/cgroup/unified/user.slice/session-3.scope"
    _, _, why = cgroups.locate(MOUNTINFO_V1, PROC_CGROUP_V1.replace("4:memory:/outer/job/7", "4:memory:/elsewhere"))
    assert why == "no cgroup v1 hierarchy of ours for memory"


def test_a_v2_only_machine_is_found():
    mountinfo = "25 30 0:22 / /sys/fs/cgroup rw,nosuid - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n"
    v1, v2, why = cgroups.locate(mountinfo, "0::/user.slice/user-1000.slice/session-2.scope\n")
    assert v2 == "/sys/fs/cgroup/user.slice/user-1000.slice/session-2.scope"
    assert v1 == {} and "cpuacct" in why


def _fake(folder, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).write_text(text)


def test_v2_figures_are_read_from_its_files(tmp_path):
    _fake(tmp_path, {
        "cpu.stat": "usage_usec 1500\nuser_usec 1000\nsystem_usec 500\nnr_periods 40\nnr_throttled 7\n"
                    "throttled_usec 2500\nnr_bursts 0\nburst_usec 0\n",
        "memory.peak": "73400320\n", "memory.current": "1048576\n",
        "memory.events": "low 0\nhigh 0\nmax 12\noom 2\noom_kill 1\noom_group_kill 0\n",
        "pids.events": "max 3\n", "pids.peak": "20\n",
        "cgroup.threads": "101\n102\n103\n", "cgroup.procs": "101\n",
    })
    group = cgroups.Group._attach(2, {"": str(tmp_path)})
    assert (group.cpu_ns(), group.throttled_ns(), group.nr_throttled()) == (1_500_000, 2_500_000, 7)
    assert (group.memory_peak(), group.memory_now(), group.oom_kills()) == (73400320, 1048576, 1)
    assert (group.pids_refused(), group.pids_peak()) == (3, 20)
    assert (group.tids(), group.pids()) == ([101, 102, 103], [101])
    (tmp_path / "cpu.stat").write_text("usage_usec 9000\nnr_throttled 8\nthrottled_usec 3000\n")  # read afresh
    assert (group.cpu_ns(), group.throttled_ns()) == (9_000_000, 3_000_000)
    group.remove()
    assert (tmp_path / "cpu.stat").exists()


def test_v2_without_memory_peak_or_pids_peak_gives_none(tmp_path):
    _fake(tmp_path, {"cpu.stat": "usage_usec 1\n", "cgroup.threads": "", "cgroup.procs": ""})
    group = cgroups.Group._attach(2, {"": str(tmp_path)})
    assert (group.memory_peak(), group.memory_now(), group.pids_peak(), group.oom_kills()) == (None, None, None, 0)
    assert (group.throttled_ns(), group.tids()) == (0, [])
    group.remove()


def test_v1_figures_are_read_from_its_files(tmp_path):
    for name in ("cpu", "cpuacct", "memory", "pids"):
        (tmp_path / name).mkdir()
    _fake(tmp_path / "cpu", {"cpu.stat": "nr_periods 9\nnr_throttled 4\nthrottled_time 345100000\n"})
    _fake(tmp_path / "cpuacct", {"cpuacct.usage": "152000000\n", "tasks": "7\n8\n", "cgroup.procs": "7\n"})
    _fake(tmp_path / "memory", {"memory.max_usage_in_bytes": "31457280\n", "memory.usage_in_bytes": "4096\n",
                                "memory.oom_control": "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n"})
    _fake(tmp_path / "pids", {"pids.events": "max 5\n", "pids.peak": "20\n"})
    group = cgroups.Group._attach(1, {name: str(tmp_path / name) for name in ("cpu", "cpuacct", "memory", "pids")})
    assert (group.cpu_ns(), group.throttled_ns(), group.nr_throttled()) == (152_000_000, 345_100_000, 4)
    assert (group.memory_peak(), group.memory_now(), group.oom_kills()) == (31457280, 4096, 2)
    assert (group.pids_refused(), group.pids_peak(), group.tids()) == (5, 20, [7, 8])
    group.remove()


def test_v2_needs_the_controllers_delegated(tmp_path):
    _fake(tmp_path, {"cgroup.controllers": "cpu pids\n", "cgroup.subtree_control": ""})
    with pytest.raises(OSError, match="lacks the memory controller"):
        cgroups._prepare_v2(str(tmp_path))
    _fake(tmp_path, {"cgroup.controllers": "cpuset cpu io memory pids\n", "cgroup.subtree_control": "cpu memory pids\n"})
    place = cgroups._prepare_v2(str(tmp_path))
    assert (place.version, place.bases, place.moved_to) == (2, {"": str(tmp_path)}, "")
