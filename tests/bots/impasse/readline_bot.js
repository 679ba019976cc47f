// Not broken: a CodinGame JavaScript bot written as on the site, calling the global
// readline() that CodinGame provides; run with node -r ./_codingame_readline.js.
const colour = readline();
printErr(`playing ${colour}`);
for (;;) {
  const board = [];
  for (let i = 0; i < 8; i++) board.push(readline());
  const lastMove = readline();
  const count = parseInt(readline(), 10);
  const moves = [];
  for (let i = 0; i < count; i++) moves.push(readline());
  print(moves[0]);
}
