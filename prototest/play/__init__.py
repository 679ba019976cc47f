"""Play: many games, in parallel, and what a run makes of them.

`runner` plays check's games (`pool` forks the workers that play them, `failfast` stops a
run that keeps failing the same way, re-checks alone what a busy machine may have caused);
`fuzz` and `fuzzrun` search positions with Hypothesis and shrink a failure (`strategies`,
`exampledb`, `workers`); `match` and `matchgame` referee two bots and keep their games
(`stats`: Elo, SPRT); `fixtures` and `replay` record games and play them again; `forced`
is the judge's side of a game as a run sets it up (seeds, the built-in opponent, forced
moves); `scripted_bot` stands in for a recorded bot.

May import: prototest.judge, prototest.sandbox and prototest.games. It returns data
(CheckRun, a fuzz run, a match run); it never formats a report or parses a command line.
"""
