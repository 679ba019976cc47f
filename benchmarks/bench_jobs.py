"""Chess plies per second with `check --jobs 1` and `--jobs 2`, beside two anchors and fastchess.

Not a test: it prints figures. Run: `python benchmarks/bench_jobs.py [--games 40] [--rounds 3]
[--fastchess PATH] [--fastchess-restart]`.

One bot answers at once in every variant: it parses the FEN of each turn line with
python-chess and plays a random legal move (seeded by the FEN, so a position always gets
the same answer and a seed always gives the same games). The judge-protocol bot comes in
two builds: INSTANT_BOT (a board built from every FEN: the issue's figure) and
INSTANT_BOT_INC (an incremental board, as the UCI engine keeps one: the same choices, so
the same games, which the run asserts; like for like with fastchess's engines). The
prototest and raw pipe variants run with each. Each variant plays `--games`
whole games, one bot process per game (fastchess: see 4), the bot's seats alternating
(white first), one game at a time (jobs 1) and two at once (jobs 2):

1. prototest: `prototest check BOT --game chess --games N --seed S --start-delay 0
   --jobs J --json F -q` (`--start-delay 0`: no silence before the colour line, which the
   spec sets at 1000 ms a game; 0 is a legal value and skips the wait, so the figure
   measures plies, not waiting). The same seed in both, so both play the same games: the
   per-game plies, results and checks from the JSON must agree, and are printed.
2. raw pipe: the thinnest Python driver, this file run as `--driver raw`: it starts the bot,
   writes the colour line and the turn lines (`<last move> 1000 1000 <FEN>`) with
   os.write, reads each answer with os.read, applies it with python-chess, replies `A`,
   and plays a random legal move (a seeded random.Random) for the other side; no timing,
   no findings. Two at once: two forked processes taking the next game in turn.
   Its games are not prototest's (another opponent), so their lengths, and the share of
   each bot's start-up in a ply, differ. Hence a second bare driver, `--driver same`
   ("raw pipe, prototest's games"): it plays the games of the same round's prototest run
   with that bot again (`replay_bot`: the same colour and turn lines, the opponent's
   recorded moves, each answer checked against the game), one bot process a game, one or
   two games at once as above. The same bot work, plies and start-ups as prototest's run:
   prototest over it is what the harness costs, and nothing else.
3. chess.engine: python-chess's SimpleEngine.popen_uci driving a UCI engine that answers
   `bestmove` with a random legal move at once (uci/isready/ucinewgame/position/go/quit;
   it applies only the new moves of each `position`), `engine.play(board,
   Limit(nodes=1))` for its side and the same seeded random opponent for the other; run
   as `--driver engine`, two at once as two forked processes.
4. fastchess (https://github.com/Disservin/fastchess, a C++ tournament runner for UCI
   engines), when an executable is found: `--fastchess PATH`, or else `fastchess` on PATH
   (shutil.which); without one its rows are left out. Build it with
   `git clone https://github.com/Disservin/fastchess && make -C fastchess -j2` (the binary
   is `fastchess/fastchess`; never commit its code here). It plays the UCI engine of 3
   (run with this interpreter, which has python-chess) against itself:
   `fastchess -engine cmd=PY args=instant_uci.py dir=RUN name=a option.Seed=<seed>a
   -engine ... name=b option.Seed=<seed>b -each nodes=1 restart=off -rounds N/2 -games 2
   -concurrency J -force-concurrency -pgnout file=RUN/games.pgn append=false
   -autosaveinterval 0 -ratinginterval 0` (odd N: `-rounds N -games 1`). The plies are
   the PGN's PlyCount tags (checked against the moves counted in each game).
   `-force-concurrency`: fastchess refuses a concurrency above the hardware threads
   without it (not the case at 2 on this 2-core machine; given so jobs 2 runs anywhere).
   `-autosaveinterval 0 -ratinginterval 0`: no config.json every 20 games, no rating
   report every 10 (bookkeeping prototest does not do). Fair terms:
   - No opening book (fastchess warns, and plays every game from the start position) and
     no adjudication (no -draw, -resign, -maxmoves, -tb): games end by the rules alone.
     fastchess's rules end a game at the 50-move rule and threefold repetition, prototest's
     (python-chess's automatic draws) at the 75-move rule and fivefold repetition, so
     games of random movers are not of the same length; plies per second is compared.
   - `nodes=1`, no clock: the engine hears `go nodes 1`, as from chess.engine in 3, and a
     slow answer on a busy machine cannot lose a game on time and shorten it.
   - Seeds: the engine, seeded by the FEN alone, would play the very same game every time
     (both sides the same function of the position). fastchess passes options per engine,
     not per game, so each engine gets a `Seed` (`<seed>a`, `<seed>b`) and numbers its
     games itself at each `ucinewgame` (a locked counter file in RUN): every game differs,
     the same games at jobs 1 every run; at jobs 2 which engine copy takes which game
     number depends on timing, so the games (and total plies) may vary from run to run.
     The summary prints how many games were distinct.
   - Engine processes: fastchess does NOT restart engines between games by default
     (`restart=off`): it starts each engine once per concurrent slot (2 processes at jobs
     1, up to 4 at jobs 2) and sends `ucinewgame` + `isready` before each game; prototest
     starts one bot process per game (40 Python start-ups with `import chess`, some 50 ms
     of CPU each). So the fastchess row pays far fewer Python start-ups than prototest's:
     it is fastchess as it is used, and the harder bar.
     A second row runs `restart=on` (always; `--fastchess-restart` is accepted and does
     nothing more): two new engine processes every game (twice prototest's one), started
     one after the other, and each one's exit waited for in 100 ms steps (fastchess polls
     waitpid every 100 ms): some 0.2 s idle a game.
   - Both sides of a fastchess game are Python engine processes; in prototest only the bot
     is, and the judge plays the other side in its own process. CPU per ply is thus not
     like for like. `busy` is low for fastchess mostly because it idles at the end: its
     main thread checks for the end of the match once a second (the run ends up to 1 s,
     0.5 s on average, after its last game), and each engine's exit costs about 0.1 s
     (the waitpid polling above): a fixed cost per command, some 0.7 s at jobs 1, that
     weighs on short runs (`--games 8`) and less on the default 40 games. It is part of
     what a fastchess user waits for, so it stays in the figure.

Plies per second: the total plies of all games (both sides' moves) over the wall time of
the whole command, timed from outside, so every figure includes the start of its own
Python process and of each game's bot. The variants alternate within each round; the
table shows the medians of `--rounds` rounds and the ratio jobs 2 / jobs 1 (the aim for
prototest: at least 1.6 on two cores), then prototest's figure over each other variant's
at jobs 1 and jobs 2 (the aim against fastchess: at least 1.0 at both). The anchors and
fastchess play their own random games (another opponent than prototest's seeded styles),
so their total plies differ from prototest's; plies per second is the figure compared.

prototest's CPU is split too: each round, the bots of its jobs 1 run are replayed alone over
bare pipes (`bots_cpu`: one process a game, the same colour and turn lines, every answer
checked against the game), and the run's CPU less that is the harness's own per ply (the
judge, its opponent, the keepers, the command's start-up).

Beside each figure: the CPU time (user + system) of the command and all its descendants
per ply, and `busy`, that CPU time over the wall time (the cores in use: at most 1 for one
game at a time, whose judge and bot take turns, at most 2 here for two). The other
processes on the machine take cores too, so the run also reports the load average and,
per run, the CPU the machine spent on processes other than this benchmark's (from
/proc/stat, over the run's wall time): figures taken while that is high say little. At
the end: the per-game plies of prototest's jobs 1 and jobs 2 runs, and whether every
prototest run (both job counts, every round) gave the same moves, plies, results and
checks, and how many games a jobs 2 run re-checked alone (a timing finding); for fastchess,
its version, the per-game plies of its first runs, how many of its games were distinct, the
total plies of every run and how its games ended.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import chess

ROOT = Path(__file__).resolve().parent.parent

#: The instant chess-judge bot: colour line, then `<last move> <time> <time> <FEN>`
#: turn lines, each answered with one move; `A`/`D` status lines in between.
INSTANT_BOT = r"""
import random, sys
import chess
read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
read()  # the colour: the FEN says whose turn it is
while True:
    line = read()
    if not line:
        break
    parts = line.split(None, 3)
    if len(parts) < 4:  # a status line: A <time> or D <time>
        if parts and parts[0] == "D":
            break
        continue
    fen = parts[3].strip()
    board = chess.Board(fen)
    moves = [m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)]
    if not moves:
        continue
    move = random.Random(fen).choice(moves)
    if board.is_kingside_castling(move):
        text = "O-O"
    elif board.is_queenside_castling(move):
        text = "O-O-O"
    else:
        text = move.uci()[:4]
    write(text + "\n")
    flush()
