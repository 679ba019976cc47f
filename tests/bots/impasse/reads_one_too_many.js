// Fault: reads one legal move more than the count says (i <= count), so it waits for a
// line the judge never sends and writes nothing; run with node -r ./_codingame_readline.js.
readline(); // the colour
for (;;) {
  for (let i = 0; i < 9; i++) readline(); // the board and the last move
  const count = parseInt(readline(), 10);
  const moves = [];
  for (let i = 0; i <= count; i++) moves.push(readline());
  print(moves[0]);
}
