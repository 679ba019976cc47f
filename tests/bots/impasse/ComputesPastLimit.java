import java.util.Scanner;

/**
 * Fault: a Java bot as CodinGame's template reads its input (a Scanner over System.in): on
 * its 2nd turn it computes for 450 ms (a busy loop; the limit is 100 ms, 300 ms with
 * --time-scale 3), then answers the first listed move. It flushes (println).
 * Compiled by its tests with javac.
 */
class ComputesPastLimit {
    public static void main(String[] args) {
        Scanner in = new Scanner(System.in);
        String colour = in.nextLine();
        int turn = 0;
        long x = 0;
        while (in.hasNextLine()) {
            for (int i = 0; i < 8; i++) in.nextLine();  // the board
            String lastMove = in.nextLine();
            int count = Integer.parseInt(in.nextLine().trim());
            String first = null;
            for (int i = 0; i < count; i++) {
                String move = in.nextLine();
                if (first == null) first = move;
            }
            turn++;
            if (turn == 2) {
                long start = System.nanoTime();
                while (System.nanoTime() - start < 450_000_000L) {
                    for (int i = 0; i < 10000; i++) x = (x * 31 + 7) % 1000003;
                }
            }
            System.out.println(first);
        }
        if (x == -1) System.err.println(x);  // keeps the loop from being optimised away
    }
}
