"""The bot's command line, checked before any game: a missing or unrunnable program, a
script whose #! line cannot work, a source file that needs its interpreter or compiler
named (see prototest.commands.usage) are usage errors that say what to do."""

from __future__ import annotations

import os
import shlex
import shutil

from . import usage
from .exits import UsageProblem


def bot_argv(bot: list[str], env: dict[str, str], cwd: str | None = None) -> list[str]:
    """Check the bot's command before any game; `cwd` is the folder it will run in (a
    config file's), against which a relative path is checked."""
    if not bot:
        raise UsageProblem("no bot given: prototest check ./mybot, or prototest check -- python3 bot.py, "
                           "or bot = [...] in a prototest.toml")
    if cwd is not None:
        checked = bot_argv([os.path.join(cwd, bot[0]) if os.sep in bot[0] else bot[0], *bot[1:]], env)
        return [bot[0], *checked[1:]]
    program = bot[0]
    if len(bot) == 1 and (quoted := usage.quoted_command(program)):
        raise UsageProblem(f"bot {quoted}")
    if os.sep in program:
        if not os.path.exists(program):
            raise UsageProblem(f"bot {program!r} not found")
        if os.path.isdir(program):
            raise UsageProblem(f"bot {program!r} is a folder: {usage.folder_hint(program, env)}")
        if not os.access(program, os.X_OK):
            how = usage.how_to_run(program, env)
            chmod = "" if _not_runnable_alone(program) else "chmod +x it (it needs a #! line), or "
            raise UsageProblem(f"bot {program!r} is not executable: {chmod}{how}")
        _check_interpreter(program, env)
        return list(bot)
    if shutil.which(program, path=env.get("PATH")) is None:
        hint = ""
        if os.path.isdir(program):
            raise UsageProblem(f"bot {program!r} is a folder: {usage.folder_hint(program, env)}")
        if os.path.exists(program):
            found = usage.run_command(program, env)
            hint = (f"; to run the file {program}: prototest check -- {found[0]}" if found
                    else f"; {usage.how_to_run(program, env)}" if usage.compile_command(program)
                    else f"; for a file in this folder write ./{program}")
        raise UsageProblem(f"bot command {program!r} not found on PATH{hint}")
    return list(bot)


def _not_runnable_alone(program: str) -> bool:
    """Files that no #! line or chmod makes a bot: bytecode, archives, sources to compile."""
    ext = os.path.splitext(program)[1].lower()
    return ext in (".class", ".jar", ".java", ".ts", ".mts") or ext in usage.COMPILERS


def _check_interpreter(program: str, env: dict[str, str]) -> None:
    """A script whose #! line names a missing interpreter fails to start with a bare
    "No such file or directory", which would blame the script: name the interpreter."""
    try:
        with open(program, "rb") as fh:
            head = fh.readline(512)
    except OSError as exc:
        raise UsageProblem(f"bot {program!r} cannot be read: {exc.strerror}") from None
    if not head.strip():
        raise UsageProblem(f"bot {program!r} is an empty file")
    if head.startswith(b"\xef\xbb\xbf#!"):
        raise UsageProblem(f"bot {program!r} starts with a UTF-8 byte order mark before its #! line, so the "
                           f"system cannot run it: save it without the mark (sed -i '1s/^\\xEF\\xBB\\xBF//' "
                           f"{shlex.quote(program)})")
    if not head.startswith(b"#!"):
        if head[:4] != b"\x7fELF" and _not_runnable_alone(program):
            raise UsageProblem(f"bot {program!r} cannot run by itself: {usage.how_to_run(program, env)}")
        if head[:4] != b"\x7fELF" and b"\0" not in head and head.strip():
            interpreter = usage.INTERPRETERS.get(os.path.splitext(program)[1].lower(), ["python3"])[-1]
            raise UsageProblem(f"bot {program!r} is a text file without a #! line: add one "
                               f"(#!/usr/bin/env {interpreter}), or {usage.how_to_run(program, env)}")
        return
    if head.rstrip(b"\n").endswith(b"\r"):
        raise UsageProblem(f"bot {program!r}: its #! line ends in \\r (the file has Windows line endings), so "
                           f"the system looks for an interpreter whose name ends in \\r: convert the file: "
                           f"sed -i 's/\\r$//' {shlex.quote(program)}")
    words = head[2:].decode("utf-8", "replace").split()
    if not words:
        raise UsageProblem(f"bot {program!r}: its #! line names no interpreter")
    interpreter = words[0]
    if os.path.isdir(interpreter):
        raise UsageProblem(f"bot {program!r}: its #! interpreter {interpreter!r} is a directory, not a program")
    if not os.access(interpreter, os.X_OK):
        raise UsageProblem(f"bot {program!r}: its #! interpreter {interpreter!r} does not exist "
                           f"or is not executable")
    if os.path.basename(interpreter) == "env":
        if len(words) > 2 and not words[1].startswith(("-S", "--split-string")):
            rest = " ".join(words[1:])
            raise UsageProblem(f"bot {program!r}: its #! line gives env {rest!r} as one word (Linux passes the "
                               f"rest of the line as one argument): write #!/usr/bin/env -S {rest}")
        names = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        if names and shutil.which(names[0], path=env.get("PATH")) is None:
            raise UsageProblem(f"bot {program!r}: its #! line runs {names[0]!r}, which is not on "
                               f"the bot's PATH")
