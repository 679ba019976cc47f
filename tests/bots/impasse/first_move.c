/* Correct: a native Impasse bot (for the coverage tests: built with gcc's
 * -fsanitize-coverage=trace-pc and prototest's runtime). It reads CodinGame's dialogue (the
 * colour on the first turn; each turn 8 board lines, the last move, the number of legal
 * moves and the moves) and answers the first listed move, or, with three moves or fewer,
 * the last one; it exits 0 when stdin ends. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char moves[512][32];

static int read_line(char *buf, size_t size) {
    if (!fgets(buf, (int)size, stdin))
        return 0;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 1;
}

static const char *few(int count) { return moves[count - 1]; }

int main(void) {
    char line[256];
    if (!read_line(line, sizeof line))  /* the colour */
        return 0;
    for (;;) {
        for (int i = 0; i < 9; i++)  /* the board, then the last move */
            if (!read_line(line, sizeof line))
                return 0;
        if (!read_line(line, sizeof line))
            return 0;
        int count = atoi(line);
        for (int i = 0; i < count && i < 512; i++)
            if (!read_line(moves[i], sizeof moves[i]))
                return 0;
        printf("%s\n", count <= 3 ? few(count) : moves[0]);
        fflush(stdout);
    }
}
