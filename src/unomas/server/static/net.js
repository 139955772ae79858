// The connection to the server: HTTP for rooms, one WebSocket for play. While the socket is
// down the page says so and its game controls take no clicks (nothing is silently lost).
import { state, $ } from "./state.js";

let socket = null;
let closing = false;  // closed on purpose: no reconnecting
let retry = 0;
let sent = 0;
let handler = () => {};

export const online = () => Boolean(socket) && socket.readyState === WebSocket.OPEN;

function setOnline(up) {
  document.body.classList.toggle("offline", !up);
  $("#offline").hidden = up;
}

// Play (a token) or watch (null) room `state.code`; every message goes to `onMessage`.
export function connect(token, onMessage) {
  handler = onMessage;
  state.token = token;
  closing = false;
  open(token);
}

function open(token) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const mine = new WebSocket(`${scheme}://${location.host}/ws/${state.code}`);
  socket = mine;
  mine.addEventListener("open", () => {
    retry = 0;
    setOnline(true);
    mine.send(JSON.stringify({ type: "hello", token, lang: state.lang }));
  });
  mine.addEventListener("message", (event) => { if (socket === mine) handler(JSON.parse(event.data)); });  // (not a closed one's)
  mine.addEventListener("close", () => {
    if (socket !== mine || closing) return;
    setOnline(false);
    retry = Math.min(retry + 1, 5);
    setTimeout(() => { if (socket === mine && !closing) open(token); }, 500 * retry);
  });
}

// Close the connection for good (leaving the room, or following a rematch).
export function disconnect() {
  closing = true;
  if (socket) socket.close();
  socket = null;
  setOnline(true);
}

export function send(message) {
  if (!online()) return false;
  socket.send(JSON.stringify(message));
  return true;
}

// Each action carries a number the server echoes in its answer (a refused one is known), and
// the ply of the view it answers: if the game moved on meanwhile, it is refused as stale.
export function act(move, ply = state.view.ply) {
  sent += 1;
  return send({ type: "act", action: move, ref: sent, ply });
}

// Letting an out-of-turn chance go tells the server's bots they need not wait for it.
export function letGo() {
  const ply = state.view.ply;
  state.letGoAt = ply;
  return send({ type: "let_go", ply });
}

export async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw answer.error;  // {code, params, message}
  return answer;
}
