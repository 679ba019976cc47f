"""A module of statements.py's own: one function called, one never."""

def twice(x):
    return 2 * x


def unused():
    return 0
