/* prototest's coverage runtime for native bots (C, C++, and anything gcc or clang builds).
 *
 * Build the bot once with the compiler's coverage instrumentation and this file:
 *
 *   gcc   -O1 -fsanitize-coverage=trace-pc       bot.c $(prototest coverage-runtime) -o bot
 *   clang -O1 -fsanitize-coverage=trace-pc-guard bot.c $(prototest coverage-runtime) -o bot
 *
 * (gcc older than 12 instruments this file too: compile it apart, without the flag:
 *  gcc -O1 -c $(prototest coverage-runtime) -o prototest_cov.o, then link prototest_cov.o.)
 *
 * At start, it maps the file PROTOTEST_COVERAGE_MAP names (prototest's map, under /dev/shm)
 * shared; each instrumented edge then sets its byte, AFL style: the slot is a hash of the
 * return address (gcc's trace-pc, made relative to the executable, so that slots are the
 * same in every run despite address randomisation) or the guard's number (clang's
 * trace-pc-guard). Without the variable (the bot run by hand), it writes into a buffer of
 * its own: the bot behaves as before. It never prints, never exits, allocates nothing.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#if defined(__has_attribute)
#if __has_attribute(no_sanitize_coverage)
#define PROTOTEST_NO_COV __attribute__((no_sanitize_coverage))
#endif
#endif
#ifndef PROTOTEST_NO_COV
#define PROTOTEST_NO_COV
#endif

#define PROTOTEST_MAP_SIZE (1u << 16)

static unsigned char prototest_dummy[PROTOTEST_MAP_SIZE];
static unsigned char *prototest_map = prototest_dummy;
static size_t prototest_mask = PROTOTEST_MAP_SIZE - 1;

PROTOTEST_NO_COV __attribute__((constructor(101))) static void prototest_cov_init(void) {
    const char *path = getenv("PROTOTEST_COVERAGE_MAP");
    if (path == NULL || *path == '\0')
        return;
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0)
        return;
    struct stat st;
    if (fstat(fd, &st) == 0 && st.st_size >= (off_t)PROTOTEST_MAP_SIZE
        && (st.st_size & (st.st_size - 1)) == 0) {  /* a power of two: the mask below */
        void *mem = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
        if (mem != MAP_FAILED) {
            prototest_mask = (size_t)st.st_size - 1;
            prototest_map = (unsigned char *)mem;
        }
    }
    close(fd);
}

/* gcc -fsanitize-coverage=trace-pc (clang too): called at every edge. */
PROTOTEST_NO_COV void __sanitizer_cov_trace_pc(void) {
    uintptr_t pc = (uintptr_t)__builtin_return_address(0) - (uintptr_t)&__sanitizer_cov_trace_pc;
    pc ^= pc >> 17;
    pc *= (uintptr_t)0x9E3779B97F4A7C15ull;
    prototest_map[(pc >> 16) & prototest_mask] = 1;
}

/* clang -fsanitize-coverage=trace-pc-guard: each edge's guard numbered once, then called. */
static uint32_t prototest_guards;

PROTOTEST_NO_COV void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
    if (start == stop || *start)
        return;
    for (uint32_t *g = start; g < stop; g++)
        *g = ++prototest_guards;
}

PROTOTEST_NO_COV void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
    if (*guard)
        prototest_map[(*guard * 2654435761u) & prototest_mask] = 1;
}
