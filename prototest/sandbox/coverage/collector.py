"""prototest's coverage collector for a Python bot (standard library only).

prototest copies this file, as `sitecustomize.py`, into a folder of its own under
/dev/shm and puts that folder first on the bot's PYTHONPATH (see
prototest.sandbox.coverage.inject); Python's `site` imports it before the bot's code.
It never prints and swallows its own errors: a bot runs exactly as it would without it,
only slower by the cost of recording.

What it records: the lines of the bot's own files (under PROTOTEST_COVERAGE_ROOT, not
the standard library nor site-packages) that ran, each line once per process, as a byte
set to 1 in an AFL-style map: the file PROTOTEST_COVERAGE_MAP, mapped shared, one byte
a slot, slot = crc32("<file>:<line>") modulo the map's size. The first time it records
a file, it appends "F\\t<file>\\n" to PROTOTEST_COVERAGE_INDEX, so that prototest can name
the files and functions (it compiles them itself). Where it cannot serve (the bot has a
sitecustomize of its own), it appends "X\\t<reason>\\n" instead and records nothing.

With sys.monitoring (Python 3.12+) each line location calls back once and is then
disabled; otherwise sys.settrace traces only the frames of the bot's own code, and a
code object stops being traced once every line of it has run; a module that is not the
bot's is imported with the tracer off (see _untraced_imports: a frame of it shows in the
traceback of a failed import, its only trace).
"""


def _prototest_coverage():
    import os
    import sys

    env = os.environ
    here = os.path.dirname(os.path.abspath(__file__))
    # our folder off the path again: the bot's imports find what they found before
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or os.curdir) != here]
    map_path, index_path = env.get("PROTOTEST_COVERAGE_MAP"), env.get("PROTOTEST_COVERAGE_INDEX")
    root = env.get("PROTOTEST_COVERAGE_ROOT")
    if not map_path or not index_path or not root:
        return
    index_fd = os.open(index_path, os.O_WRONLY | os.O_APPEND | os.O_CLOEXEC)

    def note(line):
        os.write(index_fd, line.encode("utf-8", "surrogateescape"))

    # A sitecustomize of the bot's (or its environment's) own runs as it would without
    # us, and coverage is off; the interpreter's own (Debian's, in the standard library)
    # runs after us.
    import importlib.machinery

    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", sys.path)
    if spec is not None and spec.origin:
        import importlib.util
        import sysconfig

        stdlib = {os.path.realpath(sysconfig.get_path(name)) for name in ("stdlib", "platstdlib")}
        own = os.path.realpath(os.path.dirname(spec.origin)) not in stdlib
        module = importlib.util.module_from_spec(spec)
        sys.modules["sitecustomize"] = module
        if own:
            note("X\tthe bot has a sitecustomize of its own (%s), which runs instead of the collector\n"
                 % spec.origin)
            os.close(index_fd)
            return lambda: spec.loader.exec_module(module)  # its errors are site's to say, as before
        try:
            spec.loader.exec_module(module)
        except Exception:
            pass

    import mmap
    import zlib

    fd = os.open(map_path, os.O_RDWR | os.O_CLOEXEC)
    try:
        cov = mmap.mmap(fd, 0)
    finally:
        os.close(fd)
    size = len(cov)
    crc32 = zlib.crc32
    root = os.path.abspath(root).rstrip(os.sep) + os.sep
    getcwd, join, normpath = os.getcwd, os.path.join, os.path.normpath
    files = {}  # co_filename -> its absolute path (a file of the bot's) or None

    def mine(filename):
        """The file's absolute path if it is one of the bot's own, else None."""
        if filename and filename[0] != "<":
            absolute = normpath(join(getcwd(), filename)) if filename[0] != os.sep else filename
            if (absolute.startswith(root) and not absolute.startswith(here)
                    and os.sep + "site-packages" + os.sep not in absolute
                    and os.sep + "dist-packages" + os.sep not in absolute):
                return absolute
        return None

    def own(filename):
        path = mine(filename)
        if path is not None:
            note("F\t%s\n" % path)
        files[filename] = path
        return path

    def hit(path, line):
        cov[crc32(("%s:%d" % (path, line)).encode("utf-8", "surrogateescape")) % size] = 1

    monitoring = getattr(sys, "monitoring", None)
    if monitoring is not None:
        tool = next(i for i in (monitoring.COVERAGE_ID, 4, 3, 1) if monitoring.get_tool(i) is None)
        disable = monitoring.DISABLE
        monitoring.use_tool_id(tool, "prototest")

        def on_line(code, line):
            try:
                filename = code.co_filename
                path = files[filename] if filename in files else own(filename)
                if path is not None:
                    hit(path, line)
            except Exception:
                pass
            return disable

        monitoring.register_callback(tool, monitoring.events.LINE, on_line)
        monitoring.set_events(tool, monitoring.events.LINE)
        return

    import threading

    codes = {}  # code object -> its local tracer (None: not the bot's, or every line ran)

    def tracer_of(code):
        path = files[code.co_filename] if code.co_filename in files else own(code.co_filename)
        if path is None:
            return None
        todo = {line for _, _, line in code.co_lines() if line is not None}

        def local(frame, event, arg):
            try:
                if event == "line":
                    line = frame.f_lineno
                    if line in todo:
                        todo.discard(line)
                        hit(path, line)
                        if not todo:
                            codes[code] = None
            except Exception:
                pass
            return local

        return local

    def tracer(frame, event, arg):
        try:
            code = frame.f_code
            if code in codes:
                return codes[code]
            local = codes[code] = tracer_of(code)
            return local
        except Exception:
            return None

    threading.settrace(tracer)
    sys.settrace(tracer)
    _untraced_imports(sys, mine)


def _untraced_imports(sys, mine):
    """Under sys.settrace every call of every function calls the tracer, the bot's or not:
    importing a large library (python-chess: 0.25 s alone, 1.1 s traced) would cost each
    bot start that much more. A module not yet loaded whose top-level package is not the
    bot's is imported with the tracer off (in this thread, until it is loaded); the bot's
    own modules, and everything else, are traced as before."""
    import builtins
    import importlib.machinery

    real_import = builtins.__import__
    modules = sys.modules
    gettrace, settrace = sys.gettrace, sys.settrace
    find_spec = importlib.machinery.PathFinder.find_spec
    outside = {}  # top-level module name -> True: not the bot's

    def foreign(top):
        if top not in outside:
            try:
                spec = None if top in sys.builtin_module_names else find_spec(top)
                places = [getattr(spec, "origin", None)] + list(getattr(spec, "submodule_search_locations", None)
                                                                or ())
                outside[top] = not any(p and mine(p) for p in places)
            except Exception:
                outside[top] = False
        return outside[top]

    def __import__(name, globals=None, locals=None, fromlist=(), level=0):
        if level or name in modules:
            return real_import(name, globals, locals, fromlist, level)
        tracer = gettrace()
        if tracer is None or not foreign(name.partition(".")[0]):
            return real_import(name, globals, locals, fromlist, level)
        settrace(None)
        try:
            return real_import(name, globals, locals, fromlist, level)
        finally:
            settrace(tracer)

    builtins.__import__ = __import__


_prototest_own = None
try:
    _prototest_own = _prototest_coverage()
except Exception:
    pass
del _prototest_coverage, _untraced_imports
if _prototest_own is not None:
    _prototest_own()
