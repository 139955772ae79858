// unomas in the browser: no build step, no framework. The server decides everything:
// this page shows the view it sends and offers exactly the view's legal actions.
"use strict";

const COLORS = { R: "red", Y: "yellow", G: "green", B: "blue" };
const FILL = { R: "#d32f2f", Y: "#f9a825", G: "#2e7d32", B: "#1565c0", W: "#222" };

const state = { lang: localStorage.getItem("unomas:lang") || (navigator.language || "en").slice(0, 2),
  catalog: {}, switches: [], errors: {}, code: null, token: null, socket: null, room: null, view: null, closed: false, retry: 0,
  sayUno: false };
if (!["es", "en"].includes(state.lang)) state.lang = "en";

const $ = (selector) => document.querySelector(selector);
const el = (tag, props = {}, ...children) => {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) node.append(child);
  return node;
};
// The words of the page come from the gettext catalogs the terminal game uses too (served as
// {msgid: text}); the names are gettext's, so `pybabel extract` finds every message here.
const fmt = (text, values = {}) => text.replace(/\{(\w+)\}/g, (field, key) => (key in values ? values[key] : field));
const _ = (id, values) => fmt(state.catalog[id] || id, values);
const pgettext = (context, id, values) => fmt(state.catalog[`${context}\u0004${id}`] || id, values);
const ngettext = (singular, plural, n, values = {}) => {  // both languages: the plural form when n != 1
  const id = n === 1 ? singular : plural;
  return fmt(state.catalog[id] || id, { n, ...values });
};

// ------------------------------------------------------------------ words

async function loadLanguage(lang) {
  const answer = await fetch(`/api/i18n/${lang}`).then((r) => r.json());
  state.lang = lang; state.catalog = answer.catalog; state.switches = answer.switches; state.errors = answer.errors;
  localStorage.setItem("unomas:lang", lang);
  document.documentElement.lang = lang;
  $("#lang").value = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = _(node.dataset.t);
  $("#opponents").setAttribute("aria-label", _("Players"));
  buildSwitches();
  buildBotChoice(answer.bots);
}

// The bots the server offers for empty seats, named in the reader's language.
function buildBotChoice(bots) {
  const select = $("#create-form").bot;
  const chosen = select.value || "heuristic";
  select.replaceChildren(...bots.map((bot) => el("option", { value: bot.spec, textContent: bot.label })));
  select.value = chosen;
}

// A refusal in the reader's words, from its code and params ({code, params, message}, as the
// server sends it): the message itself is English, shown only for a code the page does not
// know (or a failure of the network). A refused move's reason is translated when it comes
// with a reason_code the catalog knows.
function errorText(error) {
  const template = state.errors[error.code];
  if (!template) return error.message;
  const params = { ...(error.params || {}) };
  const reason = state.errors[params.reason_code];
  if (reason && params.reason_code !== error.code) params.reason = fmt(reason, params);
  return fmt(template, params);
}

function colorName(letter) {
  const color = { R: _("Red"), Y: _("Yellow"), G: _("Green"), B: _("Blue") }[letter];
  return _("{color} ({letter})", { color, letter });
}

function rankName(token) {
  const rank = token.slice(1);
  if (token === "W") return _("Wild");
  if (token === "W+4") return _("Wild Draw Four");
  return { S: _("Skip"), R: _("Reverse"), "+2": _("Draw Two") }[rank] || rank;
}

function cardName(token) {
  if (token[0] === "W") return _("{name} ({token})", { name: rankName(token), token });
  const color = { R: pgettext("in a card name", "Red"), Y: pgettext("in a card name", "Yellow"),
    G: pgettext("in a card name", "Green"), B: pgettext("in a card name", "Blue") }[token[0]];
  return _("{color} {rank} ({token})", { color, rank: rankName(token), token });
}

// ------------------------------------------------------------------ cards as SVG