"""

#: The same bot with an incremental board (issue 23's "the same move choice, python-chess,
#: incremental board", as the UCI engine below keeps one): it builds a board from the FEN of
#: its first turn line only, then pushes its own move and the opponent's move the turn line
#: names (`e2e4`; `e7e8` promotes to a queen; `O-O`, `O-O-O`), and chooses exactly as
#: INSTANT_BOT does: `random.Random(<the judge's FEN string>)` over the same legal moves in
#: the same order, so it plays the very same games (bench_jobs and bench_match assert it).
INSTANT_BOT_INC = r"""
import random, sys
import chess
read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
QUEEN, PAWN, Move = chess.QUEEN, chess.PAWN, chess.Move
read()  # the colour: the FEN says whose turn it is
board = None
while True:
    line = read()
    if not line:
        break
    parts = line.split(None, 3)
    if len(parts) < 4:  # a status line: A <time> or D <time>
        if parts and parts[0] == "D":
            break
        continue
    fen, last = parts[3].strip(), parts[0]
    if board is None:  # the first turn: the position as the judge gives it (an opening may precede)
        board = chess.Board(fen)
    elif last == "O-O" or last == "O-O-O":
        king = board.king(board.turn)
        board.push(Move(king, king + 2 if last == "O-O" else king - 2))
    else:
        move = Move.from_uci(last)
        if board.piece_type_at(move.from_square) == PAWN and move.to_square >> 3 in (0, 7):
            move = Move(move.from_square, move.to_square, QUEEN)
        board.push(move)
    moves = [m for m in board.legal_moves if m.promotion in (None, QUEEN)]
    if not moves:
        continue
    move = random.Random(fen).choice(moves)
    if board.is_kingside_castling(move):
        text = "O-O"
    elif board.is_queenside_castling(move):
        text = "O-O-O"
    else:
        text = move.uci()[:4]
    board.push(move)
    write(text + "\n")
    flush()
