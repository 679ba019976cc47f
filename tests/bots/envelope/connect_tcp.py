"""Connects a TCP socket to 127.0.0.1:9 (the discard port, nothing listens there) and
prints what happened: "connect ECONNREFUSED", "connect ENETUNREACH", ..."""
import errno
import socket

s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
try:
    s.connect(("127.0.0.1", 9))
    print("connect ok", flush=True)
except OSError as exc:
    print("connect", errno.errorcode.get(exc.errno, exc.errno), flush=True)
