"""Local sockets only: an AF_UNIX socketpair (send, sendmsg), a connect to an AF_UNIX
path, a datagram sendto and sendmsg to one, and a netlink socket. None of this is the network."""
import os
import socket
import tempfile

a, b = socket.socketpair()
a.send(b"x")
a.sendmsg([b"y"])
b.recv(2)
folder = tempfile.mkdtemp()
path = os.path.join(folder, "s")
server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
server.bind(path)
server.listen(1)
client = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
client.connect(path)
r = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
r.bind(path + "d")
d = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
d.sendto(b"z", path + "d")
d.sendmsg([b"z"], [], 0, path + "d")
try:
    socket.socket(socket.AF_NETLINK, socket.SOCK_RAW, 0).close()
except OSError:
    pass
for s in (a, b, server, client, d, r):
    s.close()
os.unlink(path)
os.unlink(path + "d")
os.rmdir(folder)
print("done", flush=True)