"""

#: The instant UCI engine: a random legal move at once, whatever `go` asks. Seeded by the
#: FEN alone unless its `Seed` option is set (fastchess sets it): then by the seed, this
#: game's number for that seed (a counter in the file `games-<seed>` in its working folder,
#: taken at each `ucinewgame`, so it counts on across engine restarts and concurrent
#: copies) and the FEN, so every game differs.
INSTANT_UCI = r"""
import random, sys
import chess
read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
board, start, played = chess.Board(), chess.STARTING_FEN, []
seed, game = "off", 0


def next_game():
    import fcntl, os
    fd = os.open(f"games-{seed}", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        count = int(os.read(fd, 32) or b"0") + 1
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, str(count).encode())
    finally:
        os.close(fd)
    return count


while True:
    line = read()
    if not line:
        break
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        write("id name instant\nid author prototest benchmarks\noption name Seed type string default off\nuciok\n")
    elif cmd == "isready":
        write("readyok\n")
    elif cmd == "setoption" and len(words) >= 5 and words[2] == "Seed":
        seed = " ".join(words[4:]) or "off"
    elif cmd == "ucinewgame":
        board, start, played = chess.Board(), chess.STARTING_FEN, []
        if seed != "off":
            game = next_game()
    elif cmd == "position":
        at = words.index("moves") if "moves" in words else len(words)
        fen = chess.STARTING_FEN if words[1] == "startpos" else " ".join(words[2:at])
        moves = words[at + 1:]
        if fen != start or moves[:len(played)] != played:  # not a continuation: set up anew
            board, start, played = chess.Board(fen), fen, []
        for uci in moves[len(played):]:
            board.push_uci(uci)
        played = moves
    elif cmd == "go":
        legal = list(board.legal_moves)
        rng = random.Random(board.fen() if seed == "off" else f"{seed} {game} {board.fen()}")
        write(f"bestmove {rng.choice(legal).uci() if legal else '0000'}\n")
    elif cmd == "quit":
        break
    flush()
