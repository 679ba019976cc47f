"""`match --shard I/N`: which pairs a shard plays, and what names a match (its identity),
so that shards of one match are told from shards of another.

A match's games come in pairs (one opening, the seats swapped), numbered over the whole
match from 1: games 2k-1 and 2k are pair k (with three bots or more, each pairing's pairs
follow the previous pairing's). Shard I of N plays the pairs k with (k - 1) mod N = I - 1,
whole, with the seeds and openings the unsharded match gives them: the shards' games are
the unsharded match's, game for game, and pairs are interleaved, so shards that stop early
(an SPRT over all shards, `prototest.play.matchtally`) have played the match's first pairs.

The identity names the bots (a digest of each command line and of every file it names),
the game and its overrides, the openings, the seed, the games, the time scale and the
SPRT's parameters; its digest is the key of the shared tally and what `prototest merge`
compares.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path
from typing import Any

from .match import MatchRun, pair_of

#: Bytes of a file read into a bot's digest at most (a bot's binary is read whole up to here).
DIGEST_LIMIT = 256 << 20


def in_shard(pair: int, shard: tuple[int, int] | None) -> bool:
    """Whether pair `pair` (from 1, over the whole match) is shard I/N's."""
    return shard is None or (pair - 1) % shard[1] == shard[0] - 1


def shard_games(games_total: int, shard: tuple[int, int] | None) -> list[int]:
    """The game indices (from 1) that shard I/N plays: both games of each of its pairs."""
    return [i for i in range(1, games_total + 1) if in_shard(pair_of(i), shard)]


def shard_pairs(games_total: int, shard: tuple[int, int] | None) -> list[int]:
    """The pairs (from 1, over the whole match) that shard I/N plays."""
    return sorted({pair_of(i) for i in shard_games(games_total, shard)})


def bot_digest(argv: list[str], cwd: str | None = None) -> str:
    """A digest of a bot: its command line, and the content of every word of it that names
    a file (the engine's binary, the script), so a new build under the same path is
    another bot. The interpreter found on PATH (`python3`) counts by its name only."""
    digest = hashlib.sha256()
    for word in argv:
        digest.update(word.encode("utf-8", "surrogateescape") + b"\0")
        if "/" not in word and word is argv[0]:
            continue  # a command looked up on PATH: its name
        path = Path(cwd or os.getcwd(), word)
        try:
            if path.is_file():
                with open(path, "rb") as fh:
                    digest.update(hashlib.sha256(fh.read(DIGEST_LIMIT)).digest())
        except OSError:
            continue
    return digest.hexdigest()[:32]


def file_digest(path: str | None) -> str | None:
    """A file's digest (an opening book), None without one or when it cannot be read."""
    if path is None:
        return None
    try:
        return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:32]
    except OSError:
        return None


def identity(run: MatchRun, overrides: list[str], cwd: str | None = None) -> dict[str, Any]:
    """What makes the match this match: two runs with the same identity play the same
    games (bots, game, openings, seed, games, time scale) and test the same SPRT. Its
    `key` is a digest of the rest."""
    from . import match as matchmod

    spec_text = ""
    try:
        spec_text = Path(run.spec.path).read_text(encoding="utf-8")
    except OSError:
        pass
    data: dict[str, Any] = {
        "bots": {matchmod.LETTERS[i]: bot_digest(argv, cwd) for i, argv in enumerate(run.bots)},
        "game": run.spec.name,
        "spec": hashlib.sha256(spec_text.encode()).hexdigest()[:32],
        "overrides": list(overrides),
        "mode": run.mode,
        "seed": run.seed,
        "games_total": run.games_total,
        "opening_plies": run.opening_plies,
        "openings_book": file_digest(run.book),
        "time_scale": run.time_scale,
        "sprt": run.sprt_options,
    }
    data["key"] = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:32]
    return data


#: What differs between two matches, in the words of the line that says so (merge, the tally).
IDENTITY_WORDS = {"bots": "bots (their command lines and files)", "game": "game", "spec": "spec file",
                  "overrides": "--set overrides", "mode": "kind of match", "seed": "seed",
                  "games_total": "number of games", "opening_plies": "opening plies",
                  "openings_book": "opening book", "time_scale": "time scale", "sprt": "SPRT parameters"}


def difference(one: dict[str, Any], other: dict[str, Any]) -> str | None:
    """The first thing that tells two identities apart, in words, or None when they are one."""
    for key, words in IDENTITY_WORDS.items():
        if one.get(key) != other.get(key):
            if key == "bots":
                letters = [k for k in sorted({*one.get(key, {}), *other.get(key, {})})
                           if one.get(key, {}).get(k) != other.get(key, {}).get(k)]
                return f"bot {' and '.join(letters)} differs (its command line or a file it names)"
            return f"its {words} {other.get(key)!r}, not {one.get(key)!r}"
    return None
