// None: a correct Rust bot (the first listed move), for the platform's envelope: it must pass
// inside CodinGame's 768 MB. Compiled by the test: rustc -O -o BOT FILE.
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut lines = stdin.lock().lines();
    let mut out = io::stdout();
    if lines.next().is_none() {
        return; // the colour
    }
    loop {
        for _ in 0..9 {
            if lines.next().is_none() {
                return; // the board and the last move
            }
        }
        let count: usize = match lines.next() {
            Some(Ok(line)) => line.trim().parse().unwrap_or(0),
            _ => return,
        };
        let mut first = String::new();
        for i in 0..count {
            let line = lines.next().and_then(|l| l.ok()).unwrap_or_default();
            if i == 0 {
                first = line;
            }
        }
        writeln!(out, "{}", first).unwrap();
        out.flush().unwrap();
    }
}
