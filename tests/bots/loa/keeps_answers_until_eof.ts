// Fault: a TypeScript bot on Node's event loop (the readline module) that keeps its answers
// and writes them only when its input ends (readline's "close"): it never flushes a turn's
// answer, so its first answer comes only when the judge closes its input.
// Compiled with tsc (tests/node pins it); run as `node keeps_answers_until_eof.js`.
declare function require(name: string): any;
declare const process: any;

const rl = require("readline").createInterface({ input: process.stdin });
const answers: string[] = [];
let colour: string | null = null;
let lines: string[] = [];

rl.on("line", (line: string) => {
  if (colour === null) { colour = line.trim(); return; }
  lines.push(line.trim());
  if (lines.length < 10) return;
  const count = parseInt(lines[9], 10);
  if (lines.length < 10 + count) return;
  answers.push(lines[10]);
  lines = [];
});
rl.on("close", () => { process.stdout.write(answers.map((a) => a + "\n").join("")); });

export {};  // a module: each bot its own scope when compiled together
