"""prototest's coverage collector for a Python bot (standard library only).

prototest copies this file, as `sitecustomize.py`, into a folder of its own under
/dev/shm and puts that folder first on the bot's PYTHONPATH (see
prototest.sandbox.coverage.inject); Python's `site` imports it before the bot's code.
It never prints and swallows its own errors: a bot runs exactly as it would without it,
only slower by the cost of recording.

What it records: the lines of the bot's own files (under PROTOTEST_COVERAGE_ROOT, not
the standard library nor site-packages) that ran, each line once per process, as a byte
set to 1 in an AFL-style map: the file PROTOTEST_COVERAGE_MAP, mapped shared, one byte
a slot, slot = crc32("<file>:<line>") modulo three quarters of the map's size (the last
quarter holds the values compared, where PROTOTEST_COVERAGE_VALUES is 1: see _compares,
`fuzz --value-profile`). The first time it records
a file, it appends "F\\t<file>\\n" to PROTOTEST_COVERAGE_INDEX, so that prototest can name
the files and functions (it compiles them itself). Where it cannot serve (the bot has a
sitecustomize of its own), it appends "X\\t<reason>\\n" instead and records nothing.

With sys.monitoring (Python 3.12+) each line location calls back once and is then
disabled; before, the bot's own files are compiled with a store into the map before each
statement (see _instrument_before_312), and nothing is traced.
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

    fd = os.open(map_path, os.O_RDWR | os.O_CLOEXEC)
    try:
        cov = mmap.mmap(fd, 0)
    finally:
        os.close(fd)
    size = len(cov)
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

    def slot_of(path, line):
        import zlib  # here: a bot whose files were all compiled ahead never needs it (a shared library)

        return zlib.crc32(("%s:%d" % (path, line)).encode("utf-8", "surrogateescape")) % (size - size // 4)

    def hit(path, line):
        cov[slot_of(path, line)] = 1

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

    values = env.get("PROTOTEST_COVERAGE_VALUES") == "1"
    _instrument_before_312(sys, cov, mine, own, slot_of, _ahead(os, os.path.dirname(map_path), size, values), values)


#: The name, in builtins, of the map the instrumented code writes into.
_MAP_NAME = "__prototest_coverage_map__"
#: The names, in builtins, of the comparison operators and of the recorder of their operands.
_OPS_NAME, _PAIR_NAME = "__prototest_coverage_ops__", "__prototest_coverage_pair__"


def _ahead(os, folder, size, values=False):
    """A function that gives the instrumented code of a file that prototest compiled
    ahead (prototest.sandbox.coverage.codecache: `<map's folder>/code/<the path, % as %25, / as %2F>`,
    after a first run of the bot named the file), or None: another interpreter's bytecode,
    a file changed since, another map size or path, or none there. Reading it is no file
    operation of the bot's, and it spares each later start of the bot the compile."""
    import importlib.util
    import marshal

    magic = importlib.util.MAGIC_NUMBER

    def ahead(path):
        try:
            name = path.replace("%", "%25").replace("/", "%2F")
            with open(os.path.join(folder, "code", name), "rb") as fh:
                data = fh.read()
            st = os.stat(path)
            head = magic + ("%s\n%d\n%d\n%d%s\n" % (path, st.st_mtime_ns, st.st_size, size, "v" if values else "")).encode(
                "utf-8", "surrogateescape")
            return marshal.loads(data[len(head):]) if data.startswith(head) else None
        except Exception:
            return None

    return ahead


