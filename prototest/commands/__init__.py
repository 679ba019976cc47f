"""The body of each command, one module each: check, moves, perft, fuzz, games, record,
replay. `prototest.cli` declares their options and calls their `execute`.

What they share: `exits` (how a command ends: exit statuses, the last lines, every
problem as one line), `common` (the options every command reads the same way) and `bot`
(the bot's command line, checked before any game); `config` (the config file),
`settings` (what each option resolves to) and `usage` (the lines that say what is wrong).

May import: prototest.reports, prototest.play, prototest.judge, prototest.sandbox and
prototest.games. Nothing here imports `prototest.cli`, which declares the options above it.
"""
