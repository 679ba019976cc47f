"""Starts N threads (the first argument) one after another, each waiting until the end;
prints how many started and, if one could not, the error: "started 19 RuntimeError can't
start new thread"."""
import sys
import threading

n = int(sys.argv[1])
done = threading.Event()
started = 0
error = ""
threads = []
for _ in range(n):
    t = threading.Thread(target=done.wait)
    try:
        t.start()
    except RuntimeError as exc:
        error = f" RuntimeError {exc}"
        break
    threads.append(t)
    started += 1
done.set()
for t in threads:
    t.join()
print(f"started {started}{error}", flush=True)
