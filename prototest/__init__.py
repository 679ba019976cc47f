"""prototest: a protocol tester for game-playing bots."""

__version__ = "0.1.0"
