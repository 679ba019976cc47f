"""Reference figures for prototest/play/stats/: real fastchess matches, and whether
prototest.play.stats prints the same lines for the same results.

Not a test: it runs fastchess and prints. Run:
`python benchmarks/stats_reference.py --fastchess PATH [--only NAME ...] [--python]`.

fastchess (https://github.com/Disservin/fastchess, a C++ tournament runner for UCI chess
engines; build it apart, `make -C fastchess`, never commit its code or binary here) plays
two instances of a small UCI engine written below in Python (python-chess): style
`random` plays a random legal move, `greedy` with probability Greed % mates in one if it
can, else captures the most valuable piece it can, else moves at random, and `illegal`
answers every `go` with an illegal move (it loses each game at once). Every scenario runs
with `-concurrency 1 -ratinginterval 1`, so fastchess prints its report after every game
pair (pentanomial reports, its default with `-games 2`) or every game (`-report
penta=false`), in order: each report is one more pair or game than the last. From the
report lines (Games: W/L/D, Ptnml(0-2)) and their differences (a new 1-point pair is WL
when a win and a loss came with it, DD otherwise) this script rebuilds the counts,
renders them with `prototest.play.stats.fastchess_report` and compares the lines with
fastchess's, character for character.

`--python` prints the Python literals tests/test_stats.py embeds: FASTCHESS_SPRT (each
scenario's SPRT settings), FASTCHESS_REPORTS (some reports whole: scenario, wins, draws,
losses, ptnml or None, (WL, DD) or None, fastchess's lines) and FASTCHESS_SEQUENCES (per
scenario every game or pair in order and the LLR fastchess printed after it).

The games depend on the engines' random choices (seeded by option Seed, the game number
and the position) and on fastchess: another fastchess version may play other games, so
the recorded numbers are kept in the tests rather than regenerated there.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from prototest.play import stats  # noqa: E402

STYLE_UCI = r"""
import random, sys
import chess
read, write, flush = sys.stdin.readline, sys.stdout.write, sys.stdout.flush
board, start, played = chess.Board(), chess.STARTING_FEN, []
seed, style, greed, game = "off", "random", 100, 0
VALUE = {chess.PAWN: 1, chess.KNIGHT: 3, chess.BISHOP: 3, chess.ROOK: 5, chess.QUEEN: 9, chess.KING: 0}


def choose(rng):
    legal = list(board.legal_moves)
    if not legal:
        return "0000"
    if style == "illegal":
        return "a1a1"
    if style == "greedy" and rng.randrange(100) < greed:
        for move in legal:
            board.push(move)
            mate = board.is_checkmate()
            board.pop()
            if mate:
                return move.uci()
        captures = [move for move in legal if board.is_capture(move)]
        if captures:
            def gain(move):
                victim = board.piece_at(move.to_square)
                return VALUE[victim.piece_type] if victim else 1  # en passant
            best = max(gain(move) for move in captures)
            return rng.choice([move for move in captures if gain(move) == best]).uci()
    return rng.choice(legal).uci()


while True:
    line = read()
    if not line:
        break
    words = line.split()
    if not words:
        continue
    cmd = words[0]
    if cmd == "uci":
        write("id name style\nid author prototest benchmarks\n"
              "option name Seed type string default off\n"
              "option name Style type string default random\n"
              "option name Greed type spin default 100 min 0 max 100\nuciok\n")
    elif cmd == "isready":
        write("readyok\n")
    elif cmd == "setoption" and len(words) >= 5:
        name, value = words[2], " ".join(words[4:])
        if name == "Seed":
            seed = value
        elif name == "Style":
            style = value
        elif name == "Greed":
            greed = int(value)
    elif cmd == "ucinewgame":
        board, start, played = chess.Board(), chess.STARTING_FEN, []
        game += 1
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
        rng = random.Random(f"{seed} {game} {board.fen()}")
        write(f"bestmove {choose(rng)}\n")
    elif cmd == "quit":
        break
    flush()