def _instrument_before_312(sys, cov, mine, own, slot_of, ahead=lambda path: None, values=False):
    """Before 3.12 there is no sys.monitoring, and sys.settrace would call back at every
    call of every function, the libraries' too (a bot's hot loop over its rules library ran
    2.6 times as slow). Instead, each file of the bot's own is compiled here with a store
    into the map before each of its statements (`__prototest_coverage_map__[slot] = 1`, the
    slots of the lines that statement runs first: its header for a compound statement), as
    pytest rewrites its test modules' asserts: nothing else runs any slower.

    The bot's modules are compiled so by a finder before the path's (never from, nor into,
    __pycache__); the main script, which the interpreter compiles itself, is compiled so and
    run in its __main__ when its first frame starts (a tracer on until then, off after): that
    frame never runs, so the bot runs once, and ends as it would (its exit status, and an
    uncaught exception's traceback from its own frames)."""
    import builtins
    import importlib.machinery
    import os

    setattr(builtins, _MAP_NAME, cov)
    if values:
        ops, pair = _compare(cov)
        setattr(builtins, _OPS_NAME, ops)
        setattr(builtins, _PAIR_NAME, pair)

    def code_of(source, path):
        """The source compiled with the stores, or None (compiled as is, then)."""
        try:
            import ast  # here: a bot whose files were all compiled ahead never needs it

            code = _instrumented(ast, source, path, lambda line: slot_of(path, line), values=values)
        except Exception:
            return None
        own(path)
        return code

    def compiled_ahead(path):
        code = ahead(path)
        if code is not None:
            own(path)
        return code

    class Loader(importlib.machinery.SourceFileLoader):
        def get_code(self, fullname):
            path = self.get_filename(fullname)
            code = compiled_ahead(path)
            if code is None:
                code = code_of(self.get_data(path), path)
            return code if code is not None else super().get_code(fullname)

    path_finder = importlib.machinery.PathFinder

    class Finder:
        """The bot's own modules get the Loader above; any other module the spec the path's
        finder gives, as it is: the finder just after this one, which would only search
        the path again (a search for each of the bot's imports, the standard library's
        too, made each import about half as slow again)."""

        @staticmethod
        def find_spec(name, path=None, target=None):
            try:
                spec = path_finder.find_spec(name, path, target)
                if (spec is not None and type(spec.loader) is importlib.machinery.SourceFileLoader
                        and spec.origin and mine(spec.origin) is not None):
                    spec.loader = Loader(name, spec.origin)
                return spec
            except Exception:
                return None

    meta = sys.meta_path
    meta.insert(meta.index(path_finder) if path_finder in meta else len(meta), Finder)

    script = sys.argv[0] if sys.argv and sys.argv[0] not in ("", "-c", "-m") else None
    main = mine(os.path.abspath(script)) if script and os.path.isfile(script) else None
    if main is None:
        return

    def boot(frame, event, arg):
        code = frame.f_code
        if event != "call" or code.co_name != "<module>" or frame.f_globals.get("__name__") != "__main__":
            return None
        sys.settrace(None)  # the first frame of __main__: the script's, or (a zip, a .pyc) not one to compile
        if os.path.abspath(code.co_filename) != main:
            return None
        compiled = compiled_ahead(main)
        if compiled is None:
            try:
                with open(main, "rb") as fh:
                    compiled = code_of(fh.read(), main)
            except Exception:
                compiled = None
        if compiled is None:
            return None  # the frame runs the script as it is
        _run_main(sys, compiled, frame.f_globals)

    sys.settrace(boot)


def _run_main(sys, code, globals):
    """Runs the instrumented main script in __main__, inside the tracer's call (where
    nothing is traced), then ends the process as the script's own run would have: its
    SystemExit as it is, an uncaught exception printed from the script's first frame
    (sys.excepthook) and exit status 1, else status 0."""
    failed = None
    try:
        exec(code, globals)
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as exc:
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_globals is not globals:
            tb = tb.tb_next
        failed = (type(exc), exc.with_traceback(tb or exc.__traceback__), tb or exc.__traceback__)
    if failed is not None:
        sys.excepthook(*failed)
        failed = None
        raise SystemExit(1)
    raise SystemExit


