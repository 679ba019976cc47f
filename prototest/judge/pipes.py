"""Small looks at the bot's pipes that the parts of the dialogue share: an answer line as
it crossed the pipe, the bytes of the judge's lines the bot has not read yet, and the time
the machine kept the bot from a CPU.
"""

from __future__ import annotations

import fcntl
import termios
from typing import Any

from ..sandbox import process


def line_shown(r: process.Read) -> str:
    """An answer line as it crossed the pipe, for transcripts and messages: decoded with
    replacement, a \\r that ended it kept (the \\n is the line's end)."""
    data = r.data + b"\r" if r.end[:1] == b"\r" else r.data
    return data.decode("utf-8", "replace")


def unread_bytes(bot: process.Bot) -> int:
    """Bytes the judge wrote that the bot has not read yet (FIONREAD on the pipe)."""
    fd = bot.stdin_fd
    if fd is None:
        return 0
    try:
        buf = fcntl.ioctl(fd, termios.FIONREAD, b"\0\0\0\0")
    except OSError:
        return 0
    return int.from_bytes(buf, "little")


def machine_took(bot: "process.Bot", before: Any) -> int:
    """The time (ns) the machine kept the bot from a CPU since `before` (a usage), 0 when
    it is not measured."""
    if before is None:
        return 0
    from ..sandbox import envelope

    now = bot.usage(fresh=True)
    return envelope.spent(before, now).excused_ns if now is not None else 0
