"""Stack traces as runtimes write them on stderr: the runtime and the line naming the error.

The samples are the runtimes' own output (Node v20, OpenJDK, g++/libstdc++, rustc, CPython
3.11 captured on the development machine; Go's and .NET's in their documented form), as
`process.Bot` keeps stderr: tabs shown as the two characters backslash and t.
"""

from __future__ import annotations

import pytest

from prototest.judge import traces

NODE = """/bots/bot.js:1
function f(){ return undefinedThing + 1; }
              ^

ReferenceError: undefinedThing is not defined
    at f (/bots/bot.js:1:15)
    at Object.<anonymous> (/bots/bot.js:2:1)
    at Module._compile (node:internal/modules/cjs/loader:1521:14)
    at node:internal/main/run_main_module:28:49

Node.js v20.20.2"""

NODE_MISSING = """node:internal/modules/cjs/loader:1210
  throw err;
  ^

Error: Cannot find module '/bots/nofile.js'
    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)
    at node:internal/main/run_main_module:28:49 {
  code: 'MODULE_NOT_FOUND',
  requireStack: []
}

Node.js v20.20.2"""

JAVA = """Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 2
\\tat Player.main(Player.java:12)"""

JAVA_PRINTED = """java.lang.IllegalStateException: no move
\\tat Player.choose(Player.java:40)
\\tat Player.main(Player.java:12)"""

CPP = """terminate called after throwing an instance of 'std::out_of_range'
  what():  vector::_M_range_check: __n (which is 5) >= this->size() (which is 3)"""

RUST = """
thread 'main' (4323) panicked at src/main.rs:1:87:
index out of bounds: the len is 3 but the index is 5
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"""

RUST_OLD = """thread 'main' panicked at 'index out of bounds: the len is 3 but the index is 5', src/main.rs:4:5
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace"""

GO = """panic: runtime error: index out of range [5] with length 3

goroutine 1 [running]:
main.main()
\\t/bots/main.go:8 +0x1d
exit status 2"""

PYTHON_CHAINED = """Traceback (most recent call last):
  File "bot.py", line 4, in <module>
  File "bot.py", line 2, in f
ValueError: invalid literal for int() with base 10: 'x'

During handling of the above exception, another exception occurred:

Traceback (most recent call last):
  File "bot.py", line 6, in <module>
KeyError: 'k'"""

#: glibc's line for a failed assert() (the quote style of glibc 2.36 and of later ones), musl's.
C_ASSERT = "main: game.cpp:50: int f(): Assertion 'ind != -1' failed.\nAborted (core dumped)"
C_ASSERT_OLD = "bot: game.c:12: pick: Assertion `n > 0' failed."
C_ASSERT_MUSL = "Assertion failed: ind != -1 (game.c: f: 50)"

DOTNET = """Unhandled exception. System.IndexOutOfRangeException: Index was outside the bounds of the array.
   at Player.Main(String[] args) in /bots/Player.cs:line 9"""


@pytest.mark.parametrize("text,runtime,error", [
    (NODE, "Node.js", "ReferenceError: undefinedThing is not defined"),
    (NODE_MISSING, "Node.js", "Error: Cannot find module '/bots/nofile.js'"),
    (JAVA, "Java", 'Exception in thread "main" java.lang.ArrayIndexOutOfBoundsException: Index 5 out of bounds for length 2'),
    (JAVA_PRINTED, "Java", "java.lang.IllegalStateException: no move"),
    (CPP, "C++", "terminate called after throwing an instance of 'std::out_of_range'; "
                 "what(): vector::_M_range_check: __n (which is 5) >= this->size() (which is 3)"),
    (RUST, "Rust", "panicked at src/main.rs:1:87: index out of bounds: the len is 3 but the index is 5"),
    (RUST_OLD, "Rust", "panicked at 'index out of bounds: the len is 3 but the index is 5', src/main.rs:4:5"),
    (GO, "Go", "panic: runtime error: index out of range [5] with length 3"),
    (PYTHON_CHAINED, "Python", "KeyError: 'k'"),
    (DOTNET, ".NET", "Unhandled exception. System.IndexOutOfRangeException: Index was outside the bounds of the array."),
    (C_ASSERT, "C/C++", "main: game.cpp:50: int f(): Assertion 'ind != -1' failed."),
    (C_ASSERT_OLD, "C/C++", "bot: game.c:12: pick: Assertion `n > 0' failed."),
    (C_ASSERT_MUSL, "C/C++", "Assertion failed: ind != -1 (game.c: f: 50)"),
], ids=["node", "node-missing-module", "java", "java-printed", "cpp", "rust", "rust-before-1.73", "go",
        "python-chained", "dotnet", "c-assert", "c-assert-older-glibc", "c-assert-musl"])
def test_each_runtime_and_its_error_line(text, runtime, error):
    trace = traces.find(text.split("\n"))
    assert trace is not None
    assert (trace.runtime, trace.error) == (runtime, error)


def test_ordinary_stderr_is_no_trace():
    lines = ["depth 6 score +0.35", "at move 12 the bot thinks", "Error budget: 3 ms", "    at ease"]
    assert traces.find(lines) is None


def test_describe_names_the_runtime_as_its_users_do():
    assert traces.find(NODE.split("\n")).describe() == (
        "a Node.js stack trace: ReferenceError: undefinedThing is not defined")
    assert traces.find(CPP.split("\n")).describe().startswith("an uncaught C++ exception: terminate called")
    assert traces.find(PYTHON_CHAINED.split("\n")).describe() == "a Python traceback: KeyError: 'k'"
    assert traces.find(C_ASSERT.split("\n")).describe() == (
        "a failed assert(): main: game.cpp:50: int f(): Assertion 'ind != -1' failed.")
