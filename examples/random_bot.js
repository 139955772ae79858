// A bot for unomas in JavaScript (Node.js, no packages): a random legal action.
// The protocol is language-neutral (docs/bot-protocol.md): JSON lines on stdin and stdout.
//
//   unomas tournament --bots 'cmd:node examples/random_bot.js',heuristic
//
// It speaks protocol 2: one process plays every match it is seated in.
"use strict";
const readline = require("readline");

const pick = (items) => items[Math.floor(Math.random() * items.length)];
const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello":
      send({ type: "ready", name: "random_bot.js", protocol: "unomas-bot/2" });
      break;
    case "match": // the next match, in the same process
      send({ type: "ready" });
      break;
    case "act":
      send({ type: "action", action: pick(message.view.legal_actions) });
      break;
    case "react": {
      // Out of turn: call UNO when obliged to, otherwise let the chance go by.
      const calls = message.view.legal_actions.filter((a) => a.a === "uno");
      send({ type: "action", action: calls.length ? calls[0] : null });
      break;
    }
    case "bye":
      process.exit(0);
    default: // "events", and anything a later version adds: no answer
  }
});