function cardSvg(token, chosen) {
  const letter = token[0] === "W" ? "W" : token[0];
  const rank = token[0] === "W" ? (token === "W" ? "W" : "+4") : token.slice(1);
  const symbol = { S: "⊘", R: "⇄" }[rank] || rank;
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 60 90");
  svg.setAttribute("aria-hidden", "true");
  const ring = chosen ? FILL[chosen] : "#fff";
  const corner = letter === "W" ? (chosen || "W") : letter;
  svg.innerHTML =
    `<rect x="1" y="1" width="58" height="88" rx="7" fill="${FILL[letter]}" stroke="${ring}" stroke-width="3"/>` +
    `<ellipse cx="30" cy="45" rx="22" ry="32" fill="#fff" transform="rotate(20 30 45)"/>` +
    `<text x="30" y="55" font-size="${symbol.length > 1 ? 24 : 30}" font-weight="bold" text-anchor="middle" ` +
    `fill="${FILL[letter]}" font-family="sans-serif">${symbol}</text>` +
    `<text x="6" y="15" font-size="12" font-weight="bold" fill="#fff" font-family="sans-serif">${corner}</text>` +
    `<text x="54" y="84" font-size="12" font-weight="bold" fill="#fff" text-anchor="end" font-family="sans-serif">${corner}</text>`;
  return svg;
}

function cardButton(token, { chosen = null, playable = false, onClick = null } = {}) {
  const button = el("button", { className: `card${playable ? " playable" : ""}`, type: "button" });
  button.setAttribute("aria-label", cardName(token) + (chosen ? `, ${colorName(chosen)}` : ""));
  button.title = button.getAttribute("aria-label");
  button.append(cardSvg(token, chosen));
  if (onClick) button.addEventListener("click", onClick); else button.disabled = !playable;
  return button;
}

// ------------------------------------------------------------------ screens

function show(id) {
  for (const section of ["home", "join", "lobby", "table"]) $(`#${section}`).hidden = section !== id;
}

function showError(message) {
  const box = $("#error");
  box.textContent = message; box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 5000);
}

// The house-rule switches as the server lists them: grouped, each with its title and a
// one-line explanation tied to the box; at first the official rules' ones are on.
function buildSwitches() {
  const box = $("#switches");
  const first = !box.dataset.built;
  const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => i.name));
  box.dataset.built = "1";
  box.replaceChildren(el("legend", {}, _("House rules")));
  for (const group of state.switches) {
    const set = el("fieldset", { className: "switch-group" }, el("legend", {}, group.title));
    for (const rule of group.switches) {
      const help = el("span", { className: "help", id: `switch-help-${rule.name}` }, rule.explanation);
      const input = el("input", { type: "checkbox", name: rule.name, checked: first ? rule.official : checked.has(rule.name) });
      input.setAttribute("aria-describedby", help.id);
      set.append(el("div", { className: "switch" }, el("label", {}, input, " ", rule.title), help));
    }
    box.append(set);
  }
  buildBotSeats();
}

function buildBotSeats() {
  const box = $("#bot-seats");
  const players = Math.max(2, Math.min(10, Number($("#create-form").players.value) || 2));
  const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => Number(i.value)));
  box.replaceChildren(el("legend", {}, _("Seats played by bots")));
  for (let seat = 1; seat < players; seat++) {
    box.append(el("label", {}, el("input", { type: "checkbox", value: seat, checked: checked.has(seat) }),
      " ", _("Seat {n}", { n: seat + 1 })));
  }
}

async function post(path, body) {
  const response = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body) });
  const answer = await response.json();
  if (!response.ok) throw answer.error;  // {code, params, message}
  return answer;
}

async function createRoom(event) {
  event.preventDefault();
  const form = event.target;
  const rules = { players: Number(form.players.value), target_score: Number(form.target_score.value) };
  for (const input of $("#switches").querySelectorAll("input[type=checkbox]")) rules[input.name] = input.checked;
  const bots = [...$("#bot-seats").querySelectorAll("input:checked")].map((i) => Number(i.value));
  try {
    const room = await post("/api/rooms", { name: form.name.value, rules, bots, bot: form.bot.value,
      turn_seconds: Number(form.turn_seconds.value) });
    localStorage.setItem(`unomas:${room.code}`, room.token);
    localStorage.setItem("unomas:name", form.name.value);
    history.pushState(null, "", `/r/${room.code}`);
    route();
  } catch (error) { showError(errorText(error)); }
}

async function joinRoom(event) {
  event.preventDefault();
  const name = event.target.name.value;
  try {
    const seat = await post(`/api/rooms/${state.code}/join`, { name });
    localStorage.setItem(`unomas:${state.code}`, seat.token);
    localStorage.setItem("unomas:name", name);
    route();
  } catch (error) { showError(errorText(error)); }
}

// ------------------------------------------------------------------ the connection

