"""Where this process makes its cgroups: prototest's own cgroup of each hierarchy, found
from /proc/self/mountinfo and /proc/self/cgroup (never fixed paths), and made ready.

cgroup v1 has a hierarchy per controller (cpu and cpuacct are often mounted together);
the group is a folder in each one used. cgroup v2 has one hierarchy; a child gets a
controller only when its parent lists it in `cgroup.subtree_control`, and a cgroup with
processes of its own cannot hand memory, cpu or pids to children (the "no internal
processes" rule): when prototest's own cgroup holds only prototest, `_prepare_v2` moves
prototest into a leaf beside its bots' groups (`prototest-<pid>/judge`). `_probe` tries
v2, then v1, with a test group (`prototest.sandbox.cgroups` makes it) and says why
neither works when none does.
"""

from __future__ import annotations

import errno
import os
import sys
from dataclasses import dataclass
from typing import Callable

#: v1 controllers a group needs (cpu only when a quota is set), v2 controllers.
_V1_CONTROLLERS = ("cpuacct", "memory", "pids", "cpu")
_V2_CONTROLLERS = ("cpu", "memory", "pids")
_PREFIX = "prototest-"

@dataclass
class _Place:
    """Where this process makes its groups: our own cgroup's folder in each hierarchy."""

    version: int
    #: v1: controller -> folder (co-mounted controllers share one); v2: {"": folder}.
    bases: dict[str, str]
    #: v2: prototest moved itself into this leaf to free its cgroup (the parent's own).
    moved_to: str = ""


# -- where the cgroups are ----------------------------------------------------------------

def _unescape(text: str) -> str:
    """A mountinfo field: spaces, tabs, newlines and backslashes are octal escapes."""
    if "\\" not in text:
        return text
    out, i = [], 0
    while i < len(text):
        if text[i] == "\\" and len(text[i + 1:i + 4]) == 3 and text[i + 1:i + 4].isdigit():
            out.append(chr(int(text[i + 1:i + 4], 8)))
            i += 4
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def parse_mountinfo(text: str) -> tuple[dict[str, tuple[str, str]], tuple[str, str] | None]:
    """cgroup mounts in /proc/self/mountinfo: v1 {controller: (mount point, root)} (the
    first mount of each) and the v2 mount (mount point, root), or None."""
    v1: dict[str, tuple[str, str]] = {}
    v2: tuple[str, str] | None = None
    for line in text.splitlines():
        fields = line.split()
        if "-" not in fields:
            continue
        dash = fields.index("-")
        if dash < 5 or len(fields) < dash + 4:
            continue
        root, point = _unescape(fields[3]), _unescape(fields[4])
        fstype, options = fields[dash + 1], fields[dash + 3].split(",")
        if fstype == "cgroup2" and v2 is None:
            v2 = (point, root)
        elif fstype == "cgroup":
            for option in options:
                if option not in ("rw", "ro") and "=" not in option:
                    v1.setdefault(option, (point, root))
    return v1, v2


def parse_proc_cgroup(text: str) -> tuple[dict[str, str], str | None]:
    """/proc/self/cgroup: v1 {controller: path} and the v2 path (or None)."""
    v1: dict[str, str] = {}
    v2: str | None = None
    for line in text.splitlines():
        parts = line.split(":", 2)
        if len(parts) != 3:
            continue
        _, controllers, path = parts
        if parts[0] == "0" and controllers == "":
            v2 = path
        else:
            for controller in controllers.split(","):
                if controller and not controller.startswith("name="):
                    v1[controller] = path
    return v1, v2


def _folder(mount: tuple[str, str], path: str) -> str | None:
    """Our cgroup's folder under a mount (None when the mount does not show it: a bind
    mount of another part of the hierarchy)."""
    point, root = mount
    if root != "/":
        if path != root and not path.startswith(root.rstrip("/") + "/"):
            return None
        path = path[len(root):]
    return os.path.join(point, path.lstrip("/")).rstrip("/") or "/"


def locate(mountinfo: str, proc_cgroup: str) -> tuple[dict[str, str], str | None, str]:
    """Our own cgroup's folders: v1 {controller: folder} for the controllers we use, the
    v2 folder (or None), and what is missing for v1 ("" when all is there)."""
    mounts_v1, mount_v2 = parse_mountinfo(mountinfo)
    paths_v1, path_v2 = parse_proc_cgroup(proc_cgroup)
    v1: dict[str, str] = {}
    lacking = []
    for controller in _V1_CONTROLLERS:
        if controller in mounts_v1 and controller in paths_v1:
            folder = _folder(mounts_v1[controller], paths_v1[controller])
            if folder is not None:
                v1[controller] = folder
                continue
        lacking.append(controller)
    v2 = _folder(mount_v2, path_v2) if mount_v2 and path_v2 is not None else None
    why = f"no cgroup v1 hierarchy of ours for {', '.join(lacking)}" if lacking else ""
    return v1, v2, why


