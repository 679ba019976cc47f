#!/usr/bin/env python3
"""Dev aid: play a bot over pipes as the chess judge would, and report what it did.

    _drive.py BOT [BOT ...] [--seed N | --seeds A..B] [--colour white|black|both]
    _drive.py --all              # every bot here, checked against the README table
    _drive.py "python3 -m prototest.bots.chess_bot"   # a command (run from the repo root)

Independent of the `prototest` package on purpose: it is a second opinion, written from
the protocol, not from prototest's referee. The opponent plays seeded random legal moves
(queen promotions only, as the protocol can write no other). Each finding is
`kind severity: message`, with the kinds of the README. A failure ends the game (the
judge answers `D`); warnings do not. Then stdin is closed and the exit is checked.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import select
import shlex
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import chess

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[2]
ENV = {"PATH": os.pathsep.join([os.path.dirname(sys.executable), "/usr/bin", "/bin"]), "HOME": os.environ.get("HOME", "/tmp"),
       "LANG": "C.UTF-8"}
MAX_LINE = 4096  # bytes without a newline before an answer is "too long"
START_FEN = chess.STARTING_FEN

#: file -> (kind, severity) the bot must produce; the README table, as data.
EXPECTED = {
    "illegal_move.py": ("illegal_move", "fail"),
    "malformed.py": ("malformed", "fail"),
    "early_output.py": ("early_output", "fail"),
    "answers_twice.py": ("unexpected_output", "fail"),
    "talks_between_turns.py": ("unexpected_output", "fail"),
    "crash_third_turn.py": ("crash", "fail"),
    "hangs.py": ("timeout", "fail"),
    "no_flush.py": ("timeout", "fail"),
    "castle_e1g1.py": ("malformed", "warn"),
    "promotion5.py": ("malformed", "fail"),
    "no_exit.py": ("no_exit", "warn"),
    "floods.py": ("malformed", "fail"),
    "never_reads.py": ("timeout", "fail"),
    "ignores_sigterm_forks.py": ("no_exit", "warn"),
    "crlf.py": ("malformed", "warn"),
    "trailing_space.py": ("malformed", "warn"),
    "exit_nonzero.py": ("exit_status", "warn"),
}


@dataclass
class Finding:
    kind: str
    severity: str  # "fail" or "warn"
    message: str
    ply: int | None = None

    def __str__(self) -> str:
        at = f" (ply {self.ply})" if self.ply is not None else ""
        return f"{self.kind} {self.severity}{at}: {self.message}"


@dataclass
class Report:
    bot: str
    seed: int
    colour: str
    plies: int = 0
    end: str = ""
    answers: list[str] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    exit_status: int | None = None
    stderr: str = ""

    def kinds(self) -> set[tuple[str, str]]:
        return {(f.kind, f.severity) for f in self.findings}


def judge_format(board: chess.Board, move: chess.Move) -> str:
    if board.is_kingside_castling(move):
        return "O-O"
    if board.is_queenside_castling(move):
        return "O-O-O"
    return move.uci()[:4]


def judge_answer(board: chess.Board, raw: bytes, ply: int) -> tuple[chess.Move | None, list[Finding]]:
    """Read one answer line (without its `\\n`) as the judge would."""
    found: list[Finding] = []
    text = raw.decode("utf-8", "replace")
    if text.endswith("\r"):
        text = text[:-1]
        found.append(Finding("malformed", "warn", "answer ends with \\r\\n (CRLF)", ply))
    if text != text.strip():
        found.append(Finding("malformed", "warn", f"whitespace around the answer: {text!r}", ply))
        text = text.strip()
    legal = list(board.legal_moves)
    if text in ("O-O", "O-O-O"):
        side = board.is_kingside_castling if text == "O-O" else board.is_queenside_castling
        move = next((m for m in legal if side(m)), None)
        if move is None:
            found.append(Finding("illegal_move", "fail", f"{text}: castling not legal here", ply))
        return move, found
    if re.fullmatch(r"[a-h][1-8][a-h][1-8][qrbnQRBN]", text):
        found.append(Finding("malformed", "fail",
                             f"{text!r}: promotion written with the piece; the judge wants "
                             "four characters (the pawn becomes a queen)", ply))
        return None, found
    if not re.fullmatch(r"[a-h][1-8][a-h][1-8]", text):
        found.append(Finding("malformed", "fail", f"{text[:60]!r} is not a move "
                             "(four characters like e2e4, or O-O / O-O-O)", ply))
        return None, found
    move = chess.Move.from_uci(text)
    piece = board.piece_at(move.from_square)
    if piece and piece.piece_type == chess.PAWN and chess.square_rank(move.to_square) in (0, 7):
        move = chess.Move(move.from_square, move.to_square, chess.QUEEN)
    if move not in legal:
        found.append(Finding("illegal_move", "fail", f"{text}: not a legal move in {board.fen()}", ply))
        return None, found
    if board.is_castling(move):
        found.append(Finding("malformed", "warn", f"{text}: castling written as the king's move; "
                             "the protocol says O-O / O-O-O", ply))
    return move, found


class Pipe:
    """The bot's stdout, read without blocking, line by line, with deadlines."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.buf = b""
        self.eof = False

    def _fill(self, timeout: float) -> bool:
        if self.eof:
            return False
        ready, _, _ = select.select([self.fd], [], [], max(0.0, timeout))
        if not ready:
            return False
        data = os.read(self.fd, 65536)
        if not data:
            self.eof = True
            return False
        self.buf += data
        return True

    def pending(self, wait: float) -> bytes:
        """Whatever arrives within `wait` seconds (or is already buffered); consumes it."""
        deadline = time.monotonic() + wait
        while self._fill(deadline - time.monotonic()):
            pass
        data, self.buf = self.buf, b""
        return data

    def line(self, timeout: float) -> tuple[bytes | None, str]:
        """(line without `\\n`, "") or (None, "timeout" | "eof" | "too long")."""
        deadline = time.monotonic() + timeout
        while True:
            if b"\n" in self.buf:
                line, self.buf = self.buf.split(b"\n", 1)
                if len(line) > MAX_LINE:
                    return None, "too long"
                return line, ""
            if len(self.buf) > MAX_LINE:
                return None, "too long"
            left = deadline - time.monotonic()
            if left <= 0:
                return None, "timeout"
            if not self._fill(left) and self.eof:
                return None, "eof"


