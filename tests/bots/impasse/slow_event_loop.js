// Fault: a bot on Node's event loop (the readline module, as a TypeScript bot compiles to): on its
// 2nd turn it computes 300 ms (a busy loop; the limit is 100 ms), then answers. It flushes (console.log).
const rl = require("readline").createInterface({ input: process.stdin });
const lines = [];
let turn = 0;
let colourRead = false;
rl.on("line", (line) => {
  lines.push(line);
  if (!colourRead) { lines.shift(); colourRead = true; return; }
  if (lines.length >= 10) {
    const count = parseInt(lines[9], 10);
    if (lines.length === 10 + count) {
      const moves = lines.slice(10);
      lines.length = 0;
      turn += 1;
      if (turn === 2) { const t = Date.now(); while (Date.now() - t < 300) {} }
      console.log(moves[0]);
    }
  }
});
