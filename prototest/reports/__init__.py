"""Reports: what a run's data looks like to a person or a program.

One module per format, for every command: `summary` (check's and match's text; fuzz's is
`fuzzsummary`), `jsonreport`, `junit`, `pgn` (match's chess games) and `htmlpage`, from
the words (`text`) and figures (`figures`) they share; `merge` joins shards' reports;
`htmlpage` and `gameview` draw the games as boards in an HTML page; `live` is the terminal
view while games run (it reads prototest.judge.progress), `matchview` match's lines in it.

May import: prototest.play, prototest.judge, prototest.sandbox and prototest.games. It
plays no game and starts no bot: everything it says comes from the data it is given,
so that every figure in a text equals the JSON's.
"""
