"""`python -m prototest` is the `prototest` command."""

from prototest.interrupts import main

main()
