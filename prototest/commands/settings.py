"""What one run uses: the command line, over the bot's config file, over the defaults.

Kept apart from the CLI's option parsing so every command that plays a bot (`check`
today) merges the same way, and so the report can say where the game came from: a
chess default is announced, because a Halma or CodinGame bot run without a game fails
in ways that do not name the cause.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..games import DEFAULT_GAME
from ..play.failfast import DEFAULT_MAX_FAIL
from .config import Config

__all__ = ["DEFAULT_GAME", "DEFAULT_MAX_FAIL"]  # defaults kept beside the layer that uses them

DEFAULT_SEED = 1
DEFAULT_TIME_SCALE = 1.0
#: `check`'s games when neither --games nor the config file says (issue 20, item 7): a bot that
#: plays an illegal move in one game out of three passes 24 games with a chance of (2/3)^24,
#: 6e-5 (1 in 17,000); an instant chess bot's 24 games take 14 to 16.5 s on 2 cores beside other
#: work (the chess judge's 1 s of silence before each game is most of it), the other games' 2 to
#: 10 s (docs/check.md, --games). A fixed
#: count, not a time: the same seed plays the same games on any machine. `record` keeps one
#: game per seat, and so does a forced start (--moves, --position, --opponent-moves), whose
#: games would all replay the same given moves.
DEFAULT_CHECK_GAMES = 24


@dataclass(frozen=True)
class Settings:
    game: str
    spec_path: Path | None
    #: What chose the protocol: "--game", "--spec", "config" or "default".
    game_source: str
    bot: list[str]
    #: The folder the bot runs in: the config file's when the bot came from there.
    bot_cwd: str | None
    games: int  # 0: not given (check: DEFAULT_CHECK_GAMES; record: one game per seat)
    seed: int
    time_scale: float
    env: dict[str, str] = field(default_factory=dict)
    overrides: list[str] = field(default_factory=list)
    #: How many of `overrides` come from the config file (they come first).
    config_overrides: int = 0
    config: Config | None = None

    @property
    def game_chosen(self) -> bool:
        return self.game_source != "default"


def resolve(*, bot: list[str] | None, game: str | None, spec_path: Path | None, games: int,
            seed: int | None, time_scale: float | None, env: dict[str, str], overrides: list[str],
            config: Config | None) -> Settings:
    """Merge the command line's values (None or empty: not given) over the config's."""
    cfg = config or Config(path=Path("."))
    if spec_path is not None or game is not None:
        source = "--spec" if spec_path is not None else "--game"
        chosen_game, chosen_spec = game or DEFAULT_GAME, spec_path
    elif cfg.spec is not None or cfg.game is not None:
        source, chosen_game, chosen_spec = "config", cfg.game or DEFAULT_GAME, cfg.spec
    else:
        source, chosen_game, chosen_spec = "default", DEFAULT_GAME, None
    from_config = not bot and cfg.bot is not None
    return Settings(
        game=chosen_game, spec_path=chosen_spec, game_source=source,
        bot=list(cfg.bot or []) if from_config else list(bot or []),
        bot_cwd=str(cfg.folder) if from_config and config is not None else None,
        games=games or cfg.games or 0,
        seed=seed if seed is not None else cfg.seed if cfg.seed is not None else DEFAULT_SEED,
        time_scale=time_scale if time_scale is not None else cfg.time_scale or DEFAULT_TIME_SCALE,
        env={**cfg.env, **env},
        overrides=[*cfg.overrides, *overrides], config_overrides=len(cfg.overrides),
        config=config,
    )


_DURATION = re.compile(r"\s*(?:(\d+(?:\.\d+)?)h)?\s*(?:(\d+(?:\.\d+)?)m)?\s*(?:(\d+(?:\.\d+)?)s?)?\s*")


def parse_duration(text: str) -> float | None:
    """`90`, `90s`, `5m`, `1h30m`, `1.5m` as seconds; 0 means no limit (None).
    ValueError says what is expected."""
    match = _DURATION.fullmatch(text)
    if not text.strip() or match is None or not any(match.groups()):
        raise ValueError("expected a duration like 90s, 5m or 1h30m (0: no limit)")
    hours, minutes, seconds = (float(g) if g else 0.0 for g in match.groups())
    total = hours * 3600 + minutes * 60 + seconds
    if total > 30 * 24 * 3600:
        raise ValueError("at most 30 days")
    return total or None
