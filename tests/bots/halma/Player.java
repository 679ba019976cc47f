import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Not broken: a Halma 16x16 bot in Java (the JVM's start in the envelope), playing a greedy
 * race to the opposite camp with legal steps and jump chains. Compile it
 * (javac -d DIR Player.java) and run java -cp DIR Player.
 */
class Player {
    static final int SIZE = 16, W = SIZE + 2, EMPTY = 0, WALL = 3;
    static final int[] DIRS = {-W - 1, -W, -W + 1, -1, 1, W - 1, W, W + 1};
    /** How many plies before the blocker check (ply 200) the pieces left in the own zone get out first. */
    static final int BLOCKER_PLY = 200, RUSH = 40;

    final int[] board = new int[W * W];
    final boolean[][] camp = new boolean[2][W * W];  // each seat's starting camp
    final boolean[][] zone = new boolean[2][W * W];  // each seat's 34-cell zone, to leave by ply 200
    final long[][] cost = new long[2][W * W];
    final Random rng = new Random(20240601);
    int seat, ply;

    Player() {
        for (int i = 0; i < W * W; i++) board[i] = WALL;
        for (int y = 1; y <= SIZE; y++)
            for (int x = 1; x <= SIZE; x++) board[y * W + x] = EMPTY;
        for (int x = 1; x <= 7; x++)
            for (int y = 1; y <= Math.min(9 - x, 7); y++) {
                zone[0][y * W + x] = true;
                zone[1][(SIZE + 1 - y) * W + SIZE + 1 - x] = true;
                if (x <= 5 && y <= Math.min(7 - x, 5)) {
                    camp[0][y * W + x] = true;
                    camp[1][(SIZE + 1 - y) * W + SIZE + 1 - x] = true;
                    board[y * W + x] = 1;
                    board[(SIZE + 1 - y) * W + SIZE + 1 - x] = 2;
                }
            }
        for (int s = 0; s < 2; s++) {
            int cx = s == 0 ? SIZE : 1, cy = cx;
            for (int y = 1; y <= SIZE; y++)
                for (int x = 1; x <= SIZE; x++) {
                    long f = Math.abs(x - cx) + Math.abs(y - cy) + (camp[1 - s][y * W + x] ? 0 : 1);
                    cost[s][y * W + x] = f * f * f;
                }
        }
    }

    /** Every legal move of `s` as a path of cells: steps, and the shortest jump chain to each cell. */
    List<int[]> moves(int s) {
        List<int[]> found = new ArrayList<>();
        int[] parent = new int[W * W];
        for (int origin = 0; origin < W * W; origin++) {
            if (board[origin] != s + 1) continue;
            for (int d : DIRS)
                if (board[origin + d] == EMPTY) found.add(new int[]{origin, origin + d});
            java.util.Arrays.fill(parent, -1);
            parent[origin] = origin;
            int[] queue = new int[W * W];
            int head = 0, tail = 0;
            queue[tail++] = origin;
            while (head < tail) {
                int cell = queue[head++];
                for (int d : DIRS) {
                    int over = cell + d, land = over + d;
                    if ((board[over] == 1 || board[over] == 2) && land >= 0 && land < W * W
                            && board[land] == EMPTY && parent[land] < 0) {
                        parent[land] = cell;
                        queue[tail++] = land;
                        int n = 1;
                        for (int c = land; c != origin; c = parent[c]) n++;
                        int[] path = new int[n];
                        for (int c = land, i = n - 1; i >= 0; c = parent[c], i--) path[i] = c;
                        found.add(path);
                    }
                }
            }
        }
        return found;
    }

    long progress(int[] m) {
        int from = m[0], to = m[m.length - 1];
        long score = cost[seat][from] - cost[seat][to];
        if (ply >= BLOCKER_PLY - RUSH) {
            if (zone[seat][from] && !zone[seat][to]) score += 1_000_000_000L;
            if (zone[seat][to]) score -= 1_000_000_000_000L;
        }
        return score;
    }

    static int chebyshev(int a, int b) {
        return Math.max(Math.abs(a % W - b % W), Math.abs(a / W - b / W));
    }

    /** Tie-break: how much nearer an outside piece comes to the nearest free home cell. */
    int approach(int[] m) {
        int from = m[0], to = m[m.length - 1];
        boolean[] home = camp[1 - seat];
        if (home[from]) return 0;
        int before = Integer.MAX_VALUE, after = Integer.MAX_VALUE;
        for (int c = 0; c < W * W; c++)
            if (home[c] && board[c] == EMPTY) {
                before = Math.min(before, chebyshev(from, c));
                after = Math.min(after, chebyshev(to, c));
            }
        if (before == Integer.MAX_VALUE) return 0;
        return before - (home[to] ? 0 : after);
    }

    String choose() {
        List<int[]> all = moves(seat);
        List<int[]> best = new ArrayList<>();
        long top = Long.MIN_VALUE;
        int topApproach = Integer.MIN_VALUE;
        for (int[] m : all) {
            long p = progress(m);
            int a = approach(m);
            if (p > top || (p == top && a > topApproach)) {
                top = p;
                topApproach = a;
                best.clear();
            }
            if (p == top && a == topApproach) best.add(m);
        }
        int[] m = best.get(rng.nextInt(best.size()));
        StringBuilder text = new StringBuilder("move");
        for (int c : m) text.append(' ').append(c % W).append(' ').append(c / W);
        return text.toString();
    }

    void play(String[] words) {
        int fromX = Integer.parseInt(words[1]), fromY = Integer.parseInt(words[2]);
        int toX = Integer.parseInt(words[words.length - 2]), toY = Integer.parseInt(words[words.length - 1]);
        board[toY * W + toX] = board[fromY * W + fromX];
        board[fromY * W + fromX] = EMPTY;
        ply++;
    }

    public static void main(String[] args) throws Exception {
        Player bot = new Player();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        System.out.println("ready");
        System.out.flush();
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            if (words[0].equals("start")) bot.seat = Integer.parseInt(words[1]) - 1;
            else if (words[0].equals("yourmove")) {
                System.out.println(bot.choose());
                System.out.flush();
            } else if (words[0].equals("move")) bot.play(words);
        }
    }
}
