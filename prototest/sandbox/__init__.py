"""The sandbox: a bot process and everything between it and the judge's pipes.

It starts the bot in its own process group with a controlled environment, inside the
platform's envelope (cgroups for memory, CPU share and processes; seccomp for what a
bot may do to its judge), reads and writes its pipes, times each answer on the monotonic
clock and on the bot's own CPU clocks, tells what the bot did outside the dialogue
(cache writes, children, signals), and kills the whole group at the end, whatever the bot
does. `keeper` is the host that outlives a killed judge and reaps what it left.

Modules: process (the Bot: pipes, reading, timing, ending), keeper, cgroups, syscalls,
linux (the kernel's interfaces), envelope (a platform's limits), conduct (what the bot did
besides answering), interrupts (Ctrl-C and signals to the judge), transcript (what crossed
the pipes).

May import: the standard library and third-party packages only. It knows nothing of
games, specs or verdicts: it reports what happened, and the judge decides what it means.
"""
