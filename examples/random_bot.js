// A bot for unomas in JavaScript (Node.js, no packages): a random legal action.
// The protocol is language-neutral (docs/bot-protocol.md): JSON lines on stdin and stdout.
//
//   unomas tournament --bots 'cmd:node examples/random_bot.js',heuristic
//
// It speaks protocol 3: one process plays every match it is seated in, each question
// carries what changed in the view and the actions as text, and the answer is an index.
"use strict";
const readline = require("readline");

const send = (message) => process.stdout.write(JSON.stringify(message) + "\n");
let view = {}; // the view, kept up to date (this bot only needs the actions)

// Bring the view up to date: "+name" is a list that grew, any other field replaces its value.
const merge = (changes) => {
  for (const [key, value] of Object.entries(changes)) {
    if (key[0] === "+") view[key.slice(1)].push(...value);
    else view[key] = value;
  }
};

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.trim()) return;
  const message = JSON.parse(line);
  switch (message.type) {
    case "hello": // no events: the actions are in every question
      send({ type: "ready", name: "random_bot.js", protocol: "unomas-bot/3", events: false });
      break;
    case "match": // the next match, in the same process
      view = {};
      send({ type: "ready" });
      break;
    case "act":
      merge(message.view);
      send({ type: "action", action: Math.floor(Math.random() * message.actions.length) });
      break;
    case "react": {
      // Out of turn: call UNO when obliged to ("0 uno"), otherwise let the chance go by.
      merge(message.view);
      const call = message.actions.findIndex((text) => text.split(" ")[1] === "uno");
      send({ type: "action", action: call >= 0 ? call : null });
      break;
    }
    case "bye":
      process.exit(0);
    default: // "events", and anything a later version adds: no answer
  }
});
