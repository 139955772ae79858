// unomas in the browser: no build step, no framework. This module routes between the
// pages, dispatches the server's messages, keeps the log, and starts everything.
import { state, $, el, names, chanceOpen } from "./state.js";
import { _, loadWords, errorText, reactionText, REACTIONS } from "./words.js";
import { connect, disconnect, send, act, letGo, online, post } from "./net.js";
import { render, tick, animate, showReaction } from "./table.js";
import { setUpHandKeys, setUpSort, shapes } from "./hand.js";
import { roundSummary, closeDialog, serverFull } from "./dialogs.js";
import { buildSwitches, createRoom, quickPlay, readCode, renderJoin, renderLobby, setUpHome, setUpLobby } from "./lobby.js";
import { matchOver, renderOver } from "./over.js";
import { play, setUpMute, showMute } from "./sound.js";

const saved = localStorage.getItem("unomas:lang") || (navigator.language || "en").slice(0, 2);
state.lang = ["es", "en"].includes(saved) ? saved : "en";

// Show one page; returns whether it was hidden until now.
function show(id) {
  const fresh = $(`#${id}`).hidden;
  for (const section of ["home", "join", "lobby", "table"]) $(`#${section}`).hidden = section !== id;
  return fresh;
}

// The table just came in (the game started, or the page came back to it): once its first
// view is drawn, if the focus was lost with the page it was on, it goes to the hand (a
// spectator's, to the status).
let focusPending = false;
function focusTable() {
  if (!state.view) return;
  focusPending = false;
  const active = document.activeElement;
  if (active && active !== document.body && !active.closest("[hidden]")) return;
  ($("#hand .card") || $("#status")).focus({ preventScroll: true });
}

