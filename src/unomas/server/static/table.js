// The table: the seats around it (you at the bottom), the draw pile you can tap, the discard
// pile, the direction of play, what the moment asks of you, the action buttons and the turn
// timer. Which actions exist is the view's legal_actions alone: nothing here judges the rules.
import { state, $, el, names, calm, chanceOpen } from "./state.js";
import { _, ngettext, colorName, cardName, reactionText } from "./words.js";
import { act, letGo } from "./net.js";
import { cardSvg, cardBack, colorButtons, renderHand, COLORS, SHAPE_CHAR, shapes } from "./hand.js";
import { turnCue } from "./sound.js";

// Focus survives a redraw: the control that had it (same key) or the one now in its place.
function keepFocus(draw) {
  const active = document.activeElement;
  const box = active && active.closest("#hand, #actions, #piles");
  const key = box && active.dataset.key;
  const index = box ? [...box.querySelectorAll("button")].indexOf(active) : -1;
  draw();
  if (!box || active.isConnected) return;
  const buttons = [...box.querySelectorAll("button")];
  const next = buttons.find((b) => key && b.dataset.key === key) || buttons[Math.min(index, buttons.length - 1)];
  if (next) next.focus({ preventScroll: true }); else ($("#hand button") || $("#status")).focus({ preventScroll: true });
}

export function render() {
  const view = state.view, room = state.room;
  if (!view || !room) return;
  keepFocus(() => {
    renderSeats(view, room);
    renderPiles(view);
    renderStatus(view);
    renderActions(view);
    renderHand();
  });
  const over = view.phase === "match_over";
  $("#reactions").hidden = view.seat === null;  // a spectator has no hand to sort, no keys to play
  $("#sort").hidden = view.seat === null;
  $(".keys").hidden = view.seat === null;
  turnCue(!over && view.seat !== null && view.legal_actions.some((m) => m.a !== "catch" && m.a !== "uno")
    && view.current === view.seat);
}

function renderSeats(view, room) {
  const who = names(), count = view.hand_sizes.length;
  const me = view.seat === null ? 0 : view.seat;
  $("#seats").replaceChildren(...view.hand_sizes.map((cards, seat) => {
    const info = room.seats[seat] || {};
    const presence = state.presence[seat] || info;
    const turn = seat === view.current && !["round_over", "match_over"].includes(view.phase);
    const tags = [];  // [text, class]
    if (seat === view.seat) tags.push(_("you"));
    if (info.bot) tags.push(_("bot"));
    if (info.program) tags.push(_("program"));
    if (seat === view.dealer) tags.push(_("dealer"));
    if (presence.away) tags.push(_("away: a bot plays"));
    else if (!info.bot && presence.connected === false) {
      tags.push(presence.grace_left != null ? [_("connection lost: a bot plays in {n} s", { n: graceLeft(seat) }), "grace"]
        : _("connection lost"));
    }
    if (view.uno_pending === seat) tags.push(_("UNO?"));
    const partner = (view.partners || []).includes(seat);
    if (partner) tags.push([_("partner"), "partner"]);
    const seen = (view.partner_hands || []).find((other) => other.seat === seat);
    const box = el("li", { className: `seat${turn ? " turn" : ""}${partner ? " partner" : ""}${presence.connected === false && !info.bot ? " gone" : ""}` },
      el("h3", { className: "name" }, who[seat]),
      seat === view.seat || !cards ? null : fan(cards),
      el("p", { className: "count" }, ngettext("{n} card", "{n} cards", cards)),
      el("p", { className: "score" }, _("Score: {n}", { n: view.scores[seat] })),
      seen ? el("p", { className: "partner-hand", title: _("Your partner's hand") }, seen.hand.join(" ")) : null,
      tags.length ? el("p", { className: "tags" }, ...tags.map((tag) => (Array.isArray(tag)
        ? el("span", { className: `tag ${tag[1]}` }, tag[0]) : el("span", { className: "tag" }, tag)))) : null);
    box.dataset.seat = seat;
    if (turn) {
      box.setAttribute("aria-current", "true");
      if (state.turnLeft != null && room.turn_seconds) box.append(ring());
    }
    const angle = Math.PI / 2 + (2 * Math.PI * ((seat - me + count) % count)) / count;  // you at the bottom
    box.style.setProperty("--x", `${50 + 44 * Math.cos(angle)}%`);
    box.style.setProperty("--y", `${50 + 40 * Math.sin(angle)}%`);
    return box;
  }));
}

// A seat's hand as the others see it: the backs of its cards, fanned (a few at most).
function fan(cards) {
  const box = el("span", { className: "fan" }, ...Array.from({ length: Math.min(cards, 10) }, () => el("i")));
  box.setAttribute("aria-hidden", "true");
  return box;
}

