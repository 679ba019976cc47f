import java.io.BufferedWriter;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.util.Scanner;

/**
 * Fault: a Java bot that writes its answers through a PrintWriter over a BufferedWriter
 * without autoflush, and flushes only when its input ends: its first answer comes only
 * when the judge closes its input. Compiled by its tests with javac.
 */
class NoFlush {
    public static void main(String[] args) {
        PrintWriter out = new PrintWriter(new BufferedWriter(new OutputStreamWriter(System.out)));
        Scanner in = new Scanner(System.in);
        String colour = in.nextLine();
        while (in.hasNextLine()) {
            for (int i = 0; i < 8; i++) in.nextLine();  // the board
            String lastMove = in.nextLine();
            int count = Integer.parseInt(in.nextLine().trim());
            String first = null;
            for (int i = 0; i < count; i++) {
                String move = in.nextLine();
                if (first == null) first = move;
            }
            out.println(first);
        }
        out.flush();
    }
}
