"""Forks P children (the first argument) that wait, then tries to start T threads (the
second) one at a time, going on after each failure; prints how many of each there were:
"forked 4 threads 5 refused 25"."""
import os
import sys
import threading

processes, tries = int(sys.argv[1]), int(sys.argv[2])
r, w = os.pipe()
children = []
for _ in range(processes):
    pid = os.fork()
    if pid == 0:
        os.close(w)
        os.read(r, 1)  # until the parent closes its end
        os._exit(0)
    children.append(pid)
os.close(r)
done = threading.Event()
threads, refused = [], 0
for _ in range(tries):
    t = threading.Thread(target=done.wait)
    try:
        t.start()
        threads.append(t)
    except RuntimeError:
        refused += 1
done.set()
for t in threads:
    t.join()
os.close(w)
for pid in children:
    os.waitpid(pid, 0)
print(f"forked {len(children)} threads {len(threads)} refused {refused}", flush=True)