function showError(message) {
  const box = $("#error");
  box.textContent = message; box.hidden = false;
  clearTimeout(showError.timer);
  showError.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// A line of the log, said by a screen reader too (polite, after what it is saying) unless it
// is the match so far told again after a reload. The log itself (role=log) stays quiet: it
// may be folded away, and its history would be read out whole.
function addLog(line, kind = "", say = true) {
  const log = $("#log");
  log.append(el("li", { className: kind }, line));
  while (log.children.length > 500) log.firstChild.remove();
  log.parentElement.scrollTop = log.parentElement.scrollHeight;
  if (!say) return;
  const announce = $("#announce");
  announce.append(el("p", {}, line));
  while (announce.children.length > 5) announce.firstChild.remove();
}

// A seat's presence changed: said in the log. "Back" only for one this page saw connected
// and then lose the connection (not a seat arriving at a new room, such as a rematch's).
function notePresence(seat, presence) {
  const before = state.presence[seat];
  state.presence[seat] = { ...presence, at: performance.now(), seen: Boolean(presence.connected || (before && before.seen)) };
  if (!before || !state.view) return;
  const who = names()[seat];
  if (before.connected && !presence.connected) addLog(_("{name} lost the connection.", { name: who }), "note");
  else if (!before.connected && presence.connected && before.seen) addLog(_("{name} is back.", { name: who }), "note");
  else if (!before.away && presence.away) addLog(_("{name} is away: a bot plays for them.", { name: who }), "note");
}

function receive(message) {
  if (message.type === "error") {
    if (message.code === "auth.bad_token") {  // this browser's seat is not in this room
      localStorage.removeItem(`unomas:${state.code}`);
      disconnect(); route(); return;
    }
    if (message.code === "room.not_found") {  // the lobby closed while nobody was in it: home, told why
      const code = state.code;
      localStorage.removeItem(`unomas:${code}`);
      disconnect();
      history.replaceState(null, "", "/");
      route();
      showError(_("Room {code} is gone: a room closes when nobody is in it for a while.", { code }));
      return;
    }
    if (message.code === "seat.taken_over") disconnect();  // played in another tab now: no reconnecting
    // The page offers only the view's legal actions, so a refused one was overtaken by
    // another seat's (an UNO call, a catch, a jump-in): move.stale says so.
    showError(errorText(message));
  } else if (message.type === "room") {
    state.room = message;
    message.seats.forEach((seat, i) => { if (seat && !seat.bot) notePresence(i, seat); });
    if (message.status === "lobby") {
      show("lobby"); renderLobby();
      if (state.startNow === message.code && message.you === message.host) { state.startNow = null; send({ type: "start" }); }
    } else {
      const fresh = show("table");
      renderFairness(); render(); renderOver();
      if (fresh) { focusPending = true; focusTable(); }
    }
  } else if (message.type === "presence") {  // a seat's player came, left or is away
    const seat = state.room && state.room.seats[message.seat];
    if (seat) {
      Object.assign(seat, { connected: message.connected, away: message.away, grace_left: message.grace_left });
      notePresence(message.seat, message);
      if (state.room.status === "lobby") renderLobby(); else render();
    }
  } else if (message.type === "update") {
    state.view = message.view;
    state.turnLeft = message.turn_left; state.turnAt = performance.now();
    const fresh = show("table");
    if (message.history) {  // the first update after a hello: the match so far, as this seat saw it
      $("#log").replaceChildren();
      for (const entry of message.history) for (const line of entry.narration) addLog(line, "", false);
    }
    for (const line of message.narration || []) addLog(line);
    render();
    if (fresh || focusPending || message.events.some((e) => e.event === "dealt")) focusTable();
    animate(message.events);
    if (message.events.some((e) => e.event === "played")) play("card");
    if (message.events.some((e) => e.event === "drew")) play("draw");
    if (message.events.some((e) => e.event === "uno_called")) play("uno");
    const ended = message.events.find((e) => e.event === "round_ended");
    if (ended && !message.events.some((e) => e.event === "match_ended")) roundSummary(ended);
  } else if (message.type === "over") {
    const fresh = !state.over;
    closeDialog();
    matchOver(message, fresh);
    renderFairness(); render();
  } else if (message.type === "timeout") {
    addLog(_("Time ran out for {name}: the server played for them.", { name: names()[message.seat] }), "note");
    play("timeout");
  } else if (message.type === "reaction") {
    const [emoji, phrase] = reactionText(message.reaction);
    addLog(`${names()[message.seat]}: ${emoji} ${phrase}`, "note");
    showReaction(message.seat, message.reaction);
    play("react");
  } else if (message.type === "rematch") {  // the rematch is made: the same seat there
    if (state.token) localStorage.setItem(`unomas:${message.code}`, state.token);
    disconnect();
    history.pushState(null, "", `/r/${message.code}`);
    route();
  }
}

async function renderFairness() {
  const room = state.room;
  if (!room || !room.commitment) return;
  const lines = [_("Shuffle commitment (SHA-256 of the secret seed): {c}", { c: room.commitment })];
  if (state.over) {
    const record = await fetch(state.over.record).then((r) => r.json());
    lines.push(_("Seed revealed: {s}. Check it with: unomas replay --verify", { s: record.shuffle.seed }));
  }
  $("#fairness").replaceChildren(...lines.map((line) => el("p", {}, line)));
}

function buildReactions() {
  $("#reactions").replaceChildren(el("summary", {}, _("Quick reactions")),
    el("div", { className: "choices" }, ...REACTIONS.map((reaction) => {
      const [emoji, phrase] = reactionText(reaction);
      const button = el("button", { type: "button", className: "react" }, el("span", { ariaHidden: "true" }, emoji), ` ${phrase}`);
      button.dataset.reaction = reaction;
      button.addEventListener("click", () => {
        send({ type: "react", reaction });
        $("#reactions").open = false;  // (out of the way again on a phone)
      });
      return button;
    })));
}

// ------------------------------------------------------------------ keyboard

document.addEventListener("keydown", (event) => {
  if (event.target.matches("input, select, textarea") || !state.view || $("#dialog").open || !online()) return;
  if (event.ctrlKey || event.metaKey || event.altKey) return;
  const legal = state.view.legal_actions;
  // The terminal game's keys: X challenges, C catches (the first seat that can be caught).
  if (/^[0-9]$/.test(event.key)) {  // as in the terminal: 1 picks the first card, 0 the tenth
    const card = document.querySelectorAll("#hand .card")[(Number(event.key) + 9) % 10];
    if (card) { event.preventDefault(); card.focus(); }
    return;
  }
  const move = { d: legal.find((m) => m.a === "draw"), p: legal.find((m) => m.a === "pass"),
    x: legal.find((m) => m.a === "challenge"), c: legal.find((m) => m.a === "catch"),
    u: legal.find((m) => m.a === "uno") }[event.key.toLowerCase()];
  if (move) { event.preventDefault(); act(move); }
  else if (event.key === " " && chanceOpen(state.view) && !event.target.matches("button")) {
    event.preventDefault();  // Space lets the chance go, as in the terminal game
    letGo();
    render();
  }
});

// ------------------------------------------------------------------ routing

async function route() {
  const match = location.pathname.match(/^\/r\/([A-Za-z0-9]{4,16})$/);
  Object.assign(state, { room: null, view: null, over: null, presence: {}, watching: null });
  $("#over").hidden = true;
  $("#log").replaceChildren();
  document.title = "unomas";
  if (!match) { show("home"); return; }
  state.code = match[1].toUpperCase();
  for (const node of document.querySelectorAll(".code")) node.textContent = state.code;
  const token = localStorage.getItem(`unomas:${state.code}`);
  if (token) { connect(token, receive); return; }
  const info = await fetch(`/api/rooms/${state.code}`).then((r) => r.json());
  if (info.error) {
    showError(errorText(info.error));
    history.replaceState(null, "", "/");
    show("home");
    return;
  }
  if (info.status === "lobby") {
    show("join");
    renderJoin(info);
  } else {
    state.watching = "started";
    connect(null, receive);
  }
}

async function relabel() {
  buildSwitches();
  buildReactions();
  $("#sort").textContent = _("Sort by colour");
  $("#shapes").title = _("Colour-blind mode");
  $("#shapes").setAttribute("aria-label", $("#shapes").title);
  showMute();
  if (state.room && state.room.status === "lobby") renderLobby();
  render();
  renderOver();
  renderFairness();
}

// The colour-blind mode: the cards, the colour buttons and the colour in play show a shape
// and an initial for each colour; the browser remembers it.
function setUpShapes() {
  const button = $("#shapes");
  button.setAttribute("aria-pressed", String(shapes()));
  button.addEventListener("click", () => {
    localStorage.setItem("unomas:shapes", shapes() ? "0" : "1");
    button.setAttribute("aria-pressed", String(shapes()));
    render();
    renderOver();
  });
}

window.addEventListener("DOMContentLoaded", async () => {
  await loadWords(state.lang);
  setUpShapes();
  setUpHome();
  setUpLobby();
  setUpMute();
  setUpSort();
  setUpHandKeys();
  relabel();
  $("#lang").addEventListener("change", async (event) => {
    await loadWords(event.target.value);
    relabel();
    // The log is the server's narration: asked again in the new language.
    if (state.code && state.token !== undefined && state.view) { disconnect(); connect(state.token, receive); }
    else if (state.code && location.pathname.startsWith("/r/") && !$("#join").hidden) route();
  });
  // A field left empty is told in the page's language, not the browser's.
  for (const input of document.querySelectorAll("input[required]")) {
    input.addEventListener("invalid", () => input.setCustomValidity(input.validity.valueMissing ? _("Fill in this field.") : ""));
    input.addEventListener("input", () => input.setCustomValidity(""));
  }
  // A room not made is said in one line; a full server gets a panel of its own that tries again.
  const making = (make) => make().catch((error) => {
    if (error.code === "room.capacity") serverFull(() => making(make));
    else showError(errorText(error));
  });
  $("#create-form").addEventListener("submit", (event) => making(() => createRoom(event, route)));
  $("#quick-play").addEventListener("click", () => making(() => quickPlay(route)));
  $("#join-code-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const code = readCode(event.target.code.value);
    if (!code) return;
    history.pushState(null, "", `/r/${code}`);
    route();
  });
  $("#join-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = event.target.name.value;
    try {
      const seat = await post(`/api/rooms/${state.code}/join`, { name });
      localStorage.setItem(`unomas:${state.code}`, seat.token);
      localStorage.setItem("unomas:name", name);
      route();
    } catch (error) { showError(errorText(error)); }
  });
  $("#watch").addEventListener("click", () => {
    state.watching = $("#join-full").hidden ? "chose" : "full";
    connect(null, receive);
  });
  $("#start").addEventListener("click", () => send({ type: "start" }));
  window.addEventListener("popstate", () => { disconnect(); route(); });
  // A dialog that closes gives the focus back; if what had it is gone, to the hand or the status.
  $("#dialog").addEventListener("close", () => setTimeout(() => {
    if (document.activeElement === document.body && !$("#table").hidden) ($("#hand .card") || $("#status")).focus();
  }));
  setInterval(tick, 250);
  route();
  // Installable as an app, with an offline page (the service worker is at the root: it serves the whole site).
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
});
