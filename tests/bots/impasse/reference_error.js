// Fault: on its 2nd turn calls a function it never defined (ReferenceError: a Node.js
// stack trace on stderr, exit status 1); run with node -r ./_codingame_readline.js.
readline(); // the colour
for (let turn = 1; ; turn++) {
  for (let i = 0; i < 9; i++) readline(); // the board and the last move
  const moves = [];
  for (let i = parseInt(readline(), 10); i > 0; i--) moves.push(readline());
  print(turn < 2 ? moves[0] : evaluateMoves(moves));
}
