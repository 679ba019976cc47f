#!/bin/sh
# Fault: a shell wrapper that starts its bot without exec (the shell stays, the bot is its
# child); the bot (no_flush.py) answers with print() and never flushes.
python3 "$(dirname "$0")/no_flush.py" "$@"