def command_for(bot: str) -> list[str]:
    if " " in bot:
        return shlex.split(bot)
    path = Path(bot)
    if not path.exists() and (HERE / bot).exists():
        path = HERE / bot
    return [str(path.resolve())]


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def play(bot: str, seed: int = 0, colour: str = "white", plies: int = 60,
         move_timeout: float = 1.0, startup_wait: float = 0.3, grace: float = 0.05,
         exit_timeout: float = 1.0) -> Report:
    report = Report(bot, seed, colour)
    proc = subprocess.Popen(command_for(bot), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env=ENV, cwd=REPO, start_new_session=True)
    errbuf: list[bytes] = []
    errthread = threading.Thread(target=lambda: errbuf.extend(iter(lambda: proc.stderr.read1(65536), b"")),
                                 daemon=True)
    errthread.start()
    out = Pipe(proc.stdout.fileno())
    rand = random.Random(seed)
    board = chess.Board(START_FEN)
    bot_colour = chess.WHITE if colour == "white" else chess.BLACK
    clock = 1000  # the bot's time, units of 10 ms
    last = "NONE"
    failed = False

    def note(f: Finding) -> None:
        nonlocal failed
        report.findings.append(f)
        failed = failed or f.severity == "fail"

    def send(text: str) -> bool:
        try:
            proc.stdin.write(text.encode() + b"\n")
            proc.stdin.flush()
            return True
        except (BrokenPipeError, OSError):
            return False

    def crashed(what: str) -> None:
        try:
            code = proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            code = "none (still running)"
        note(Finding("crash", "fail", f"{what}: stdout closed, exit status {code}", board.ply()))

    early = out.pending(startup_wait)
    if early:
        note(Finding("early_output", "fail", f"wrote {early[:40]!r} before the colour line"))
    if not failed:
        send(colour)
    while not failed and board.ply() < plies and not board.is_game_over():
        if board.turn != bot_colour:
            move = rand.choice(sorted((m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)),
                                      key=chess.Move.uci))
            last = judge_format(board, move)
            board.push(move)
            continue
        extra = out.pending(grace)
        if extra:
            note(Finding("unexpected_output", "fail", f"wrote {extra[:40]!r} between turns", board.ply()))
            break
        send(f"{last} {max(clock, 0)} 1000 {board.fen()}")
        started = time.monotonic()
        raw, why = out.line(min(move_timeout, clock / 100))
        clock -= int((time.monotonic() - started) * 100)
        if raw is None:
            if why == "timeout":
                hint = " (answered nothing; does it flush stdout after each answer?)"
                note(Finding("timeout", "fail", f"no answer within {move_timeout}s{hint}", board.ply()))
            elif why == "too long":
                note(Finding("malformed", "fail", f"line too long (over {MAX_LINE} bytes without a newline)",
                             board.ply()))
            else:
                crashed("while thinking")
            break
        report.answers.append(raw.decode("utf-8", "replace"))
        move, found = judge_answer(board, raw, board.ply())
        for f in found:
            note(f)
        if failed or move is None:
            break
        extra = out.pending(grace)
        if extra:
            note(Finding("unexpected_output", "fail", f"wrote {extra[:40]!r} after its answer", board.ply()))
            break
        board.push(move)
        send(f"A {max(clock, 0)}")
    report.plies = board.ply()
    outcome = board.outcome()
    report.end = ("failed" if failed else outcome.termination.name.lower() if outcome
                  else f"ply limit {plies}")
    if failed and proc.poll() is None:
        send(f"D {max(clock, 0)}")

    # The game is over: close stdin; the bot should exit promptly with status 0.
    try:
        proc.stdin.close()
    except OSError:
        pass
    try:
        report.exit_status = proc.wait(timeout=exit_timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=0.5)
            how = "ended by SIGTERM"
        except subprocess.TimeoutExpired:
            how = "ignored SIGTERM; killed"
        note(Finding("no_exit", "warn", f"still running {exit_timeout}s after stdin closed ({how})"))
    else:
        if report.exit_status != 0 and not any(f.kind == "crash" for f in report.findings):
            note(Finding("exit_status", "warn", f"exit status {report.exit_status} after stdin closed"))
    # Whatever is left of the process group (children holding stdout...) is killed.
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    proc.wait()
    errthread.join(timeout=1)
    report.stderr = b"".join(errbuf).decode("utf-8", "replace")
    for pid in map(int, re.findall(r"^pid (\d+)$", report.stderr, re.M)):
        deadline = time.monotonic() + 2
        while alive(pid) and time.monotonic() < deadline:
            time.sleep(0.02)
        if alive(pid):
            report.findings.append(Finding("no_exit", "warn", f"pid {pid} survives the group kill"))
    proc.stdout.close()
    proc.stderr.close()
    return report