"""


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    env.setdefault("PYTHONPATH", str(ROOT))
    return env


def _cpu() -> float:
    """CPU seconds (user and system) of the children waited for so far, theirs included."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _machine_busy() -> float:
    """CPU seconds the whole machine has spent busy since boot (every process's, /proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:9]]
    user, nice, system, _idle, _iowait, irq, softirq, steal = fields
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


#: CPU seconds other processes (not this benchmark's) used during each run, over its wall time
OTHERS: list[float] = []


def _timed(cmd: list[str], folder: Path) -> tuple[float, float, str]:
    """The wall time of a command, the CPU time of it and its descendants, and its stdout."""
    own0 = resource.getrusage(resource.RUSAGE_SELF)
    busy0, cpu0, t0 = _machine_busy(), _cpu(), time.monotonic()
    done = subprocess.run(cmd, cwd=folder, env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          stdin=subprocess.DEVNULL, text=True, check=False)
    wall, cpu, busy = time.monotonic() - t0, _cpu() - cpu0, _machine_busy() - busy0
    own1 = resource.getrusage(resource.RUSAGE_SELF)
    own = own1.ru_utime + own1.ru_stime - own0.ru_utime - own0.ru_stime
    OTHERS.append(max(0.0, busy - cpu - own) / wall)
    if done.returncode not in (0, 1):
        sys.exit(f"{cmd[:4]}... ended with status {done.returncode}: {done.stderr.strip()[-500:]}")
    return wall, cpu, done.stdout


# ---------------------------------------------------------------- the prototest variant

#: The judge-protocol bots: the issue's (a board from each FEN) and the incremental one.
BOTS = {"instant_bot.py": INSTANT_BOT, "instant_bot_inc.py": INSTANT_BOT_INC}


def run_prototest(jobs: int, games: int, seed: int, folder: Path,
                  bot: str = "instant_bot.py") -> tuple[float, float, list[tuple]]:
    """Wall time, CPU time and (plies, result, reason, checks, moves, rechecked, seat) per game, in game order."""
    report = folder / f"check-j{jobs}.json"
    wall, cpu, _ = _timed([sys.executable, "-m", "prototest", "check", "--game", "chess", "--games", str(games),
                           "--seed", str(seed), "--start-delay", "0", "--jobs", str(jobs), "--json", str(report),
                           "-q", "--", sys.executable, str(folder / bot)], folder)
    data = json.loads(report.read_text())
    return wall, cpu, [(g["plies"], g["result"], g["reason"], tuple(sorted(g["checks"].items())), tuple(g["moves"]),
                        g["rechecked_alone"], g["seat"]) for g in sorted(data["games"], key=lambda g: g["game"])]


# ---------------------------------------------------------------- the bots' own CPU (replayed)

def judge_move(board: chess.Board, text: str) -> chess.Move:
    """The move a judge string names in `board` (O-O / O-O-O; four characters, a pawn
    reaching the last rank becoming a queen)."""
    if text in ("O-O", "O-O-O"):
        king = board.king(board.turn)
        return chess.Move(king, king + (2 if text == "O-O" else -2))
    move = chess.Move.from_uci(text)
    if board.piece_type_at(move.from_square) == chess.PAWN and chess.square_rank(move.to_square) in (0, 7):
        return chess.Move(move.from_square, move.to_square, chess.QUEEN)
    return move


def replay_bot(argv: list[str], seat: str, moves: Sequence[str], opening: int = 0) -> None:
    """Play one bot's side of a recorded game again over bare pipes: the colour line, the
    judge's turn lines (the same FEN, en passant square after every double push, as the
    chess spec has it; clock values aside) and `A` replies; every answer must be the move
    the game recorded (the bot is deterministic), the first `opening` moves are the
    opening, played before the bot's first turn. Then its stdin is closed and it is waited
    for: what it cost is in this process's RUSAGE_CHILDREN."""
    turn = chess.WHITE if seat == "white" else chess.BLACK
    proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=_bot_env())
    inp, out = proc.stdin.fileno(), proc.stdout.fileno()
    os.write(inp, f"{seat}\n".encode())
    board, last, buf = chess.Board(), "NONE", b""
    for ply, text in enumerate(moves):
        if ply >= opening and board.turn == turn:
            os.write(inp, f"{last} 1000 1000 {board.fen(en_passant='fen')}\n".encode())
            while b"\n" not in buf:
                chunk = os.read(out, 4096)
                if not chunk:
                    raise RuntimeError(f"replay: the bot closed its output at ply {ply}")
                buf += chunk
            line, _, buf = buf.partition(b"\n")
            if line.decode() != text:
                raise RuntimeError(f"replay: the bot answered {line.decode()!r} at ply {ply}, the game has {text!r}")
            os.write(inp, b"A 1000\n")
        board.push(judge_move(board, text))
        last = text
    proc.stdin.close()
    proc.stdout.close()
    proc.wait()


def bots_cpu(argv: list[str], games: Sequence[tuple[str, Sequence[str], int]]) -> float:
    """CPU seconds the bot processes of these games cost, each (seat, moves, opening)
    replayed one after another by `replay_bot` (a start-up, the same lines, the same
    answers): what a harness run of them spent on its bots, so the rest of its CPU time
    is the harness's own."""
    cpu0 = _cpu()
    for seat, moves, opening in games:
        replay_bot(argv, seat, moves, opening)
    return _cpu() - cpu0


# ---------------------------------------------------------------- the anchors (--driver)

def _opponent_move(board: chess.Board, rng: random.Random) -> chess.Move:
    return rng.choice([m for m in board.legal_moves if m.promotion in (None, chess.QUEEN)])


def _judge_text(board: chess.Board, move: chess.Move) -> str:
    if board.is_kingside_castling(move):
        return "O-O"
    if board.is_queenside_castling(move):
        return "O-O-O"
    return move.uci()[:4]