function graceLeft(seat) {
  const presence = state.presence[seat];
  return Math.max(0, Math.round(presence.grace_left - (performance.now() - presence.at) / 1000));
}

function renderPiles(view) {
  const draw = view.legal_actions.find((m) => m.a === "draw");
  const pile = el("button", { type: "button", className: "pile" }, cardBack(),
    el("span", { className: "pile-count" }, String(view.pile_size)));
  pile.dataset.key = "pile";
  pile.setAttribute("aria-label", draw ? _("Draw pile ({n} cards): draw", { n: view.pile_size })
    : _("Draw pile ({n} cards)", { n: view.pile_size }));
  if (draw) pile.addEventListener("click", () => act(draw)); else pile.setAttribute("aria-disabled", "true");
  const top = el("div", { id: "discard", className: "pile", role: "img" }, cardSvg(view.top, view.top[0] === "W" ? view.color : null));
  top.setAttribute("aria-label", _("Discard pile: {card}", { card: cardName(view.top) }));
  const color = view.color ? el("p", { className: `in-play pick-${COLORS[view.color]}` },
    shapes() ? el("span", { ariaHidden: "true" }, `${SHAPE_CHAR[view.color]} `) : null,
    _("Colour in play: {color}", { color: colorName(view.color) })) : null;
  const direction = el("p", { className: `direction ${view.direction === 1 ? "cw" : "ccw"}`, id: "direction" },
    el("span", { className: "arrow", ariaHidden: "true" }, view.direction === 1 ? "↻" : "↺"), " ",
    view.direction === 1 ? _("Clockwise") : _("Counter-clockwise"));
  const target = state.room.rules.target_score;
  $("#piles").replaceChildren(pile, top, el("div", { className: "table-info" }, color, direction,
    view.penalty ? el("p", { className: "penalty" }, _("Penalty: {n}", { n: view.penalty })) : null,
    el("p", {}, target ? _("Target: {n} points", { n: target }) : _("One round"))));
}

// What the moment asks, in words: whose turn, and what you may do and risk now.
function prompt(view) {
  const who = names(), you = view.seat, legal = view.legal_actions;
  const mine = view.current === you;
  const has = (a) => legal.some((m) => m.a === a);
  if (view.phase === "match_over") return _("Match over: {name} wins.", { name: who[view.winner] });
  if (view.phase === "round_over") return _("Round over.");
  if (you === null) return _("{name}'s turn", { name: who[view.current] });
  if (view.phase === "color") {
    return mine ? _("The starting card is a Wild: choose the colour play starts with.")
      : _("The starting card is a Wild: {name} chooses the colour.", { name: who[view.current] });
  }
  if (!mine) {
    if (has("play")) return _("Jump in! You hold the very card on top: play it now, out of turn.");
    return _("{name}'s turn", { name: who[view.current] });
  }
  if (view.phase === "penalty") {
    if (has("challenge")) {
      return _("{name} played a Wild Draw Four. Draw {n}, or challenge: if they held a card of the colour in play before it, they draw 4 instead; if not, you draw {m}.",
        { name: who[view.accused ?? view.current], n: view.penalty, m: view.penalty + 2 });
    }
    if (has("play")) return _("You must draw {n}: draw, or answer with a card.", { n: view.penalty });
    return _("You must draw {n}.", { n: view.penalty });
  }
  if (view.phase === "run") {  // same_number_together: more of the number on top, or a pass
    return has("pass") ? _("Another {number}? Play one of any colour, or pass to end your turn.", { number: view.top.slice(1) })
      : _("Play your next 7: name someone to swap hands with, or go on to another 7.");
  }
  if (view.phase === "drawn") {
    return has("pass") ? _("You drew {card}: play it, or pass.", { card: cardName(view.drawn) })
      : _("You drew {card}: play it.", { card: cardName(view.drawn) });
  }
  return has("play") ? _("Your turn: play a card that matches, or draw.") : _("Your turn: nothing matches, draw a card.");
}

function renderStatus(view) {
  const lines = [prompt(view)];
  if (view.shown_hand) lines.push(_("Shown to you: {cards}", { cards: view.shown_hand.hand.join(" ") }));
  if (view.seat === null) {
    lines.push(_("Spectating"));
    const why = { full: _("You are watching: every seat was taken when you came."),
      started: _("You are watching: the match had begun when you came."),
      chose: _("You are watching: you chose to watch rather than take a seat.") }[state.watching];
    if (why) lines.push(why);
  }
  const status = $("#status");
  const text = lines.join(" ");
  if (status.dataset.text !== text) {  // a live region: said again only when it changes
    status.dataset.text = text;
    status.replaceChildren(...lines.map((line) => el("p", {}, line)));
  }
  showTimer();
}

