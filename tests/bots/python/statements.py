"""Not a game bot: a program with many kinds of Python statement, run by
tests/test_fuzz_coverage.py with and without the coverage collector (same output, exit
status and traceback) and under a plain tracer (the same lines recorded). `crash` as its
argument: an uncaught exception at its last line."""
from __future__ import annotations

import sys
import functools

import statements_helper as helper

COUNT = 0


def deco(f):
    @functools.wraps(f)
    def inner(*a):
        return f(*a)
    return inner


@deco
def classify(n: int) -> str:
    """Docstring first."""
    global COUNT
    COUNT += 1
    if n < 0:
        return "neg"
    elif n == 0:
        return "zero"
    else:
        kinds = [k for k in ("even", "odd") if (n % 2 == 0) == (k == "even")]
        return kinds[0]


class Thing:
    """A class."""
    size = 3

    def grow(self, by):
        total = 0
        for i in range(by):
            if i == 100:
                break
            total += i
        else:
            total += 1
        while total > 10:
            total -= 10
        return total


def risky(x):
    try:
        if x:
            raise ValueError(x)
        result = "fine"
    except ValueError as exc:
        result = "caught %s" % exc
    except KeyError:
        result = "never"
    else:
        result += "!"
    finally:
        pass
    return result


def matcher(v):
    match v:
        case [a, b]:
            return a + b
        case {"k": value}:
            return value
        case _:
            return None


def never_called():
    return 42


def multi(a,
          b):
    return (a +
            b)


print(classify(-1), classify(0), classify(3), classify(4))
print(Thing().grow(7), risky(0), risky(1), matcher([1, 2]), matcher({"k": 5}), matcher(7))
print(multi(1,
            2), helper.twice(4), (lambda q: q * 3)(2), COUNT)
with open(__file__) as fh:
    first = fh.readline().strip()
print(first, classify.__doc__, Thing.__doc__, __doc__)
if len(sys.argv) > 1:
    raise RuntimeError("asked to crash")
