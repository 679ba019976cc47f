#!/usr/bin/env python3
"""Fault: before `ready` tries the network (a TCP connect and a UDP datagram to 127.0.0.1 port 9), which Proglad has none of; it ignores the errors and plays on."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import socket  # noqa: E402

from _common import Bot  # noqa: E402

#: Only the loopback address, port 9 (discard): nothing leaves the machine.
ADDRESS = ("127.0.0.1", 9)


def say(text):
    sys.stderr.write(f"network.py: {text}\n")
    sys.stderr.flush()


class Network(Bot):
    def handshake(self):
        try:
            socket.create_connection(ADDRESS, timeout=0.2).close()
            say(f"connected to {ADDRESS[0]}:{ADDRESS[1]}")
        except OSError as exc:
            say(f"connect to {ADDRESS[0]}:{ADDRESS[1]} failed: {exc}")
        try:
            with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
                udp.sendto(b"hello", ADDRESS)
            say(f"sent a UDP datagram to {ADDRESS[0]}:{ADDRESS[1]}")
        except OSError as exc:
            say(f"UDP sendto {ADDRESS[0]}:{ADDRESS[1]} failed: {exc}")
        super().handshake()


if __name__ == "__main__":
    Network().run()
