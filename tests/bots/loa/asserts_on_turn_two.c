// Fault: on its 2nd turn it looks up the opponent's last move among its own listed moves,
// finds it nowhere, and `assert(ind != -1)` fails: the C library prints "Assertion
// `ind != -1' failed." and the program aborts (SIGABRT). Plays the first listed move until
// then. Compiled by the test: gcc -O1 -o BOT FILE (assert() stays on without -DNDEBUG).
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char moves[256][16];

static int find(const char *move, int count) {
    int ind = -1;
    for (int i = 0; i < count; i++)
        if (strcmp(moves[i], move) == 0) ind = i;
    assert(ind != -1);
    return ind;
}

static int read_line(char *buf, int size) {
    if (!fgets(buf, size, stdin)) return 0;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 1;
}

int main(void) {
    char line[64], last[64];
    if (!read_line(line, sizeof line)) return 0;  // the colour
    for (int turn = 1;; turn++) {
        for (int i = 0; i < 8; i++)
            if (!read_line(line, sizeof line)) return 0;  // the board
        if (!read_line(last, sizeof last) || !read_line(line, sizeof line)) return 0;
        int count = atoi(line);
        for (int i = 0; i < count && i < 256; i++)
            if (!read_line(moves[i], sizeof moves[i])) return 0;
        int pick = turn == 2 ? find(last, count) : 0;  // the opponent's move is not among ours
        printf("%s\n", moves[pick]);
        fflush(stdout);
    }
}
