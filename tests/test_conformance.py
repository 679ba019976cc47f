"""The shared conformance suite (prototest/judge/conformance.py) on every installed game: the
four built-in ones, and any a plugin adds (docs/adding-a-game.md)."""

from prototest.judge.conformance import *  # noqa: F401,F403 - the shared suite
