import java.util.Scanner;

/**
 * Not broken: a CodinGame bot in Java as the site's template reads its input (a Scanner
 * over System.in), playing the first listed move. Run it compiled
 * (javac -d DIR Player.java; java -cp DIR Player) or from source (java Player.java).
 */
class Player {
    public static void main(String[] args) {
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
            System.out.println(first);
        }
    }
}