def _bot_env() -> dict[str, str]:
    """The bot's environment, as prototest gives it (no PYTHONPATH and the like)."""
    return {k: v for k, v in os.environ.items() if k in ("PATH", "HOME", "USER", "LOGNAME", "LANG", "LC_ALL", "TZ",
                                                          "TMPDIR")}


def raw_game(index: int, seed: int, bot: list[str]) -> int:
    """One game over bare pipes; the plies played."""
    rng = random.Random(f"{seed}-{index}")
    seat = chess.WHITE if index % 2 == 0 else chess.BLACK
    proc = subprocess.Popen(bot, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, env=_bot_env())
    inp, out = proc.stdin.fileno(), proc.stdout.fileno()
    os.write(inp, b"white\n" if seat == chess.WHITE else b"black\n")
    board, last, buf = chess.Board(), "NONE", b""
    while not board.is_game_over():
        if board.turn == seat:
            os.write(inp, f"{last} 1000 1000 {board.fen()}\n".encode())
            while b"\n" not in buf:
                chunk = os.read(out, 4096)
                if not chunk:
                    raise RuntimeError(f"game {index}: the bot closed its output")
                buf += chunk
            line, _, buf = buf.partition(b"\n")
            text = line.decode()
            if text in ("O-O", "O-O-O"):
                move = board.parse_san(text)
            else:
                move = chess.Move.from_uci(text)
                if board.piece_type_at(move.from_square) == chess.PAWN and chess.square_rank(move.to_square) in (0, 7):
                    move.promotion = chess.QUEEN
                if not board.is_legal(move):
                    raise RuntimeError(f"game {index}: illegal answer {text!r}")
            board.push(move)
            os.write(inp, b"A 1000\n")
        else:
            move = _opponent_move(board, rng)
            last = _judge_text(board, move)
            board.push(move)
    proc.stdin.close()
    proc.stdout.close()
    proc.wait()
    return board.ply()


def engine_game(index: int, seed: int, engine: list[str]) -> int:
    """One game with python-chess's chess.engine driving the UCI engine; the plies played."""
    import chess.engine

    rng = random.Random(f"{seed}-{index}")
    seat = chess.WHITE if index % 2 == 0 else chess.BLACK
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(engine, env=_bot_env()) as uci:
        while not board.is_game_over():
            if board.turn == seat:
                board.push(uci.play(board, chess.engine.Limit(nodes=1)).move)
            else:
                board.push(_opponent_move(board, rng))
    return board.ply()


def _worker(play, games, seed, argv, taken, conn) -> None:
    plies = {}
    while True:
        with taken.get_lock():
            index = taken.value
            taken.value += 1
        if index >= games:
            break
        plies[index] = play(index, seed, argv)
    conn.send(plies)
    conn.close()


#: The games a `replay` driver plays again (seat, moves): prototest's, read from --replay.
_REPLAYED: list[tuple[str, list[str]]] = []


def replay_game(index: int, seed: int, bot: list[str]) -> int:
    """Game `index` of prototest's run played again over bare pipes (`replay_bot`); its plies."""
    seat, moves = _REPLAYED[index]
    replay_bot(bot, seat, moves)
    return len(moves)


def drive(kind: str, games: int, jobs: int, seed: int, folder: Path) -> list[int]:
    """The plies of each game, `jobs` games at once (forked workers taking the next game)."""
    play, script = {"raw": (raw_game, "instant_bot.py"), "raw-inc": (raw_game, "instant_bot_inc.py"),
                    "engine": (engine_game, "instant_uci.py"), "same": (replay_game, "instant_bot.py"),
                    "same-inc": (replay_game, "instant_bot_inc.py")}[kind]
    if play is replay_game:  # prototest's games, as its run of that bot wrote them
        _REPLAYED[:] = [tuple(g) for g in json.loads((folder / f"{kind}-games.json").read_text())]
        games = len(_REPLAYED)
    argv = [sys.executable, str(folder / script)]
    if jobs == 1:
        return [play(i, seed, argv) for i in range(games)]
    ctx = multiprocessing.get_context("fork")
    taken = ctx.Value("i", 0)
    workers = []
    for _ in range(jobs):
        recv, send = ctx.Pipe(duplex=False)
        proc = ctx.Process(target=_worker, args=(play, games, seed, argv, taken, send))
        proc.start()
        send.close()
        workers.append((proc, recv))
    plies: dict[int, int] = {}
    for proc, recv in workers:
        plies.update(recv.recv())
        proc.join()
    return [plies[i] for i in range(games)]


