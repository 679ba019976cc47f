"""`python -m prototest` is the `prototest` command."""

from prototest.cli import main

main()
