"""Sends a UDP datagram to 127.0.0.1:9 with sendto, and one to [::1]:9 with sendmsg;
prints what each did."""
import errno
import socket


def attempt(what, call):
    try:
        call()
        print(what, "ok", flush=True)
    except OSError as exc:
        print(what, errno.errorcode.get(exc.errno, exc.errno), flush=True)


u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
attempt("sendto", lambda: u.sendto(b"x", ("127.0.0.1", 9)))
try:
    v = socket.socket(socket.AF_INET6, socket.SOCK_DGRAM)
except OSError as exc:
    print("socket6", errno.errorcode.get(exc.errno, exc.errno), flush=True)
else:
    attempt("sendmsg6", lambda: v.sendmsg([b"x"], [], 0, ("::1", 9)))