// The turn timer: a ring on the plate of the seat whose turn it is, emptying as the seconds
// the server last gave run out, the seconds left in the middle.
const RING = 2 * Math.PI * 16;
function ring() {
  const box = el("div", { className: "ring", role: "timer" });
  box.innerHTML = `<svg viewBox="0 0 40 40" aria-hidden="true"><circle cx="20" cy="20" r="16" class="track"/>` +
    `<circle cx="20" cy="20" r="16" class="left" stroke-dasharray="${RING}" transform="rotate(-90 20 20)"/>` +
    `<text x="20" y="25" text-anchor="middle"></text></svg>`;
  return box;
}

function showTimer() {
  const box = document.querySelector("#seats .seat.turn .ring");
  const total = state.room && state.room.turn_seconds;
  if (!box || state.turnLeft == null || !total) return;
  const exact = Math.max(0, state.turnLeft - (performance.now() - state.turnAt) / 1000);
  const left = Math.ceil(exact);
  box.setAttribute("aria-label", _("Seconds left: {n}", { n: left }));
  box.querySelector("text").textContent = String(left);
  box.querySelector(".left").setAttribute("stroke-dashoffset", String(RING * (1 - exact / total)));
  box.classList.toggle("urgent", left <= 5);
}

export function tick() {
  showTimer();
  for (const seat of Object.keys(state.presence)) {
    const tag = document.querySelector(`#seats [data-seat="${seat}"] .tag.grace`);
    const presence = state.presence[seat];
    if (tag && presence.grace_left != null && presence.connected === false && !presence.away) {
      tag.textContent = _("connection lost: a bot plays in {n} s", { n: graceLeft(seat) });
    }
  }
}

function renderActions(view) {
  const who = names();
  const legal = view.legal_actions;
  const buttons = [];
  const add = (label, move, className = "", key = move.a) => {
    const button = el("button", { type: "button", className }, label);
    button.dataset.a = move.a;
    button.dataset.key = key;
    button.addEventListener("click", () => act(move));
    buttons.push(button);
  };
  const challenge = legal.some((m) => m.a === "challenge");
  for (const move of legal) {
    if (move.a === "draw") {
      add(view.phase === "penalty" ? ngettext("Draw {n} card", "Draw {n} cards", view.penalty) : _("Draw"), move);
    } else if (move.a === "pass") add(_("Pass"), move);
    else if (move.a === "challenge") add(_("Challenge (you draw {n} if it fails)", { n: view.penalty + 2 }), move);
    else if (move.a === "uno") add(_("UNO!"), move, "uno big");
    else if (move.a === "catch") add(_("Catch {name}: they forgot UNO", { name: who[move.target] }), move, "uno", `catch${move.target}`);
  }
  // An out-of-turn chance holds the bots back for the room's window: letting it go frees them.
  if (chanceOpen(view)) {
    const button = el("button", { type: "button" }, _("Let it go"));
    button.dataset.key = "let-go";
    button.addEventListener("click", () => { letGo(); render(); });
    buttons.push(button);
  }
  if (challenge) buttons.push(el("p", { className: "help" }, _("A challenge asks whether the Wild Draw Four was played against the rule.")));
  const colors = legal.filter((m) => m.a === "color");
  if (colors.length) buttons.push(...colorButtons(colors));
  // Calling UNO with a play: offered only when the engine lists a play that calls it.
  if (legal.some((m) => m.a === "play" && m.uno)) {
    const toggle = el("button", { type: "button", className: "uno big say-uno" }, _("UNO! with this play"));
    toggle.dataset.key = "say-uno";
    toggle.setAttribute("aria-pressed", String(state.sayUno));
    toggle.addEventListener("click", () => {
      state.sayUno = !state.sayUno;
      toggle.setAttribute("aria-pressed", String(state.sayUno));
    });
    buttons.push(toggle);
  } else state.sayUno = false;
  $("#actions").replaceChildren(...buttons);
  $("#actions").setAttribute("aria-label", _("Actions"));
}

// ------------------------------------------------------------------ motion
// Every card that moves is seen moving, over the table as it already is (the page is drawn
// first, so nothing waits for the motion), and the moves that change the game get an
// effect on the seat they hit. Nothing moves under the system's reduced-motion setting.

const seatBox = (seat) => document.querySelector(`#seats [data-seat="${seat}"]`);

