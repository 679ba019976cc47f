import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * Fault: a Java bot that reads its input in a thread of its own, as engines do (a reader
 * thread fills a queue; the main thread takes whole turns from it and computes): on its
 * 2nd turn it computes for 450 ms (a busy loop; the limit is 100 ms, 300 ms with
 * --time-scale 3), then answers the first listed move. It flushes (println). While it
 * computes, its reader thread sits blocked reading the stdin pipe: the bot computes all the
 * same. Compiled by its tests with javac.
 */
class ComputesPastLimit {
    static final BlockingQueue<String> LINES = new LinkedBlockingQueue<>();
    static final String END = "\u0000end of input";

    static String next() throws InterruptedException {
        String line = LINES.take();
        if (line == END) System.exit(0);
        return line;
    }

    public static void main(String[] args) throws InterruptedException {
        Thread reader = new Thread(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(System.in))) {
                for (String line = in.readLine(); line != null; line = in.readLine()) LINES.put(line);
            } catch (Exception e) {
                // the end of input, as for EOF
            }
            LINES.add(END);
        }, "input");
        reader.setDaemon(true);
        reader.start();
        String colour = next();
        int turn = 0;
        long x = 0;
        while (true) {
            for (int i = 0; i < 8; i++) next();  // the board
            String lastMove = next();
            int count = Integer.parseInt(next().trim());
            String first = null;
            for (int i = 0; i < count; i++) {
                String move = next();
                if (first == null) first = move;
            }
            turn++;
            if (turn == 2) {
                long start = System.nanoTime();
                while (System.nanoTime() - start < 450_000_000L) {
                    for (int i = 0; i < 10000; i++) x = (x * 31 + 7) % 1000003;
                }
                if (x == -1) System.err.println(x);  // keeps the loop from being optimised away
            }
            System.out.println(first);
        }
    }
}