"""

#: name -> (first engine's options, second engine's, rounds, SPRT (elo0, elo1, model, alpha;
#: beta is 0.05), pentanomial reports, extra fastchess arguments)
SCENARIOS: dict[str, tuple[dict, dict, int, tuple | None, bool, list[str]]] = {
    # a clearly stronger first engine, every pair reported, nElo SPRT
    "greedy30-normalized": ({"Style": "greedy", "Greed": 30, "Seed": 1}, {"Seed": 2}, 20,
                            (0, 5, "normalized", 0.05), True, []),
    # a slightly stronger one, logistic SPRT
    "greedy5-logistic": ({"Style": "greedy", "Greed": 5, "Seed": 3}, {"Seed": 4}, 40,
                         (0, 10, "logistic", 0.05), True, []),
    # the weaker side first (negative Elo), nElo SPRT
    "random-vs-greedy2": ({"Seed": 5}, {"Style": "greedy", "Greed": 2, "Seed": 6}, 40,
                          (-5, 5, "normalized", 0.05), True, []),
    # game results only (-report penta=false): Elo from W/D/L, LLR per game
    "wdl-normalized": ({"Style": "greedy", "Greed": 3, "Seed": 7}, {"Seed": 8}, 30,
                       (0, 5, "normalized", 0.05), False, ["-report", "penta=false"]),
    "wdl-logistic": ({"Style": "greedy", "Greed": 10, "Seed": 9}, {"Seed": 10}, 30,
                     (0, 10, "logistic", 0.05), False, ["-report", "penta=false"]),
    # fastchess's BayesElo SPRT (it turns pentanomial reports off for it)
    "wdl-bayesian": ({"Style": "greedy", "Greed": 10, "Seed": 11}, {"Seed": 12}, 30,
                     (0, 10, "bayesian", 0.05), False, []),
    # an SPRT that ends: H1 accepted
    "sprt-h1": ({"Style": "greedy", "Greed": 30, "Seed": 13}, {"Seed": 14}, 1000,
                (0, 5, "normalized", 0.05), True, []),
    # the edges: all wins, all draws (adjudicated after one move)
    "all-wins": ({"Seed": 15}, {"Style": "illegal"}, 3, (0, 5, "normalized", 0.05), True, []),
    "all-draws": ({"Seed": 16}, {"Seed": 17}, 3, (0, 5, "normalized", 0.05), True, ["-maxmoves", "1"]),
    "all-wins-wdl": ({"Seed": 18}, {"Style": "illegal"}, 3, (0, 5, "logistic", 0.05), False,
                     ["-report", "penta=false"]),
    # long runs of wins (as in fastchess's own sprt_test.cpp, "normalized trinomial 3" and
    # "normalized pentanomial 3"), alpha = 1e-60 so that the SPRT does not stop them
    "4250-wins-wdl": ({"Seed": 19}, {"Style": "illegal"}, 2125, (0, 10, "normalized", 1e-60), False,
                      ["-report", "penta=false"]),
    "5550-ww-pairs": ({"Seed": 20}, {"Style": "illegal"}, 5550, (0, 5, "normalized", 1e-60), True, []),
}


def run(exe: str, name: str, folder: Path) -> tuple[list[list[str]], str]:
    """fastchess's report blocks (their lines) and its termination message, if any."""
    first, second, rounds, sprt, _penta, extra = SCENARIOS[name]
    engine = [f"cmd={sys.executable}", f"args={folder / 'style_uci.py'}"]
    cmd = [exe]
    for label, options in (("first", first), ("second", second)):
        cmd += ["-engine", *engine, f"name={label}", *(f"option.{k}={v}" for k, v in options.items())]
    cmd += ["-each", "nodes=1", "-rounds", str(rounds), "-games", "2", "-concurrency", "1",
            "-ratinginterval", "1", "-autosaveinterval", "0",
            "-pgnout", f"file={folder / (name + '.pgn')}", "append=false", *extra]
    elo0, elo1, model, alpha = sprt
    cmd += ["-sprt", f"elo0={elo0}", f"elo1={elo1}", f"alpha={alpha}", "beta=0.05", f"model={model}"]
    done = subprocess.run(cmd, cwd=folder, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          check=False, timeout=3600)
    if done.returncode != 0:
        sys.exit(f"fastchess failed ({done.returncode}):\n{done.stdout[-3000:]}")
    blocks, block = [], None
    for line in done.stdout.splitlines():
        if line.startswith("Results of "):
            block = []
        elif line.startswith("-----"):
            if block:
                blocks.append(block)
            block = None
        elif block is not None:
            block.append(line)
    ended = re.search(r"^SPRT \(.*\) completed - .*$", done.stdout, re.M)
    return blocks, ended.group(0) if ended else ""


def counts(blocks: list[list[str]]) -> list[tuple]:
    """Per block: (wins, draws, losses, ptnml or None, (WL, DD) or None, lines)."""
    out, wl, dd, last = [], 0, 0, None
    for lines in blocks:
        games = re.search(r"Wins: (\d+), Losses: (\d+), Draws: (\d+)", "\n".join(lines))
        wins, losses, draws = (int(x) for x in games.groups())
        ptnml_line = next((line for line in lines if line.startswith("Ptnml(0-2)")), None)
        ptnml = None
        if ptnml_line:
            ptnml = tuple(int(x) for x in re.search(r"\[([^]]*)\]", ptnml_line).group(1).split(", "))
            if last is not None and ptnml[2] > last[3][2]:  # one more 1-point pair
                if wins > last[0]:
                    wl += 1
                else:
                    dd += 1
            elif last is None and ptnml[2]:
                wl, dd = (1, 0) if wins else (0, 1)
        out.append((wins, draws, losses, ptnml, (wl, dd) if ptnml else None, lines))
        last = (wins, draws, losses, ptnml)
    return out


