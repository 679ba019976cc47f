"""The judge: one game between a bot and its referee, as a spec declares it.

A spec (`spec`, a game's TOML: its keys in `specschema`, its file read by `specfile`)
drives the session: what to send each turn, what an answer may look like, the limits. The
`Referee` plays one game: the bot's start (`startup`), the dialogue on the pipes
(`dialogue`; a timeout's cause told by `timeouts`, with `askagain`; a bot gone, `crash`; the
bot's exit, `botexit`), the judging of each answer line (`judging`), the accounting of the
bot's time (`accounting`, `answertime`) and of its memory and processes (`resources`), what
the bot did outside the dialogue (`events`), a second bot in the other seat (`seat`), how
the game ended (`gameend`); the parts it makes for a step share `refereepart.RefereePart`.
Everything a bot does wrong becomes a `Finding` (`findings`; the referee's `faults` make and
note them) with its evidence, and a
game's data is `game` (GameConfig, GameReport, Exchange). Also here: `detect` (which
protocol a wrong bot seems to speak), `traces` (the bot's own stderr lines), `conformance`
(the shared suite a game's rules module must pass), `progress` (what a game in play is
doing, for the live view, in shared memory).

May import: prototest.sandbox and prototest.games. Never a run of many games, a report
or a command: one game at a time, and no output of its own.
"""