// A card (its face, or its back) travels from one box to another, `delay` ms from now.
function travel(from, to, face = null, delay = 0, duration = 340) {
  if (!from || !to) return;
  const a = from.getBoundingClientRect(), b = to.getBoundingClientRect();
  const width = Math.min(a.width, 60), height = width * 1.5;
  const ghost = el("div", { className: "ghost" });
  ghost.append(face ? cardSvg(face) : cardBack());
  const left = a.left + a.width / 2 - width / 2, top = a.top + a.height / 2 - height / 2;
  Object.assign(ghost.style, { left: `${left}px`, top: `${top}px`, width: `${width}px`, height: `${height}px`, opacity: 0 });
  document.body.append(ghost);
  const dx = b.left + b.width / 2 - width / 2 - left, dy = b.top + b.height / 2 - height / 2 - top;
  ghost.animate([{ transform: "none", opacity: 1 }, { transform: `translate(${dx}px, ${dy}px) rotate(${face ? 8 : 0}deg)`, opacity: 1 }],
    { duration, delay, easing: "ease-in-out" }).finished.then(() => ghost.remove(), () => ghost.remove());
}

// A sign that pops on a seat (or on the piles) for a moment: ⊘ skipped, +2, +4, a challenge's outcome.
function burst(box, text, kind) {
  if (!box) return;
  const sign = el("span", { className: `burst ${kind}` }, text);
  sign.setAttribute("aria-hidden", "true");
  box.append(sign);
  sign.animate([{ transform: "translate(-50%, -50%) scale(.3)", opacity: 0 }, { transform: "translate(-50%, -50%) scale(1.2)", opacity: 1, offset: 0.3 },
    { transform: "translate(-50%, -50%) scale(1)", opacity: 0 }], { duration: 1100, easing: "ease-out" })
    .finished.then(() => sign.remove(), () => sign.remove());
}

export function animate(events) {
  if (calm()) return;
  const view = state.view;
  const pile = () => document.querySelector("#piles .pile"), discard = () => $("#discard");
  let dealt = 0;
  for (const event of events) {
    const kind = event.event;
    if (kind === "dealt") {  // the deal: a card at a time round the table, from the pile
      const seats = event.hands.length;
      const size = Math.min(...view.hand_sizes, 7);
      const step = Math.min(40, 900 / (seats * size));  // the whole deal within a second
      for (let card = 0; card < size; card++) {
        for (let seat = 0; seat < seats; seat++) {
          const to = seat === view.seat ? $("#hand") : seatBox(seat);
          travel(pile(), to, null, step * dealt++, 300);
        }
      }
    } else if (kind === "played") {
      if (event.player !== view.seat) travel(seatBox(event.player), discard(), event.card);
      const top = discard();
      if (top) top.animate([{ transform: "scale(1.2) rotate(-8deg)" }, { transform: "none" }], { duration: 240, delay: 200, easing: "ease-out" });
      if (event.card.endsWith("+4")) burst(discard(), "+4", "hit");
    } else if (kind === "drew" && event.amount) {
      const to = event.player === view.seat ? $("#hand") : seatBox(event.player);
      for (let i = 0; i < Math.min(event.amount, 6); i++) travel(pile(), to, null, 70 * i, 320);
      if (event.reason === "challenge" || event.reason === "caught") burst(seatBox(event.player), `+${event.amount}`, "hit");
    } else if (kind === "skipped") {
      burst(seatBox(event.player), "⊘", "skip");
    } else if (kind === "penalty_pending") {
      burst(seatBox(event.player), `+${event.amount}`, "hit");
    } else if (kind === "direction_changed") {  // the direction turns round once, and says so
      const arrow = document.querySelector("#direction .arrow");
      if (arrow) arrow.animate([{ transform: "rotate(0) scale(1.6)" }, { transform: `rotate(${event.direction === 1 ? 360 : -360}deg) scale(1)` }], { duration: 700, easing: "ease-out" });
      burst(discard(), "⇄", "turn");
    } else if (kind === "challenged") {
      burst(seatBox(event.challenged), event.guilty ? "✗" : "✓", event.guilty ? "hit" : "fair");
      travel(seatBox(event.challenger), seatBox(event.challenged), null, 0, 300);
    } else if (kind === "hands_swapped") {  // two hands cross the table
      for (let i = 0; i < 3; i++) {
        travel(seatBox(event.player), seatBox(event.target), null, 60 * i, 420);
        travel(seatBox(event.target), seatBox(event.player), null, 60 * i, 420);
      }
    } else if (kind === "hands_passed") {  // every hand goes on to the next seat
      const seats = view.hand_sizes.length;
      for (let seat = 0; seat < seats; seat++) travel(seatBox(seat), seatBox((seat + event.direction + seats) % seats), null, 0, 420);
    }
  }
}

// A seat's quick reaction shows by its seat for a moment, and in the log.
export function showReaction(seat, reaction) {
  const box = document.querySelector(`#seats [data-seat="${seat}"]`);
  const [emoji, phrase] = reactionText(reaction);
  if (!box) return;
  const bubble = el("span", { className: "bubble" }, `${emoji} ${phrase}`);
  box.append(bubble);
  setTimeout(() => bubble.remove(), 3000);
}
