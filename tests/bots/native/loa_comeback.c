// Deep fault, Lines of Action on CodinGame's dialogue: once 3 checkers behind, the bot
// switches to a comeback routine for the rest of the game. The routine plays the capture
// that lands nearest the centre of its own checkers, looked for among the captures that
// land off the board's edge only; when every listed capture lands on the edge, `best`
// stays NULL and is read: SIGSEGV. Correct otherwise: it answers a listed move (`pass`
// when that is the only one), flushes, and exits 0 at the end of its input.
//
// Normal play: a listed capture if any, else a listed move, picked by an FNV-1a hash of
// the board and the bot's colour (so a position always gets the same answer).
//
// Build: `make -C tests/bots/native` (gcc -O1), or with coverage instrumentation
// `make -C tests/bots/native CFLAGS='-O1 -fsanitize-coverage=trace-pc' LDLIBS=RUNTIME`.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MOVES 256
#define BEHIND 3  // checkers behind that switch the bot to its comeback routine

static char rows[8][16];
static char moves[MAX_MOVES][16];
static char colour;
static int comeback;  // the mode: set once BEHIND checkers down, never cleared
static char last_capture[3];  // the comeback routine's last capture square

static int read_line(char *buf, int size) {
    if (!fgets(buf, size, stdin)) return 0;
    buf[strcspn(buf, "\r\n")] = '\0';
    return 1;
}

// The content of a square given by file (0..7) and rank (0..7): '.', 'b' or 'w'.
static char at(int file, int rank) { return rows[7 - rank][file]; }

static int is_capture(const char *move) {
    if (strcmp(move, "pass") == 0) return 0;
    char c = at(move[2] - 'a', move[3] - '1');
    return c != '.' && c != colour;
}

static unsigned hash_board(void) {
    unsigned h = 2166136261u;
    for (int r = 0; r < 8; r++)
        for (const char *p = rows[r]; *p; p++) h = (h ^ (unsigned char)*p) * 16777619u;
    return (h ^ (unsigned char)colour) * 16777619u;
}

static const char *normal(int count) {
    int captures[MAX_MOVES], n = 0;
    for (int i = 0; i < count; i++)
        if (is_capture(moves[i])) captures[n++] = i;
    unsigned h = hash_board();
    return n ? moves[captures[h % n]] : moves[h % count];
}

// Comeback routine: the capture landing nearest its own checkers' centre (off the edge:
// an edge checker is hard to connect), else the quiet move landing nearest that centre.
static const char *comeback_move(int count) {
    int own = 0, sx = 0, sy = 0;
    for (int f = 0; f < 8; f++)
        for (int r = 0; r < 8; r++)
            if (at(f, r) == colour) own++, sx += f, sy += r;
    double cx = (double)sx / own, cy = (double)sy / own;
    const char *best = NULL, *quiet = NULL;
    double best_d = 1e9, quiet_d = 1e9;
    int any_capture = 0;
    for (int i = 0; i < count; i++) {
        if (strcmp(moves[i], "pass") == 0) continue;
        int f = moves[i][2] - 'a', r = moves[i][3] - '1';
        double d = (f - cx) * (f - cx) + (r - cy) * (r - cy);
        if (is_capture(moves[i])) {
            any_capture = 1;
            if (f > 0 && f < 7 && r > 0 && r < 7 && d < best_d) best = moves[i], best_d = d;
        } else if (d < quiet_d) {
            quiet = moves[i], quiet_d = d;
        }
    }
    if (any_capture) {  // the planted bug: best is NULL when every capture lands on the edge
        memcpy(last_capture, best + 2, 2);  // where it captured last: SIGSEGV on NULL
        return best;
    }
    return quiet ? quiet : moves[0];
}

int main(void) {
    char line[64], last[64];
    if (!read_line(line, sizeof line)) return 0;
    colour = line[0];
    for (;;) {
        for (int i = 0; i < 8; i++)
            if (!read_line(rows[i], sizeof rows[i])) return 0;
        if (!read_line(last, sizeof last) || !read_line(line, sizeof line)) return 0;
        int count = atoi(line);
        for (int i = 0; i < count && i < MAX_MOVES; i++)
            if (!read_line(moves[i], sizeof moves[i])) return 0;
        if (count > MAX_MOVES) count = MAX_MOVES;
        int own = 0, enemy = 0;
        for (int r = 0; r < 8; r++)
            for (int f = 0; f < 8; f++) {
                char c = rows[r][f];
                if (c == colour) own++;
                else if (c != '.') enemy++;
            }
        if (!comeback && enemy - own >= BEHIND) comeback = 1;  // the rare branch
        const char *move = comeback ? comeback_move(count) : normal(count);
        printf("%s\n", move);
        fflush(stdout);
    }
}