function connect(token) {
  state.token = token;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/ws/${state.code}`);
  state.socket = socket;
  socket.addEventListener("open", () => {
    state.retry = 0;
    socket.send(JSON.stringify({ type: "hello", token, lang: state.lang }));
  });
  socket.addEventListener("message", (event) => receive(JSON.parse(event.data)));
  socket.addEventListener("close", () => {
    if (state.socket !== socket || state.closed) return;
    showError(_("Connection lost; reconnecting…"));
    state.retry = Math.min(state.retry + 1, 5);
    setTimeout(() => connect(token), 500 * state.retry);
  });
}

function send(message) {
  if (state.socket && state.socket.readyState === WebSocket.OPEN) state.socket.send(JSON.stringify(message));
}

// Each action carries a number the server echoes in its answer (a refused one is known), and
// the ply of the view it answers: if the game moved on meanwhile, it is refused as stale.
function act(move, ply = state.view.ply) {
  state.sent = (state.sent || 0) + 1;
  send({ type: "act", action: move, ref: state.sent, ply });
}

function receive(message) {
  if (message.type === "error") {
    if (message.code === "auth.bad_token") {  // this browser's seat is not in this room
      localStorage.removeItem(`unomas:${state.code}`);
      state.closed = true; state.socket.close(); route();
    }
    if (message.code === "seat.taken_over") state.closed = true;  // played in another tab now: no reconnecting
    // The page offers only the view's legal actions, so a refused one was overtaken by
    // another seat's (an UNO call, a catch, a jump-in): move.stale says so.
    showError(errorText(message));
  } else if (message.type === "room") {
    state.room = message;
    if (message.status === "lobby") renderLobby(); else { show("table"); renderFairness(); if (state.view) render(); }
  } else if (message.type === "presence") {  // a seat's player came, left or is away
    const seat = state.room && state.room.seats[message.seat];
    if (seat) { seat.connected = message.connected; seat.away = message.away; receive(state.room); }
  } else if (message.type === "update") {
    state.view = message.view; state.turnLeft = message.turn_left;
    show("table");
    if (message.history) {  // the first update after a hello: the round so far, as this seat saw it
      $("#log").replaceChildren();
      for (const entry of message.history) for (const line of entry.narration) addLog(line);
    }
    for (const line of message.narration || []) addLog(line);
    render();
    for (const event of message.events) if (event.event === "round_ended") roundSummary(event);
  } else if (message.type === "over") {
    state.over = message; renderFairness(); matchSummary(message);
  }
}

// ------------------------------------------------------------------ lobby and table

function names() { return (state.room ? state.room.seats : []).map((s, i) => (s ? s.name : _("Seat {n}", { n: i + 1 }))); }

function renderLobby() {
  show("lobby");
  const room = state.room;
  for (const node of document.querySelectorAll(".code")) node.textContent = room.code;
  $("#link").value = `${location.origin}/r/${room.code}`;
  $("#lobby-seats").replaceChildren(...room.seats.map((seat, i) => el("li", {},
    seat ? seat.name : _("(empty seat)"),
    ...(seat && seat.bot ? [el("span", { className: "tag" }, ` ${_("bot")}`)] : []),
    ...(i === room.you ? [el("span", { className: "tag" }, ` ${_("you")}`)] : []),
    ...(i === room.host ? [el("span", { className: "tag" }, ` ${_("host")}`)] : []))));
  $("#start").hidden = room.you !== room.host;
  $("#waiting").hidden = room.you === room.host;
}

function render() {
  const view = state.view, room = state.room;
  if (!view || !room) return;
  const you = view.seat, who = names();
  $("#opponents").replaceChildren(...view.hand_sizes.map((count, seat) => {
    const info = room.seats[seat] || {};
    const box = el("div", { className: `seat${seat === view.current ? " turn" : ""}` },
      el("div", {}, who[seat], seat === you ? ` (${_("you")})` : ""),
      el("div", { className: "count" }, ngettext("{n} card", "{n} cards", count)),
      el("div", {}, `${view.scores[seat]}`));
    if (info.bot) box.append(el("span", { className: "tag" }, _("bot")));
    if (info.away) box.append(el("span", { className: "tag" }, _("away: a bot plays")));
    if (view.uno_pending === seat) box.append(el("span", { className: "tag" }, _("UNO?")));
    box.setAttribute("aria-current", seat === view.current ? "true" : "false");
    return box;
  }));
  $("#discard").replaceChildren(cardButton(view.top, { chosen: view.top[0] === "W" ? view.color : null }));
  const status = [
    view.current === you ? _("Your turn") : _("{name}'s turn", { name: who[view.current] }),
    view.color ? _("Colour in play: {color}", { color: colorName(view.color) }) : "",
    view.direction === 1 ? _("Clockwise") : _("Counter-clockwise"),
    _("Draw pile: {n}", { n: view.pile_size }),
    view.penalty ? _("Penalty: {n}", { n: view.penalty }) : "",
    state.turnLeft != null ? _("Seconds left: {n}", { n: Math.round(state.turnLeft) }) : "",
    you === null ? _("Spectating") : "",
    view.shown_hand ? _("Shown to you: {cards}", { cards: view.shown_hand.hand.join(" ") }) : "",
  ].filter(Boolean);
  $("#status").replaceChildren(...status.map((line) => el("div", {}, line)));
  renderActions(view, who);
  const plays = view.legal_actions.filter((m) => m.a === "play");
  $("#hand").setAttribute("aria-label", _("Your hand"));
  $("#hand").replaceChildren(...view.hand.map((token) => {
    const options = plays.filter((m) => m.card === token);
    return cardButton(token, { playable: options.length > 0, onClick: options.length ? () => choosePlay(options, who) : null });
  }));
}

function renderActions(view, who) {
  const legal = view.legal_actions;
  const buttons = [];
  const add = (label, move, className = "") => {
    const button = el("button", { type: "button", className }, label);
    button.dataset.a = move.a;
    button.addEventListener("click", () => act(move));
    buttons.push(button);
  };
  for (const move of legal) {
    if (move.a === "draw") add(_("Draw"), move);
    else if (move.a === "pass") add(_("Pass"), move);
    else if (move.a === "challenge") add(_("Challenge"), move);
    else if (move.a === "uno") add(_("UNO!"), move, "uno");
    else if (move.a === "catch") add(_("Catch {name}", { name: who[move.target] }), move, "uno");
  }
  const colors = legal.filter((m) => m.a === "color");
  if (colors.length) buttons.push(...colorButtons(colors));
  if (legal.some((m) => m.a === "play" && m.uno)) {
    const box = el("input", { type: "checkbox", id: "say-uno", checked: state.sayUno || false });
    box.addEventListener("change", () => { state.sayUno = box.checked; });
    buttons.push(el("label", { className: "uno-toggle" }, box, " ", _("Call UNO with this play")));
  }
  $("#actions").replaceChildren(...buttons);
}

function colorButtons(moves, then = act) {
  return moves.map((move) => {
    const button = el("button", { type: "button", className: `pick-${COLORS[move.color]}` }, colorName(move.color));
    button.dataset.a = move.a;
    button.addEventListener("click", () => then(move));
    return button;
  });
}

function choosePlay(options, who) {
  const uno = state.sayUno && options.some((m) => m.uno);
  let moves = options.filter((m) => Boolean(m.uno) === uno);
  const ply = state.view.ply;  // the view the choices come from, even if another arrives meanwhile
  const finish = (chosen) => { closeDialog(); state.sayUno = false; act(chosen, ply); };
  const pickTarget = (list) => {
    const targets = list.filter((m) => m.target !== undefined);
    if (!targets.length) return finish(list[0]);
    dialog(_("Swap hands with"), targets.map((m) => {
      const button = el("button", { type: "button" }, who[m.target]);
      button.addEventListener("click", () => finish(m));
      return button;
    }));
  };
  if (moves.some((m) => m.color)) {
    dialog(_("Choose a colour"), colorButtons(moves, (m) => pickTarget([m])));
  } else pickTarget(moves);
}

function dialog(title, buttons) {
  const cancel = el("button", { type: "button" }, _("Cancel"));
  cancel.addEventListener("click", closeDialog);
  $("#dialog-body").replaceChildren(el("h2", { id: "dialog-title" }, title), el("div", {}, ...buttons), cancel);
  showDialog(buttons[0]);
}

// A modal <dialog>: the browser keeps the focus inside it, Escape closes it, and the focus
// goes back where it was when it closes.
function showDialog(focus) {
  const box = $("#dialog");
  if (!box.open) box.showModal();
  focus.focus();
}

function closeDialog() { if ($("#dialog").open) $("#dialog").close(); }

function scoresTable(scores) {
  const who = names();
  return el("table", { className: "scores" }, ...scores.map((score, seat) => el("tr", {},
    el("td", {}, who[seat]), el("td", {}, String(score)))));
}

function roundSummary(event) {
  const ok = el("button", { type: "button" }, _("OK"));
  ok.addEventListener("click", closeDialog);
  $("#dialog-body").replaceChildren(el("h2", { id: "dialog-title" }, _("Round over")),
    el("p", {}, ngettext("{player} wins the round and scores {n} point.", "{player} wins the round and scores {n} points.",
      event.points, { player: names()[event.winner] })),
    el("h3", {}, _("Scores")), scoresTable(event.scores), ok);
  showDialog(ok);
}

function matchSummary(over) {
  const ok = el("button", { type: "button" }, _("OK"));
  ok.addEventListener("click", closeDialog);
  const link = el("a", { href: over.record, download: `unomas-${state.code}.json` }, _("Download the record"));
  $("#dialog-body").replaceChildren(el("h2", { id: "dialog-title" }, _("Match over")), el("h3", {}, _("Scores")),
    scoresTable(over.scores), el("p", {}, link), ok);
  showDialog(ok);
}

async function renderFairness() {
  const room = state.room;
  if (!room || !room.commitment) return;
  const lines = [_("Shuffle commitment (SHA-256 of the secret seed): {c}", { c: room.commitment })];
  const extra = [];
  if (state.over) {  // kept on the page after the summary is closed
    const record = await fetch(state.over.record).then((r) => r.json());
    lines.push(_("Seed revealed: {s}. Check it with: unomas replay --verify", { s: record.shuffle.seed }));
    extra.push(el("div", { id: "over-banner" }, `${_("Match over")} — `,
      el("a", { href: state.over.record, download: `unomas-${state.code}.json` }, _("Download the record"))));
  }
  $("#fairness").replaceChildren(...extra, ...lines.map((line) => el("div", {}, line)));
}

function addLog(line) {
  const log = $("#log");
  log.append(el("li", {}, line));
  while (log.children.length > 200) log.firstChild.remove();
  log.scrollTop = log.scrollHeight;
}

// ------------------------------------------------------------------ keyboard

document.addEventListener("keydown", (event) => {
  if (event.target.matches("input, select, textarea") || !state.view || $("#dialog").open) return;
  const legal = state.view.legal_actions;
  const key = event.key.toLowerCase();
  const move = { d: legal.find((m) => m.a === "draw"), p: legal.find((m) => m.a === "pass"),
    c: legal.find((m) => m.a === "challenge"), u: legal.find((m) => m.a === "uno") }[key];
  if (move) { event.preventDefault(); act(move); }
});

// ------------------------------------------------------------------ routing

async function route() {
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9]{4,16})$/);
  state.closed = false;
  if (!match) { show("home"); return; }
  state.code = match[1].toUpperCase();
  for (const node of document.querySelectorAll(".code")) node.textContent = state.code;
  const token = localStorage.getItem(`unomas:${state.code}`);
  if (token) { connect(token); return; }
  const info = await fetch(`/api/rooms/${state.code}`).then((r) => r.json());
  if (info.error) { showError(errorText(info.error)); show("home"); return; }
  if (info.status === "lobby") {
    show("join");
    $("#join-form").name.value = localStorage.getItem("unomas:name") || "";
  } else connect(null);
}

window.addEventListener("DOMContentLoaded", async () => {
  await loadLanguage(state.lang);
  $("#lang").addEventListener("change", async (event) => {
    await loadLanguage(event.target.value);
    if (state.socket) { state.closed = true; state.socket.close(); route(); }
  });
  $("#create-form").addEventListener("submit", createRoom);
  $("#create-form").players.addEventListener("input", buildBotSeats);
  $("#create-form").name.value = localStorage.getItem("unomas:name") || "";
  $("#join-code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    history.pushState(null, "", `/r/${event.target.code.value.trim().toUpperCase()}`);
    route();
  });
  $("#join-form").addEventListener("submit", joinRoom);
  $("#watch").addEventListener("click", () => connect(null));
  $("#start").addEventListener("click", () => send({ type: "start" }));
  $("#copy").addEventListener("click", () => { $("#link").select(); navigator.clipboard?.writeText($("#link").value); });
  window.addEventListener("popstate", route);
  route();
});
