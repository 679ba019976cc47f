"""prototest: a protocol tester for game-playing bots.

The package is in layers, each a subpackage that imports only the layers below it (an
import-linter contract in pyproject.toml holds the order; ARCHITECTURE.md tells the story):

    cli, entry, testing, pytest_plugin, fixtures   the ways in: the command line, pytest
    commands      one module per command: options resolved, the run started, its exit
    reports       summary, JSON, JUnit, HTML pages, the live terminal view
    play          many games: check's runner, the worker pool, fuzz, match, fixtures
    judge         one game: the spec, the referee, the dialogue, judging, findings
    sandbox       one bot process: pipes, timing, cgroups, seccomp, the keeper
    games         the rules of each game, its opponents and its boards

`bots` holds the bundled example bots, run as processes, never imported by the layers.
"""

__version__ = "0.1.0"
