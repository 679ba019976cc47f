"""Hints for the usage errors that bots in other languages run into.

A bot is often not one executable file: `java -cp build Player`, `node bot.js`, a
TypeScript file, a whole command quoted as one argument. The bare errors ("No such
option: -c", "not executable", "not found on PATH") do not say what to type instead;
these helpers do. They only build text: the CLI decides when to use it.
"""

from __future__ import annotations

import os
import shlex
import shutil
from typing import Any, Sequence

#: How a source or program file of each kind is run, as words before the file's path.
#: ".class" and ".ts" are special (see `run_command`).
INTERPRETERS: dict[str, list[str]] = {
    ".py": ["python3"],
    ".js": ["node"], ".mjs": ["node"], ".cjs": ["node"],
    ".java": ["java"],  # Java 11 and later run a single source file as it is
    ".jar": ["java", "-jar"],
    ".rb": ["ruby"], ".php": ["php"], ".pl": ["perl"], ".lua": ["lua"], ".sh": ["sh"],
}
#: Files that must be compiled first, and the usual command for it.
COMPILERS: dict[str, str] = {
    ".c": "gcc -O2 -o mybot {file}", ".cpp": "g++ -O2 -o mybot {file}", ".cc": "g++ -O2 -o mybot {file}",
    ".rs": "rustc -O -o mybot {file}", ".go": "go build -o mybot {file}",
    ".kt": "kotlinc {file} -include-runtime -d mybot.jar", ".cs": "dotnet build",
}
_CODINGAME_JS = ("a CodinGame bot that calls readline() also needs the shim in prototest's docs "
                 "(docs/languages.md, Bots in other languages): "
                 "node -r ./codingame_readline.js {file}")


def _on_path(program: str, env: dict[str, str]) -> bool:
    return shutil.which(program, path=env.get("PATH")) is not None


def run_command(program: str, env: dict[str, str]) -> tuple[str, str] | None:
    """The command line that runs this file, and a note (the runtime missing from the
    bot's PATH, the CodinGame shim) or ""; None when the file's kind is unknown or it must
    be compiled first (see `compile_command`)."""
    ext = os.path.splitext(program)[1].lower()
    notes = []
    if ext == ".class":
        folder, name = os.path.split(program)
        words = ["java", "-cp", folder or ".", os.path.splitext(name)[0]]
    elif ext in (".ts", ".mts"):
        runner = next((r for r in ("tsx", "ts-node") if _on_path(r, env)), None)
        words = [runner, program] if runner else ["npx", "tsx", program]
        if runner is None:
            notes.append("neither tsx nor ts-node is on the bot's PATH, so npx fetches tsx "
                         "(or compile it with tsc and run the .js file with node)")
    elif ext in INTERPRETERS:
        words = INTERPRETERS[ext] + [program]
    else:
        return None
    if not notes and not _on_path(words[0], env):
        notes.append(f"{words[0]} is not on the bot's PATH")
    if ext in (".js", ".mjs", ".cjs"):
        notes.append(_CODINGAME_JS.format(file=shlex.quote(program)))
    return shlex.join(words), "; ".join(notes)


def compile_command(program: str) -> str | None:
    """'g++ -O2 -o mybot bot.cpp' for a source file that must be compiled first."""
    ext = os.path.splitext(program)[1].lower()
    return COMPILERS[ext].format(file=shlex.quote(program)) if ext in COMPILERS else None


def how_to_run(program: str, env: dict[str, str]) -> str:
    """'name its interpreter: prototest check -- java Player.java', or a compile step."""
    compile_first = compile_command(program)
    if compile_first:
        return f"compile it first ({compile_first}), then: prototest check ./mybot"
    found = run_command(program, env)
    if found is None:
        return f"name its interpreter: prototest check -- python3 {shlex.quote(program)}"
    command, note = found
    return f"name its interpreter: prototest check -- {command}" + (f"; {note}" if note else "")


#: The usual names of a bot's entry file (any extension of INTERPRETERS, .ts, .class).
ENTRY_NAMES = ("main", "bot", "player", "index", "__main__", "run", "start")


def folder_hint(folder: str, env: dict[str, str]) -> str:
    """The next step for a folder given as the bot: the command lines of the files in it
    that look like its entry (an executable, main.py, Player.class ...), at most three."""
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError:
        entries = []
    files = [e for e in entries if not e.name.startswith(".") and e.is_file()]
    runnable = [e.path for e in files if os.access(e.path, os.X_OK) and not os.path.splitext(e.name)[1]]
    known = [e.path for e in files if os.path.splitext(e.name)[1].lower() in (*INTERPRETERS, ".ts", ".mts", ".class")]
    entry = [p for p in known if os.path.splitext(os.path.basename(p))[0].lower() in ENTRY_NAMES]
    commands = [f"prototest check {shlex.quote(p)}" for p in runnable]
    for path in entry or (known if len(known) == 1 else []):
        if os.path.basename(path) == "__main__.py":
            commands.append(f"prototest check -- python3 {shlex.quote(folder)}")
        elif (found := run_command(path, env)) is not None:
            commands.append(f"prototest check -- {found[0]}")
    if commands:
        return "run a file inside it: " + ", or ".join(dict.fromkeys(commands[:3]))
    example = shlex.quote(os.path.join(folder, "main.py"))
    return (f"name the file inside it that runs the bot: prototest check {shlex.quote(os.path.join(folder, 'mybot'))}, "
            f"or with its interpreter: prototest check -- python3 {example}")


def quoted_command(word: str) -> str | None:
    """A hint for one argument that holds a whole command ("python3 bot.py"), or None."""
    if not any(c.isspace() for c in word.strip()) or os.path.exists(word):
        return None
    try:
        words = shlex.split(word)
    except ValueError:
        words = word.split()
    return (f"{word!r} looks like a whole command in one argument: give its words separately, "
            f"after --: prototest check -- {shlex.join(words)}")


def _option_arity(params: Sequence[Any]) -> dict[str, bool]:
    """Every option name of a click command -> whether it takes a value."""
    arity: dict[str, bool] = {}
    for param in params:
        if getattr(param, "param_type_name", "") != "option":
            continue
        takes_value = not (getattr(param, "is_flag", False) or getattr(param, "count", False))
        for name in [*param.opts, *param.secondary_opts]:
            arity[name] = takes_value
    return arity


def bot_start(params: Sequence[Any], args: Sequence[str]) -> int | None:
    """Where the bot's command starts in `check`'s arguments: the first word that is
    neither one of check's options nor an option's value. None when an unknown option or
    `--` comes first (then there is nothing to move)."""
    arity = _option_arity(params)
    i = 0
    while i < len(args):
        word = args[i]
        if word == "--":
            return None
        if word.startswith("--") and "=" in word and word.split("=", 1)[0] in arity:
            i += 1
        elif word in arity:
            i += 2 if arity[word] else 1
        elif word.startswith("-") and len(word) > 2 and word[:2] in arity and arity[word[:2]]:
            i += 1  # a short option with its value attached: -n4
        elif word.startswith("-") and word != "-":
            return None
        else:
            return i
    return None


def option_hint(params: Sequence[Any], args: Sequence[str], prog: str = "prototest check") -> str:
    """For "No such option: -c" in `prototest check --game impasse java -cp DIR P`: the
    option belongs to the bot's command, which must come after `--`."""
    start = bot_start(params, args)
    if start is None:
        return ""
    fixed = [*args[:start], "--", *args[start:]]
    return (f" ({args[start]!r} starts the bot's command, and options in it are read as prototest's: "
            f"put the command after --: {prog} {shlex.join(fixed)})")