def run_anchor(kind: str, jobs: int, games: int, seed: int, folder: Path) -> tuple[float, float, list[int]]:
    wall, cpu, out = _timed([sys.executable, str(Path(__file__).resolve()), "--driver", kind, "--jobs", str(jobs),
                             "--games", str(games), "--seed", str(seed), "--folder", str(folder)], folder)
    return wall, cpu, json.loads(out)


# ---------------------------------------------------------------- the fastchess variant

def find_fastchess(given: str | None) -> str | None:
    """The fastchess executable: `--fastchess PATH` if given (it must be executable), else `fastchess` on PATH."""
    if given:
        path = shutil.which(given) or (given if os.access(given, os.X_OK) and Path(given).is_file() else None)
        if not path:
            sys.exit(f"--fastchess {given}: not an executable file")
        return str(Path(path).resolve())
    return shutil.which("fastchess")


def _pgn_games(text: str) -> list[tuple[int, str, str]]:
    """(plies, how it ended, the moves) of each game of a fastchess PGN file, in file order."""
    games = []
    for chunk in re.split(r"\n\s*\n(?=\[Event )", text.strip()):
        if not chunk.strip():
            continue
        tags, _, body = chunk.partition("\n\n")
        end = re.search(r"\{(?:[^{}]*, )?([^{},]*)\}\s*(?:1-0|0-1|1/2-1/2|\*)\s*$", body)
        moves = [w for w in re.sub(r"\{[^{}]*\}", " ", body).split()
                 if not re.fullmatch(r"\d+\.(\.\.)?|1-0|0-1|1/2-1/2|\*", w)]
        count = re.search(r'\[PlyCount "(\d+)"\]', tags)
        plies = int(count.group(1)) if count else len(moves)
        if plies != len(moves):
            sys.exit(f"fastchess PGN: PlyCount {plies} but {len(moves)} moves in a game")
        games.append((plies, end.group(1).strip() if end else "?", " ".join(moves)))
    return games


