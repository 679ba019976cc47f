// Fault: a TypeScript bot on Node's event loop (the readline module): on its 3rd turn it
// blocks 300 ms in Atomics.wait (a synchronous sleep, as Node's sleep helpers do; the limit
// is 150 ms), then answers. It flushes (console.log). Meanwhile no thread of Node's reads its
// input: the main thread sleeps on a futex, a helper thread in epoll on its own eventfd.
// Compiled with tsc (tests/node pins it); run as `node waits_synchronously.js`.
declare function require(name: string): any;
declare const process: any;

const rl = require("readline").createInterface({ input: process.stdin });
const cell = new Int32Array(new SharedArrayBuffer(4));
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
  if (turn === 3) Atomics.wait(cell, 0, 0, 300);
  console.log(moves[0]);
});

export {};  // a module: each bot its own scope when compiled together
