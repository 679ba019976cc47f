"""IEEE arithmetic as the C++ programs do it (x86-64, glibc): NaNs and infinities where
Python raises. The Elo, SPRT and line formulas of this package use these so that they keep
fastchess's order of operations (see the package's docstring)."""

from __future__ import annotations

import math

#: The NaN an invalid operation (0/0, inf - inf, sqrt(-1)) yields on x86-64: its sign bit
#: is set, and {fmt} prints it "-nan".
_INVALID = math.copysign(math.nan, -1.0)
#: glibc's log10 of a negative number is a NaN without the sign ("nan"); its log of a
#: negative number is the signed one.
_LOG10_INVALID = math.copysign(math.nan, 1.0)


# ---------------------------------------------------------------- IEEE arithmetic
# At the edges (all wins, all draws, a few games) the C++ programs divide by zero and take
# logarithms of 0 or of negative numbers, and print what comes out; Python raises
# instead. These give what the C++ expression gives on x86-64 with glibc, NaN sign
# included: a NaN operand propagates (its sign kept), as Python's own float arithmetic
# does on the same hardware, so the formulas below keep fastchess's order of operations.

def _div(a: float, b: float) -> float:
    if b == 0:
        if math.isnan(a):
            return a
        if a == 0:
            return _INVALID
        return math.copysign(math.inf, a) * math.copysign(1.0, b)
    return a / b


def _log10(x: float) -> float:
    if math.isnan(x):
        return x
    if x < 0:
        return _LOG10_INVALID
    if x == 0:
        return -math.inf
    return math.log10(x)


def _log(x: float) -> float:
    if math.isnan(x):
        return x
    if x < 0:
        return _INVALID
    if x == 0:
        return -math.inf
    return math.log(x)


def _pow10(x: float) -> float:
    try:
        return 10.0 ** x
    except OverflowError:
        return math.inf


def _sqrt(x: float) -> float:
    if math.isnan(x):
        return x
    return _INVALID if x < 0 else math.sqrt(x)