# -- probing and preparing ----------------------------------------------------------------

def _probe(try_place: Callable[[_Place], None]) -> tuple[str, _Place | None]:
    """"" and the place where `try_place` (a test group made, joined and removed) worked,
    or why no place did (one line), v2 tried first."""
    if not sys.platform.startswith("linux"):
        return "cgroups are a Linux feature", None
    try:
        mountinfo = _read_text("/proc/self/mountinfo")
        own = _read_text("/proc/self/cgroup")
    except OSError as exc:
        return f"cannot read /proc/self ({exc.strerror})", None
    v1, v2, v1_why = locate(mountinfo, own)
    reasons = []
    candidates: list[tuple[str, object]] = []
    if v2 is not None:
        candidates.append(("v2", v2))
    if not v1_why:
        candidates.append(("v1", v1))
    elif v1:
        reasons.append(f"cgroup v1: {v1_why}")
    for kind, where in candidates:
        place = None
        try:
            place = _prepare_v2(where) if kind == "v2" else _Place(1, dict(where))  # type: ignore[arg-type]
            try_place(place)
            return "", place
        except OSError as exc:
            reasons.append(f"cgroup {kind}: {_why_not(exc)}")
            if place is not None and place.moved_to:
                _move_back(place)
    if not candidates and not reasons:
        reasons.append("no cgroup file system mounted")
    return "; ".join(reasons), None


def _why_not(exc: OSError) -> str:
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        who = "root" if os.geteuid() == 0 else "not root"
        return f"{who} and no delegated subtree ({exc.strerror}: {exc.filename or exc})"
    return str(exc) if exc.filename is None else f"{exc.strerror}: {exc.filename}"


def _prepare_v2(base: str) -> _Place:
    """Make sure our v2 cgroup can hand cpu, memory and pids to children."""
    have = _read_text(os.path.join(base, "cgroup.controllers")).split()
    lacking = [c for c in _V2_CONTROLLERS if c not in have]
    if lacking:
        raise OSError(errno.ENOTSUP, f"our cgroup {base} lacks the {', '.join(lacking)} controller(s)"
                                     " (not enabled by its parent: no delegated subtree)")
    place = _Place(2, {"": base})
    enabled = _read_text(os.path.join(base, "cgroup.subtree_control")).split()
    if all(c in enabled for c in _V2_CONTROLLERS):
        return place
    try:
        _enable_v2(base)
        return place
    except OSError as exc:
        if exc.errno != errno.EBUSY:
            raise
    # Processes in our cgroup: only prototest itself may be moved out of the way.
    procs = _read_text(os.path.join(base, "cgroup.procs")).split()
    if procs != [str(os.getpid())]:
        raise OSError(errno.EBUSY, f"our cgroup {base} holds other processes ({len(procs)}), so it cannot hand"
                                   " cpu, memory and pids to a child (the no-internal-processes rule); start"
                                   " prototest in a cgroup of its own")
    parent = os.path.join(base, f"{_PREFIX}{os.getpid()}")
    leaf = os.path.join(parent, "judge")
    os.makedirs(leaf, exist_ok=True)
    _write(os.path.join(leaf, "cgroup.procs"), "0")
    try:
        _enable_v2(base)
    except OSError:
        _write(os.path.join(base, "cgroup.procs"), "0")  # back where we were
        _rmdir_quietly(leaf)
        _rmdir_quietly(parent)
        raise
    place.moved_to = leaf
    return place


def _move_back(place: _Place) -> None:
    """Undo _prepare_v2's move of prototest into a leaf (best effort)."""
    base = place.bases[""]
    for step in (lambda: _write(os.path.join(base, "cgroup.subtree_control"),
                                " ".join("-" + c for c in _V2_CONTROLLERS)),
                 lambda: _write(os.path.join(base, "cgroup.procs"), "0"),
                 lambda: os.rmdir(place.moved_to),
                 lambda: os.rmdir(os.path.dirname(place.moved_to))):
        try:
            step()
        except OSError:
            pass


def _enable_v2(folder: str) -> None:
    _write(os.path.join(folder, "cgroup.subtree_control"), " ".join("+" + c for c in _V2_CONTROLLERS))


# -- files --------------------------------------------------------------------------------

def _rmdir_quietly(folder: str) -> None:
    try:
        os.rmdir(folder)
    except OSError:
        pass


def _read_text(path: str) -> str:
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def _write(path: str, text: str) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC)
    try:
        os.write(fd, text.encode())
    finally:
        os.close(fd)