def _instrumented(ast, source, path, slot_of, skip=frozenset(), values=False):
    """`source` compiled as `path`, with a store of 1 into the map before each statement,
    at the slots of the lines that statement runs before any statement inside it (the
    lines of its header that have instructions: those a tracer sees run); none for the
    slots in `skip` (prototest's code compiled ahead: code every run reaches, see
    prototest.play.corpus); with `values`, its branches' comparisons recorded too
    (_compares)."""
    tree = ast.parse(source, path)
    runnable = _runnable(compile(tree, path, "exec", dont_inherit=True))  # the tree as parsed: not parsed twice
    load, store = ast.Load(), ast.Store()

    def hit(lines, at):
        slots = sorted({slot_of(line) for line in lines if line in runnable} - skip)
        if not slots:
            return []
        at = {"lineno": at.lineno, "col_offset": at.col_offset, "end_lineno": at.end_lineno,
              "end_col_offset": at.end_col_offset}  # each node of the store where the statement is
        return [ast.Assign(targets=[ast.Subscript(ast.Name(_MAP_NAME, load, **at), ast.Constant(s, **at), store, **at)
                                    for s in slots], value=ast.Constant(1, **at), **at)]

    def header(node, first):
        start = min([node.lineno] + [d.lineno for d in getattr(node, "decorator_list", ())])
        end = node.end_lineno if first is None else max(node.lineno, first - 1)
        return range(start, end + 1)

    def body(statements, head=(), keep=0):
        """The statements, each after its store; `head`: lines run on entering the block
        (an except clause's, a case's), stored before the first statement; the first
        `keep` statements (a docstring, __future__ imports) stay first."""
        out = list(statements[:keep])
        pending = list(head)
        for statement in statements[:keep]:
            pending.extend(header(statement, None))
        for statement in statements[keep:]:
            out.extend(hit(pending + list(header(statement, _first_line(statement))), statement))
            pending = []
            inside(statement)
            out.append(statement)
        if pending and out:
            out.extend(hit(pending, out[-1]))
        return out

    def inside(node):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(node, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                setattr(node, name, body(block, keep=_kept(ast, block, node)))
        for handler in getattr(node, "handlers", ()):
            handler.body = body(handler.body, header(handler, handler.body[0].lineno))
        for case in getattr(node, "cases", ()):
            case.body = body(case.body, header(case.pattern, case.body[0].lineno))

    tree.body = body(tree.body, keep=_kept(ast, tree.body, tree))
    if values:
        _compares(ast, tree, slot_of)
    return compile(tree, path, "exec", dont_inherit=True)


def _compare(cov):
    """What the instrumented comparisons call (see _compares): the operators, as the C
    functions of `operator` (a comparison that raises adds no frame of the collector's to
    the traceback), and `pair`, which returns its two operands after recording, where both
    are integers (not bools), a slot in the map's last quarter for the comparison and how
    far apart they were: the sign of their difference and its bit length (0 when equal, 1
    for 1, 2 for 2-3, 3 for 4-7 ...). It never raises."""
    import operator

    ops = (operator.lt, operator.le, operator.gt, operator.ge, operator.eq, operator.ne)
    size = len(cov)
    base = size - size // 4
    span = size - base

    def pair(site, a, b):
        if type(a) is int and type(b) is int:
            d = a - b
            try:
                cov[base + (site + 40503 * (d.bit_length() if d >= 0 else 64 + (-d).bit_length())) % span] = 1
            except Exception:
                pass
        return a, b

    return ops, pair


def _compares(ast, tree, slot_of):
    """Each comparison of one operator (<, <=, >, >=, ==, !=) in the test of an if, elif,
    while or conditional expression, and inside its and/or/not, becomes
    `ops[k](*pair(site, left, right))` (see _compare; its operands evaluated as before, in
    the same order, once; the same comparison, by the same C function): a run that
    brings two compared integers closer than any run before sets a new slot, so the example
    joins the corpus and the search goes on from it, towards the value that flips the
    branch (libFuzzer's value profile; search-based testing's branch distance). A branch
    taken only on a rare count (few pieces left, very many moves) is then approached step
    by step rather than met by chance. Chained comparisons and those elsewhere stay as
    they are."""
    kinds = (ast.Lt, ast.LtE, ast.Gt, ast.GtE, ast.Eq, ast.NotEq)

    def wrap(node):
        if isinstance(node, ast.BoolOp):
            node.values = [wrap(v) for v in node.values]
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            node.operand = wrap(node.operand)
        elif isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in kinds:
            site = (slot_of(node.lineno) * 2654435761 + node.col_offset + 1) & 0xFFFFFFFF  # the comparison's own
            op = kinds.index(type(node.ops[0]))
            operands = ast.Call(ast.Name(_PAIR_NAME, ast.Load()), [ast.Constant(site), node.left, node.comparators[0]], [])
            call = ast.Call(ast.Subscript(ast.Name(_OPS_NAME, ast.Load()), ast.Constant(op), ast.Load()),
                            [ast.Starred(operands, ast.Load())], [])
            return ast.copy_location(call, node)
        return node

    for node in ast.walk(tree):
        if isinstance(node, (ast.If, ast.While, ast.IfExp)):
            node.test = wrap(node.test)
    ast.fix_missing_locations(tree)


def _first_line(node):
    """The line of the first statement inside a compound statement (None: a simple one)."""
    for name in ("body", "handlers", "cases"):
        block = getattr(node, name, None)
        if isinstance(block, list) and block:
            return block[0].pattern.lineno if name == "cases" else block[0].lineno
    return None


def _kept(ast, block, owner):
    """How many statements must stay first in a block: a docstring (of a module, class or
    function), then a module's __future__ imports."""
    if not block:  # an empty module
        return 0
    n = 0
    if (isinstance(owner, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and isinstance(block[0], ast.Expr) and isinstance(block[0].value, ast.Constant)
            and isinstance(block[0].value.value, str)):
        n = 1
    if isinstance(owner, ast.Module):
        while n < len(block) and isinstance(block[n], ast.ImportFrom) and block[n].module == "__future__":
            n += 1
    return n


def _runnable(code):
    """The lines of a code object, and of those inside it, that a tracer sees run (as
    prototest.sandbox.coverage.pysource.lines counts them)."""
    import opcode
    from types import CodeType

    prologue = {opcode.opmap[name] for name in ("RESUME", "MAKE_CELL", "COPY_FREE_VARS", "RETURN_GENERATOR",
                                                "POP_TOP", "NOP", "CACHE") if name in opcode.opmap}
    seen = set()
    todo = [code]
    while todo:
        code = todo.pop()
        raw = code.co_code
        for start, end, line in code.co_lines():
            if line is None or line <= 0:
                continue
            if code.co_name != "<module>" and line == code.co_firstlineno and all(
                    raw[i] in prologue for i in range(start, end, 2)):
                continue
            seen.add(line)
        todo.extend(c for c in code.co_consts if isinstance(c, CodeType))
    return seen


_prototest_own = None
if __name__ == "sitecustomize":  # the bot's (imported as prototest's module, it only lends its compiler)
    try:
        _prototest_own = _prototest_coverage()
    except Exception:
        pass
del _prototest_coverage
if _prototest_own is not None:
    _prototest_own()
