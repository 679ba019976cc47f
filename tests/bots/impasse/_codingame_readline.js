// CodinGame's JavaScript globals, for running a CodinGame bot outside CodinGame:
//   node -r ./codingame_readline.js bot.js
// readline() returns the next input line (without its line ending), print() and printErr()
// write a line to stdout and stderr. When the input ends the bot exits: the game is over.
const fs = require("fs");
const { StringDecoder } = require("string_decoder");

const decoder = new StringDecoder("utf8");
const chunk = Buffer.alloc(1 << 16);
const pending = [];
let rest = "";

globalThis.readline = function readline() {
  while (pending.length === 0) {
    const n = fs.readSync(0, chunk, 0, chunk.length, null); // blocks until input comes
    if (n === 0) {
      if (rest === "") process.exit(0);
      pending.push(rest);
      rest = "";
      break;
    }
    const lines = (rest + decoder.write(chunk.subarray(0, n))).split("\n");
    rest = lines.pop();
    pending.push(...lines.map((line) => line.replace(/\r$/, "")));
  }
  return pending.shift();
};
globalThis.print = (...args) => console.log(...args);
globalThis.printErr = (...args) => console.error(...args);