def run_fastchess(exe: str, jobs: int, games: int, seed: int, folder: Path,
                  restart: bool) -> tuple[float, float, list[tuple[int, str, str]]]:
    """Wall time, CPU time and (plies, ending, moves) per game of one fastchess match of INSTANT_UCI against itself."""
    run = folder / f"fastchess-j{jobs}"
    shutil.rmtree(run, ignore_errors=True)  # the PGN, config.json and the engines' game counters of the last run
    run.mkdir()
    rounds, per_round = (games // 2, 2) if games % 2 == 0 else (games, 1)
    engine = [f"cmd={sys.executable}", f"args={folder / 'instant_uci.py'}", f"dir={run}"]
    wall, cpu, _ = _timed([exe, "-engine", *engine, "name=a", f"option.Seed={seed}a",
                           "-engine", *engine, "name=b", f"option.Seed={seed}b",
                           "-each", "nodes=1", f"restart={'on' if restart else 'off'}",
                           "-rounds", str(rounds), "-games", str(per_round),
                           "-concurrency", str(jobs), "-force-concurrency",
                           "-pgnout", f"file={run / 'games.pgn'}", "append=false",
                           "-autosaveinterval", "0", "-ratinginterval", "0"], run)
    played = _pgn_games((run / "games.pgn").read_text())
    if len(played) != games:
        sys.exit(f"fastchess played {len(played)} games, not {games} (see {run})")
    return wall, cpu, played


def _fastchess_version(exe: str) -> str:
    done = subprocess.run([exe, "-version"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, check=False)
    return done.stdout.strip().splitlines()[0] if done.stdout.strip() else "version unknown"


# ---------------------------------------------------------------- the table

#: The prototest variants: kind -> the bot's script
PROTOTEST_BOTS = {"prototest": "instant_bot.py", "prototest-inc": "instant_bot_inc.py"}
#: The anchors that play prototest's own games again: kind -> the prototest variant whose games
SAME_GAMES = {"same": "prototest", "same-inc": "prototest-inc"}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per variant and run (default 40)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of all the runs; medians reported (default 3)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--fastchess", metavar="PATH",
                        help="the fastchess executable (default: `fastchess` on PATH; without one, no fastchess rows)")
    parser.add_argument("--fastchess-restart", action="store_true",
                        help="(the default now: fastchess runs with restart=off and with restart=on)")
    parser.add_argument("--driver", choices=("raw", "raw-inc", "engine", "same", "same-inc"),
                        help=argparse.SUPPRESS)  # one anchor run
    parser.add_argument("--jobs", type=int, default=1, help=argparse.SUPPRESS)
    parser.add_argument("--folder", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.driver:
        print(json.dumps(drive(args.driver, args.games, args.jobs, args.seed, args.folder)))
        return

    variants = [("prototest check", "prototest"), ("prototest check, inc. bot", "prototest-inc"),
                ("raw pipe (os.write/os.read)", "raw"), ("raw pipe, inc. bot", "raw-inc"),
                ("raw pipe, prototest's games", "same"), ("raw, prototest's games, inc.", "same-inc"),
                ("chess.engine (SimpleEngine)", "engine")]
    fastchess = find_fastchess(args.fastchess)
    if fastchess:
        variants += [("fastchess restart=off", "fastchess"), ("fastchess restart=on", "fastchess-restart")]
    else:
        print("fastchess: not on PATH and no --fastchess PATH given; its rows are left out", file=sys.stderr)
    keys = [(kind, j) for _, kind in variants for j in (1, 2)]
    rates: dict[tuple[str, int], list[float]] = {key: [] for key in keys}
    cpus: dict[tuple[str, int], list[float]] = {key: [] for key in keys}  # CPU us per ply
    busy: dict[tuple[str, int], list[float]] = {key: [] for key in keys}  # CPU time / wall time
    others: dict[tuple[str, int], list[float]] = {key: [] for key in keys}  # other processes' CPU / wall
    plies: dict[tuple[str, int], int] = {}
    games_seen: dict[tuple[str, int], list[list[tuple]]] = {key: [] for key in keys if key[0] in PROTOTEST_BOTS}
    bot_cpu: dict[str, list[float]] = {kind: [] for kind in PROTOTEST_BOTS}  # the bots' CPU s of one run, replayed
    fastchess_seen: dict[tuple[str, int], list[list[tuple]]] = {key: [] for key in keys if key[0].startswith("fast")}
    load_before = Path("/proc/loadavg").read_text().split()[:3]
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="prototest-bench-") as tmp:
        folder = Path(tmp)
        for name, text in BOTS.items():
            (folder / name).write_text(text)
        (folder / "instant_uci.py").write_text(INSTANT_UCI)
        for r in range(args.rounds):
            for _, kind in variants:
                for jobs in ((1, 2) if r % 2 == 0 else (2, 1)):
                    if kind in PROTOTEST_BOTS:
                        wall, cpu, per_game = run_prototest(jobs, args.games, args.seed, folder, PROTOTEST_BOTS[kind])
                        games_seen[(kind, jobs)].append(per_game)
                        total = sum(g[0] for g in per_game)
                    elif kind.startswith("fastchess"):
                        wall, cpu, per_game = run_fastchess(fastchess, jobs, args.games, args.seed, folder,
                                                            restart=kind == "fastchess-restart")
                        fastchess_seen[(kind, jobs)].append(per_game)
                        total = sum(g[0] for g in per_game)
                    else:
                        if kind in SAME_GAMES:  # the games of this round's run of prototest with that bot
                            played = games_seen[(SAME_GAMES[kind], jobs)][-1]
                            (folder / f"{kind}-games.json").write_text(json.dumps([(g[6], g[4]) for g in played]))
                        wall, cpu, counts = run_anchor(kind, jobs, args.games, args.seed, folder)
                        total = sum(counts)
                    plies[(kind, jobs)] = total
                    rates[(kind, jobs)].append(total / wall)
                    cpus[(kind, jobs)].append(cpu / total * 1e6)
                    busy[(kind, jobs)].append(cpu / wall)
                    others[(kind, jobs)].append(OTHERS[-1])
                    print(f"round {r + 1}: {kind} jobs {jobs}: {total} plies in {wall:.2f} s, "
                          f"{total / wall:.0f} plies/s, CPU {cpu:.2f} s, other processes {OTHERS[-1]:.2f} cores",
                          file=sys.stderr, flush=True)
            for kind, script in PROTOTEST_BOTS.items():  # the bots of this round's games, alone
                played = games_seen[(kind, 1)][-1]
                bot_cpu[kind].append(bots_cpu([sys.executable, str(folder / script)],
                                              [(g[6], g[4], 0) for g in played]))
                print(f"round {r + 1}: {kind}'s bots replayed alone: CPU {bot_cpu[kind][-1]:.2f} s",
                      file=sys.stderr, flush=True)
    load_after = Path("/proc/loadavg").read_text().split()[:3]

    med = {key: statistics.median(values) for key, values in rates.items()}
    print(f"chess plies per second, instant bots, {args.games} games a run, seed {args.seed}, "
          f"median of {args.rounds} rounds (variants alternating), {len(os.sched_getaffinity(0))} cores, "
          f"{time.monotonic() - started:.0f} s in all")
    print(f"load average (1, 5, 15 min) before: {' '.join(load_before)}, after: {' '.join(load_after)}; "
          f"other processes' CPU during the runs (cores): median {statistics.median(OTHERS):.2f}, "
          f"max {max(OTHERS):.2f}")
    print("plies/s = total plies of all games / wall time of the command (its own process start and every bot's "
          "included);")
    print("CPU = user + system time of the command and all its descendants, per ply; busy = CPU time / wall time "
          "(cores in use)")
    print(f"  {'variant':29} {'plies':>6} {'jobs 1':>8} {'jobs 2':>8} {'2/1':>6}   "
          f"{'CPU us/ply j1':>13} {'j2':>5}   {'busy j1':>7} {'j2':>5}")
    for name, kind in variants:
        total = "/".join(sorted({str(plies[(kind, 1)]), str(plies[(kind, 2)])}))
        c1, c2, b1, b2 = (statistics.median(d[(kind, j)]) for d in (cpus, busy) for j in (1, 2))
        print(f"  {name:29} {total:>6} {med[(kind, 1)]:8.0f} {med[(kind, 2)]:8.0f} "
              f"{med[(kind, 2)] / med[(kind, 1)]:6.2f}   {c1:13.0f} {c2:5.0f}   {b1:7.2f} {b2:5.2f}")
    print("prototest's figure over each other variant's (plies/s; the aim against fastchess: at least 1.0):")
    for name, kind in variants:
        if kind in PROTOTEST_BOTS:
            continue
        for mine in PROTOTEST_BOTS:
            print(f"  {mine + ' / ' + kind:36} jobs 1 {med[(mine, 1)] / med[(kind, 1)]:5.2f}   "
                  f"jobs 2 {med[(mine, 2)] / med[(kind, 2)]:5.2f}")
    print("like for like, the same games over bare pipes (the harness's cost and nothing else; the aim: at least "
          "0.8 at jobs 2):")
    for same, mine in SAME_GAMES.items():
        print(f"  {mine + ' / ' + same:36} jobs 1 {med[(mine, 1)] / med[(same, 1)]:5.2f}   "
              f"jobs 2 {med[(mine, 2)] / med[(same, 2)]:5.2f}")
    print("prototest's CPU per ply, split: the bots' (the same games' bot processes replayed alone over bare pipes, "
          "median of the rounds) and the harness's own (the run's CPU less that: the judge, its opponent, the "
          "keepers, the command's start-up):")
    for kind in PROTOTEST_BOTS:
        total = plies[(kind, 1)]
        bots_us = statistics.median(bot_cpu[kind]) / total * 1e6
        own = [statistics.median(cpus[(kind, j)]) - bots_us for j in (1, 2)]
        print(f"  {kind:14} bots {bots_us:5.0f} us/ply   harness jobs 1 {own[0]:5.0f} us/ply, jobs 2 {own[1]:5.0f} us/ply"
              f"   (bots replayed: {' '.join(f'{c:.2f}' for c in bot_cpu[kind])} s)")
    print("per round, in run order: plies/s (other processes' CPU during the run, in cores)")
    for name, kind in variants:
        for jobs in (1, 2):
            print(f"  {name:29} jobs {jobs}: " + "  ".join(
                f"{v:5.0f} ({o:.2f})" for v, o in zip(rates[(kind, jobs)], others[(kind, jobs)])))
    first = games_seen[("prototest", 1)][0]
    same = all(run == first for runs in games_seen.values() for run in runs)
    rechecked = sum(1 for runs in games_seen.values() for run in runs for g in run if g[5])
    verdicts = sorted({f"{g[1]}" + (f" ({g[2]})" if g[2] else "") for g in first})
    print(f"prototest per-game plies, jobs 1: {' '.join(str(g[0]) for g in first)}")
    print(f"same moves, plies, results and checks in every prototest run (both bots, jobs 1 and 2, every round): "
          f"{'yes' if same else 'NO'}; games re-checked alone: {rechecked}; "
          f"every check passed: {'yes' if all(v == 'pass' for g in first for _, v in g[3]) else 'NO'}")
    print(f"results: {', '.join(verdicts)}")
    if fastchess:
        print(f"fastchess: {fastchess} ({_fastchess_version(fastchess)})")
    for (kind, jobs), runs in fastchess_seen.items():
        every = [g for run in runs for g in run]
        print(f"{kind} per-game plies, jobs {jobs} (round 1, PGN order): {' '.join(str(g[0]) for g in runs[0])}")
        print(f"{kind} jobs {jobs}: distinct games {len({g[2] for g in every})} of {len(every)} played in "
              f"{len(runs)} runs; total plies per run: {' '.join(str(sum(g[0] for g in run)) for run in runs)}; "
              f"endings: {', '.join(sorted({g[1] for g in every}))}")
    if not same:
        sys.exit("the prototest runs did not all play the same games (the two bots must choose alike)")


if __name__ == "__main__":
    main()
