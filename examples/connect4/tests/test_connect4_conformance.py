"""The conformance suite every game passes (prototest.judge.conformance), limited to this one:
the way a game's author tests theirs as prototest tests its own."""

from prototest.judge.conformance import *  # noqa: F401,F403 - the shared suite

GAMES = ["connect4"]