def render(name: str, record: tuple) -> list[str]:
    wins, draws, losses, ptnml, split, _lines = record
    elo0, elo1, model, alpha = SCENARIOS[name][3]
    test = stats.sprt(ptnml if ptnml else (wins, draws, losses), elo0, elo1, alpha, 0.05, model)
    return stats.fastchess_report((wins, draws, losses), ptnml, test, split)


def outcome(before: tuple | None, row: tuple) -> str:
    """The game or pair one report adds to the last: "W", "D", "L" (a game) or "0".."4"
    (a pair's points times 2); "" for a report that repeats the last (fastchess prints the
    final report twice when the SPRT ends the match)."""
    wins, draws, losses, ptnml = row[:4]
    if before is None:
        before = (0, 0, 0, (0, 0, 0, 0, 0) if ptnml else None)
    if ptnml:
        grew = [i for i in range(5) if ptnml[i] > before[3][i]]
        return str(grew[0]) if grew else ""
    return "W" if wins > before[0] else "D" if draws > before[1] else "L" if losses > before[2] else ""


def _chunks(text: str, width: int, sep: str) -> list[str]:
    """A long string as adjacent literals of about `width` characters, one a line."""
    pieces, line = [], ""
    for word in text.split(sep) if sep else list(text):
        if line and len(line) + len(sep) + len(word) > width:
            pieces.append(line + sep)
            line = ""
        line += (sep if line else "") + word
    pieces.append(line)
    if len(pieces) == 1:
        return [f"        {pieces[0]!r},"]
    return ["        (" + repr(pieces[0])] + [f"         {piece!r}" for piece in pieces[1:-1]] + \
        [f"         {pieces[-1]!r}),"]


def literal(records: dict[str, dict]) -> str:
    """The Python literals tests/test_stats.py embeds."""
    out = ["FASTCHESS_SPRT = {"]
    out += [f"    {name!r}: {record['sprt']!r}," for name, record in records.items()]
    out += ["}", "", "FASTCHESS_REPORTS = ["]
    sequences = []
    for name, record in records.items():
        rows = record["reports"]
        # of each scenario the first three reports, one in the middle and the last
        picked = {id(row): row for row in rows[:3] + [rows[len(rows) // 2], rows[-1]]}
        for wins, draws, losses, ptnml, split, lines in picked.values():
            out.append(f"    ({name!r}, {(wins, draws, losses)!r}, {ptnml!r}, {split!r}, (")
            out += [f"        {line!r}," for line in lines]
            out.append("    )),")
        if len(rows) > 200:
            continue
        steps, llrs, before = [], [], None
        for row in rows:
            step = outcome(before, row)
            if step:
                steps.append(step)
                llrs.append(re.match(r"LLR: (\S+)", row[5][-1]).group(1))
            before = row[:4]
        sequences.append(f"    {name!r}: (")
        sequences += _chunks("".join(steps), 100, "") + _chunks(" ".join(llrs), 100, " ")
        sequences += [f"        {record['ended']!r},", "    ),"]
    out += ["]", "", "FASTCHESS_SEQUENCES = {", *sequences, "}"]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fastchess", metavar="PATH", default=shutil.which("fastchess"),
                        help="the fastchess executable (default: `fastchess` on PATH)")
    parser.add_argument("--only", nargs="*", choices=sorted(SCENARIOS), help="these scenarios only")
    parser.add_argument("--python", action="store_true", help="print the records as a Python literal")
    args = parser.parse_args()
    if not args.fastchess:
        sys.exit("no fastchess: --fastchess PATH")
    version = subprocess.run([args.fastchess, "-version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    records: dict[str, dict] = {}
    with tempfile.TemporaryDirectory(prefix="stats-reference-") as tmp:
        folder = Path(tmp)
        (folder / "style_uci.py").write_text(STYLE_UCI)
        for name in args.only or SCENARIOS:
            blocks, ended = run(args.fastchess, name, folder)
            rows = counts(blocks)
            if not rows or (rows[0][3] is not None) != SCENARIOS[name][4]:
                sys.exit(f"{name}: {len(rows)} reports, pentanomial {SCENARIOS[name][4]} expected")
            same = sum(render(name, row) == row[5] for row in rows)
            print(f"# {name}: {len(rows)} reports, {same} printed alike by prototest.play.stats"
                  f"{'; ' + ended if ended else ''}", file=sys.stderr if args.python else sys.stdout)
            for row in rows:
                mine = render(name, row)
                if mine != row[5]:
                    print(f"  differs at W/D/L {row[:3]} ptnml {row[3]}:\n    fastchess: {row[5]}\n"
                          f"    prototest: {mine}", file=sys.stderr)
            if not args.python:
                last = rows[-1][5]
                print("\n".join("    " + line for line in last))
            records[name] = {"sprt": SCENARIOS[name][3], "ended": ended,
                             "reports": [(w, d, l, p, s, tuple(lines)) for w, d, l, p, s, lines in rows]}
    if args.python:
        print(f"# {version}; benchmarks/stats_reference.py --python")
        print(literal(records))


if __name__ == "__main__":
    main()
