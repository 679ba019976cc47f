"""How a bot ended, in words: "exited with status 1", "was killed by SIGABRT"."""

from __future__ import annotations

import signal


def describe_end(code: int | None) -> str:
    """How the bot ended, as a verb phrase: "exited with status 1", "was killed by SIGABRT"
    (describe_status's noun phrase would read "ended with killed by SIGABRT")."""
    if code is None:
        return "is still running"
    if code < 0:
        return f"was {describe_status(code)}"
    return f"exited with status {code}"


def describe_status(code: int | None) -> str:
    if code is None:
        return "still running"
    if code < 0:
        try:
            name = signal.Signals(-code).name
        except ValueError:
            name = f"signal {-code}"
        return f"killed by {name}"
    return f"exit status {code}"
