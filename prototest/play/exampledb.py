"""Where `prototest fuzz` keeps its failing examples: Hypothesis's own example databases.

`--database` names a folder (Hypothesis's `DirectoryBasedExampleDatabase`, the default
`.hypothesis/prototest`) or a Redis server, `redis://host:port/n`, for a campaign shared
between machines (`hypothesis.extra.redis.RedisExampleDatabase`, the `hypothesis[redis]`
extra: `pip install 'prototest[redis]'`). Either way a failure saved by one run is
replayed first by the next, on this machine or another that uses the same database.

The `redis` package is imported only when a Redis URL is given, so prototest runs
without it. The server is asked for a PING before any game (`check`); a client is
made where the database is first used (`open_database`), so each worker process of
`--jobs N` makes its own after the fork, and no connection is shared between processes.
A server lost during the run does not end it: the first thing it could not fetch or save
is said (`problems`: a write error, exit status 2 when nothing failed), and the run goes
on without its database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlsplit

from . import lazy

if TYPE_CHECKING:
    from hypothesis.database import ExampleDatabase

DEFAULT_PORT = 6379
#: The prefix of prototest's keys on a Redis server: a Hypothesis settings profile for
#: `fuzz_test` that uses the same prefix shares the failures of `prototest fuzz`.
KEY_PREFIX = b"prototest:"
INSTALL = "pip install 'prototest[redis]'"
#: Seconds to connect to the server, and to wait for one of its answers.
CONNECT_TIMEOUT_S, ANSWER_TIMEOUT_S = 5.0, 30.0


@dataclass(frozen=True)
class RedisLocation:
    """A Redis server and database number, from `redis://[[user]:password@]host[:port][/n]`."""

    host: str
    port: int = DEFAULT_PORT
    db: int = 0
    username: str | None = None
    password: str | None = field(default=None, repr=False)

    def __str__(self) -> str:
        """The URL as shown in reports: a password is never shown."""
        host = f"[{self.host}]" if ":" in self.host else self.host
        auth = ""
        if self.username or self.password:
            auth = (self.username or "") + (":***" if self.password else "") + "@"
        return f"redis://{auth}{host}:{self.port}/{self.db}"


Location = Path | RedisLocation


def parse(text: str) -> Location:
    """A folder, or a Redis server for `redis://...`. ValueError: one line saying what is wrong."""
    lowered = text.strip().lower()
    if not lowered.startswith("redis:"):
        scheme = re.match(r"([a-z][a-z0-9+.-]*)://", lowered)
        if scheme:
            raise ValueError(f"--database {text!r}: expected a folder or redis://host:port/n "
                             f"(a {scheme.group(1)}:// URL is not a database prototest knows)")
        return Path(text)
    if not lowered.startswith("redis://"):
        raise ValueError(f"--database {text!r}: expected redis://host:port/n")
    parts = urlsplit(text.strip())
    shown = _redacted(text.strip())
    lead = f"--database {shown!r}"
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise ValueError(f"{lead}: expected redis://host:port/n, without ?... or #...")
    hostport = parts.netloc.rpartition("@")[2]
    port_text = ""
    if hostport.startswith("["):
        port_text = hostport.partition("]")[2].removeprefix(":")
    elif ":" in hostport:
        port_text = hostport.rpartition(":")[2]
    host = parts.hostname or ""
    if not host:
        raise ValueError(f"{lead}: no host: expected redis://host:port/n (e.g. redis://127.0.0.1:{DEFAULT_PORT}/0)")
    if port_text and not (port_text.isascii() and port_text.isdigit() and 1 <= int(port_text) <= 65535):
        raise ValueError(f"{lead}: the port {port_text!r} is not a number from 1 to 65535")
    path = parts.path.removeprefix("/")
    if path and not (path.isascii() and path.isdigit() and len(path) <= 9):
        raise ValueError(f"{lead}: the database {path!r} after the host is not a number "
                         f"(0 to 15 on a server's default configuration)")
    return RedisLocation(host=host, port=int(port_text) if port_text else DEFAULT_PORT, db=int(path or 0),
                         username=unquote(parts.username) if parts.username else None,
                         password=unquote(parts.password) if parts.password is not None else None)


def _redacted(text: str) -> str:
    """The URL with any password replaced by ***."""
    return re.sub(r"^(redis://[^/@:]*:)[^/@]*@", r"\1***@", text, flags=re.IGNORECASE)


def _redis_module() -> Any:
    try:
        lazy.hypothesis()
        import hypothesis.extra.redis  # noqa: F401 - its extra's requirement, checked here
        import redis
    except ImportError:
        raise ValueError(f"the redis package is not installed: {INSTALL}") from None
    return redis


def client(where: RedisLocation, *, retries: bool = True) -> Any:
    """A new client of the server (it connects at its first command). With `retries`,
    redis-py's own retries of a failed command (a few seconds, for a short break in the
    connection); without, one try."""
    redis = _redis_module()
    extra: dict[str, Any] = {}
    if not retries:
        from redis.backoff import NoBackoff
        from redis.retry import Retry
        extra["retry"] = Retry(NoBackoff(), 0)
    return redis.Redis(host=where.host, port=where.port, db=where.db, username=where.username,
                       password=where.password, socket_connect_timeout=CONNECT_TIMEOUT_S,
                       socket_timeout=ANSWER_TIMEOUT_S, health_check_interval=30, **extra)


def check(where: Location) -> None:
    """A Redis server is reachable and answers (PING, after AUTH and SELECT): ValueError
    otherwise, one line. A folder is checked by the command (as an output folder)."""
    if not isinstance(where, RedisLocation):
        return
    try:
        redis = _redis_module()
    except ValueError as exc:
        raise ValueError(f"--database {where}: {exc}") from None
    conn = client(where, retries=False)
    try:
        conn.ping()
    except redis.AuthenticationError as exc:
        raise ValueError(f"--database {where}: the Redis server refused the login: {_one_line(exc)}") from None
    except (redis.ConnectionError, redis.TimeoutError, OSError) as exc:
        raise ValueError(f"--database {where}: cannot reach the Redis server: {_one_line(exc)}") from None
    except redis.RedisError as exc:
        raise ValueError(f"--database {where}: the Redis server refused: {_one_line(exc)}") from None
    finally:
        conn.close()


def _one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def open_database(where: Location) -> ExampleDatabase:
    """Hypothesis's database at `where`. For Redis, a client of its own: call it in the
    process that uses it (after a fork, never before)."""
    if isinstance(where, RedisLocation):
        return _redis_database(where)
    lazy.hypothesis()
    from hypothesis.database import DirectoryBasedExampleDatabase

    return DirectoryBasedExampleDatabase(str(where))


def count(database: ExampleDatabase | None, key: bytes) -> int:
    """How many examples Hypothesis's reuse phase replays from `database` under `key`
    before it generates any: its primary corpus (the failures) and its secondary one
    (under `key.secondary`). 0 without a database, or when it cannot be read."""
    if database is None:
        return 0
    try:
        return sum(1 for _ in database.fetch(key)) + sum(1 for _ in database.fetch(key + b".secondary"))
    except Exception:  # a lost server: the run goes on, its problems are reported
        return 0


def problems(database: ExampleDatabase | None) -> list[str]:
    """What the database could not do during the run (a lost server), one line each."""
    return list(getattr(database, "problems", []))


def _redis_database(where: RedisLocation) -> ExampleDatabase:
    redis = _redis_module()
    from hypothesis.extra.redis import RedisExampleDatabase

    class SharedDatabase(RedisExampleDatabase):
        """Hypothesis's Redis database; a server lost during the run is said once, not
        raised, and not asked again (each try would cost redis-py's retries)."""

        def __init__(self) -> None:
            super().__init__(client(where), key_prefix=KEY_PREFIX)
            self.problems: list[str] = []

        def _try(self, what: str, call, *args, default=None):
            """`call(*args)`, unless the server is lost: then `default`, the loss said once."""
            if self.problems:
                return default
            try:
                return call(*args)
            except (redis.RedisError, OSError) as exc:
                self.problems.append(f"--database {where}: could not {what}, and the run went on without "
                                     f"the database: {_one_line(exc)}")
                return default

        def fetch(self, key: bytes):
            return self._try("read the saved examples", lambda: list(super(SharedDatabase, self).fetch(key)),
                             default=[])

        def save(self, key: bytes, value: bytes) -> None:
            self._try("save an example", super().save, key, value)

        def delete(self, key: bytes, value: bytes) -> None:
            self._try("delete an example", super().delete, key, value)

        def move(self, src: bytes, dest: bytes, value: bytes) -> None:
            self._try("move an example", super().move, src, dest, value)

    return SharedDatabase()
