"""A fuzz campaign's next bot, started ahead of its run: the search on a spec with
`start.ahead` (the chess judge, whose colour line comes "an unspecified time after
startup").

`check` starts the next game's bot while it plays one game at a time (runner.Ahead). The
search's next example is not drawn yet while one plays, but its bot needs only the command,
the environment (the coverage collector's included) and the folder, which every run of the
search shares. So, where a core is to spare (`--jobs 1`), once a search run's bot has given
its first answer (their start-ups never compete), the campaign starts one more bot, and the
next search run adopts it (Referee.adopt): the run does not wait for the bot's start-up (an
interpreter, a JVM).

What the judge sees stays as in `check`: the bot's first answer is timed from the colour
line, as the real judge times it; whatever the bot wrote meanwhile is early output; its
death meanwhile is a crash; the transcript says it was started ahead. A run alone (a timing
failure played again before it is a verdict) never has a spare beside it: the campaign's
own is killed first, and another campaign's run alone waits until this one's is adopted or
killed (the gate: Alone.spare_may_start). The other runs (the state probe, shortening) start
their own bot; the spare waits for the next search run, and the search's end kills it.
`--set start.ahead=false` turns it off.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..judge import startup
from ..judge.referee import Referee
from ..sandbox import process
from ..sandbox.envelope import Envelope
from ..sandbox.transcript import Transcript
from . import pool

if TYPE_CHECKING:
    from .fuzz import Campaign


class Spare:
    """At most one bot started ahead of the campaign's next search run."""

    def __init__(self, campaign: "Campaign") -> None:
        self.campaign = campaign
        self.bot: process.Bot | None = None
        self.transcript: Transcript | None = None
        #: the environment it was started with: a run with another one starts its own
        self.env: dict[str, str] | None = None

    @property
    def allowed(self) -> bool:
        """The spec lets a bot start ahead, and a core is to spare (as for runner.Ahead: at
        `--jobs 1`, where the run waits on its bot; with a worker per core the cores are
        busy already, and a bot's start-up ahead would only take one from another run)."""
        return self.campaign.target.spec.start.ahead and self.campaign.options.jobs < pool.default_jobs()

    def give(self, referee: Referee) -> None:
        """Before a search run: its referee adopts the spare (when one waits, started for
        the same environment), and starts the next once the bot has answered."""
        if not self.allowed:
            return
        bot, self.bot = self.bot, None
        if bot is not None:
            self.campaign.gate.spare_gone()
            if self.env == referee.cfg.env:
                assert self.transcript is not None
                referee.adopt(bot, self.transcript)
                self.campaign.run.started_ahead += 1
            else:
                bot.kill()
        referee.after_first_answer = self.start

    def start(self) -> None:
        """Start the spare, as the next search run will start its bot (nothing when one
        waits, or another campaign waits to play alone; a bot that cannot start is left
        to that run, which says why)."""
        if self.bot is not None or not self.campaign.gate.spare_may_start():
            return
        c = self.campaign
        covered = c.coverage.setup()
        env = covered[0] if covered else c.target.env
        spec = c.target.spec
        transcript = Transcript()
        try:
            self.bot = startup.start_bot(spec, c.target.argv, env, c.target.cwd, Envelope.from_spec(spec), transcript)
        except BaseException as exc:  # an interrupt too: the Bot killed what it had started
            c.gate.spare_gone()
            if isinstance(exc, OSError):
                return
            raise
        self.transcript, self.env = transcript, env

    def kill(self) -> None:
        """No spare any more (a run alone, the search's end)."""
        bot, self.bot = self.bot, None
        if bot is not None:
            try:
                bot.kill()
            finally:
                self.campaign.gate.spare_gone()