def show(r: Report, verbose: bool) -> None:
    print(f"{Path(r.bot).name} seed={r.seed} {r.colour}: {r.plies} plies, end={r.end}, "
          f"exit={r.exit_status}")
    if verbose:
        print("  answers:", " ".join(r.answers) or "-")
    for f in r.findings:
        print("  ", f)
    if verbose and r.stderr.strip():
        print("  stderr:", r.stderr.strip().splitlines()[-1][:200])


def check_all(seeds: list[int], verbose: bool) -> int:
    bad = 0
    for name in ["reference: python3 -m prototest.bots.chess_bot", *EXPECTED]:
        bot = name.split(": ", 1)[1] if name.startswith("reference") else name
        want = EXPECTED.get(name)
        for colour in ("white", "black"):
            for seed in seeds:
                r = play(bot, seed, colour)
                ok = want in r.kinds() if want else not r.findings and r.exit_status == 0
                if ok:
                    break
            if verbose or not ok:
                show(r, verbose)
            print(f"{'ok ' if ok else 'BAD'} {name:45} {colour:5} seed={seed:<2} "
                  f"want={want or 'no findings'} got={sorted(r.kinds())}")
            bad += not ok
    return bad


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("bots", nargs="*")
    ap.add_argument("--all", action="store_true", help="check every bot against the README table")
    ap.add_argument("--seed", type=int)
    ap.add_argument("--seeds", default="0..0", help="A..B, inclusive")
    ap.add_argument("--colour", choices=["white", "black", "both"], default="white")
    ap.add_argument("--plies", type=int, default=60)
    ap.add_argument("--move-timeout", type=float, default=1.0)
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--stats", action="store_true", help="only count findings over the seeds")
    a = ap.parse_args()
    lo, hi = (a.seed, a.seed) if a.seed is not None else map(int, a.seeds.split(".."))
    seeds = list(range(lo, hi + 1))
    if a.all:
        sys.exit(1 if check_all(seeds, a.verbose) else 0)
    colours = ["white", "black"] if a.colour == "both" else [a.colour]
    for bot in a.bots:
        counts: dict[str, int] = {}
        games = 0
        for colour in colours:
            for seed in seeds:
                r = play(bot, seed, colour, plies=a.plies, move_timeout=a.move_timeout)
                games += 1
                for k in {f"{f.kind} {f.severity}" for f in r.findings}:
                    counts[k] = counts.get(k, 0) + 1
                if not a.stats:
                    show(r, a.verbose)
        if a.stats or len(seeds) * len(colours) > 1:
            print(f"{bot}: {games} games;", ", ".join(f"{k}: {v}" for k, v in sorted(counts.items()))
                  or "no findings")


if __name__ == "__main__":
    main()
