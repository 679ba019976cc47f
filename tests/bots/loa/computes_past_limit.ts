// Fault: a TypeScript bot on Node's event loop (the readline module): on its 3rd turn it
// computes 300 ms (a busy loop; the limit is 150 ms), then answers. It flushes (console.log).
// Compiled with tsc (tests/node pins it); run as `node computes_past_limit.js`.
declare function require(name: string): any;
declare const process: any;

const rl = require("readline").createInterface({ input: process.stdin });
let colour: string | null = null;
let lines: string[] = [];
let turn = 0;

rl.on("line", (line: string) => {
  if (colour === null) { colour = line.trim(); return; }
  lines.push(line.trim());
  if (lines.length < 10) return;
  const count = parseInt(lines[9], 10);
  if (lines.length < 10 + count) return;
  const moves = lines.slice(10);
  lines = [];
  turn += 1;
  if (turn === 3) {
    const start = Date.now();
    let x = 0;
    while (Date.now() - start < 300) x = (x * 31 + 7) % 1000003;
  }
  console.log(moves[0]);
});

export {};  // a module: each bot its own scope when compiled together
