"""`python -m prototest` is the `prototest` command."""

from prototest.entry import main

main()
