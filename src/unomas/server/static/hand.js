// The cards as SVG, the player's hand (sorted or as dealt), and choosing how to play a card.
// Every card stays reachable with Tab, the unplayable ones marked aria-disabled, so a
// keyboard or screen-reader user can read the whole hand.
import { state, $, el, names, calm } from "./state.js";
import { _, cardName, colorName, initial } from "./words.js";
import { act } from "./net.js";
import { dialog, closeDialog } from "./dialogs.js";

export const COLORS = { R: "red", Y: "yellow", G: "green", B: "blue" };
// Each card's face colour, the ink of its corners on it, and of its middle sign on white:
// every pair at least 4.5:1 (tests/test_server_browser.py measures them).
export const FILL = { R: "#c62828", Y: "#fdd835", G: "#2e7d32", B: "#1565c0", W: "#212121" };
export const INK = { R: "#ffffff", Y: "#212121", G: "#ffffff", B: "#ffffff", W: "#ffffff" };
export const SIGN = { R: "#c62828", Y: "#6d5200", G: "#2e7d32", B: "#1565c0", W: "#212121" };

// The colour-blind mode (remembered by the browser): each colour has a shape as well as its
// initial in the page's language, on the cards, the colour buttons and the colour in play.
export const shapes = () => localStorage.getItem("unomas:shapes") === "1";
const SHAPE = {  // a shape per colour, drawn in a 10×10 box at the origin
  R: '<path d="M5 0L10 10H0Z"/>', Y: '<circle cx="5" cy="5" r="5"/>', G: '<rect width="10" height="10"/>',
  B: '<path d="M5 0L10 5L5 10L0 5Z"/>',
};
export const SHAPE_CHAR = { R: "▲", Y: "●", G: "■", B: "◆" };
// A wild's oval in the four colours, a quarter each.
const QUARTERS = [["R", "30 14", "51 45"], ["Y", "51 45", "30 76"], ["G", "30 76", "9 45"], ["B", "9 45", "30 14"]]
  .map(([c, a, b]) => `<path d="M30 45L${a}A21 31 0 0 1 ${b}Z" fill="${FILL[c]}"/>`).join("");

// A card's face: the colour (a wild's in four colours, ringed by the one chosen), its sign in
// the middle and in two corners (no colour letters); in the colour-blind mode the colour's
// shape and initial too.
export function cardSvg(token, chosen = null) {
  const letter = token[0] === "W" ? "W" : token[0];
  const rank = token[0] === "W" ? (token === "W" ? "" : "+4") : token.slice(1);
  const symbol = { S: "⊘", R: "⇄" }[rank] || rank;
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 60 90");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const ring = chosen ? FILL[chosen] : "#fff";
  const ink = INK[letter];
  const middle = letter === "W"
    ? `<g transform="rotate(20 30 45)">${QUARTERS}</g>` + (symbol ? `<text x="30" y="54" font-size="24" font-weight="bold" text-anchor="middle" fill="#fff" stroke="#212121" stroke-width="1.5" paint-order="stroke" font-family="sans-serif">${symbol}</text>` : "")
    : `<ellipse cx="30" cy="45" rx="21" ry="31" fill="#fff" transform="rotate(20 30 45)"/>` +
      `<text x="30" y="55" font-size="${symbol.length > 1 ? 24 : 30}" font-weight="bold" text-anchor="middle" ` +
      `fill="${SIGN[letter]}" font-family="sans-serif">${symbol}</text>`;
  const corner = symbol || "★";
  let marks = "";
  const colour = letter === "W" ? chosen : letter;
  if (shapes() && colour) {
    const fill = letter === "W" ? "#fff" : ink;
    marks = `<g transform="translate(45 5)" fill="${fill}" stroke="#212121" stroke-width="${letter === "W" ? 1 : 0}">${SHAPE[colour]}</g>` +
      `<text x="6" y="84" font-size="10" font-weight="bold" fill="${fill}" font-family="sans-serif">${initial(colour)}</text>`;
  }
  svg.innerHTML =
    `<rect x="1.5" y="1.5" width="57" height="87" rx="7" fill="${FILL[letter]}" stroke="${ring}" stroke-width="3"/>` + middle +
    `<text x="6" y="15" font-size="12" font-weight="bold" fill="${ink}" font-family="sans-serif">${corner}</text>` +
    `<text x="54" y="84" font-size="12" font-weight="bold" fill="${ink}" text-anchor="end" font-family="sans-serif">${corner}</text>` + marks;
  return svg;
}

export function cardBack() {
  const svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
  svg.setAttribute("viewBox", "0 0 60 90");
  svg.setAttribute("aria-hidden", "true");
  svg.innerHTML = `<rect x="1.5" y="1.5" width="57" height="87" rx="7" fill="#212121" stroke="#fff" stroke-width="3"/>` +
    `<ellipse cx="30" cy="45" rx="21" ry="31" fill="#c62828" transform="rotate(20 30 45)"/>` +
    `<text x="30" y="51" font-size="15" font-weight="bold" text-anchor="middle" fill="#fdd835" ` +
    `font-family="sans-serif" transform="rotate(-20 30 45)">UNO</text>`;
  return svg;
}

const ORDER = "RYGBW";
const RANKS = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "S", "R", "+2", "", "+4"];
function sortKey(token) {
  const letter = token[0] === "W" ? "W" : token[0];
  return ORDER.indexOf(letter) * 100 + RANKS.indexOf(token[0] === "W" ? token.slice(1) : token.slice(1));
}

const sorted = () => localStorage.getItem("unomas:sort") !== "0";

// Arrows move between the hand's cards (Home and End: its ends), as the terminal's cursor does.
export function setUpHandKeys() {
  const steps = { ArrowLeft: -1, ArrowUp: -1, ArrowRight: 1, ArrowDown: 1, Home: -Infinity, End: Infinity };
  $("#hand").addEventListener("keydown", (event) => {
    const step = steps[event.key];
    const cards = [...$("#hand").querySelectorAll(".card")];
    const at = cards.indexOf(event.target);
    if (step === undefined || at < 0 || event.ctrlKey || event.metaKey || event.altKey) return;
    event.preventDefault();
    cards[Math.max(0, Math.min(cards.length - 1, at + step))].focus();
  });
}

export function setUpSort() {
  const button = $("#sort");
  const show = () => {
    button.setAttribute("aria-pressed", String(sorted()));
    button.textContent = _("Sort by colour");
  };
  button.addEventListener("click", () => {
    localStorage.setItem("unomas:sort", sorted() ? "0" : "1");
    show();
    renderHand();
  });
  show();
}

// The hand: each card a button named by the card; a playable one plays it (asking for a
// colour or a target when the play needs one), the others say they cannot be played now.
export function renderHand() {
  const view = state.view;
  if (!view) return;
  const plays = view.legal_actions.filter((m) => m.a === "play");
  const hand = view.hand.map((token, index) => ({ token, index }));
  if (sorted()) hand.sort((a, b) => sortKey(a.token) - sortKey(b.token) || a.index - b.index);
  const box = $("#hand");
  box.setAttribute("aria-label", _("Your hand"));
  box.replaceChildren(...hand.map(({ token }, position) => {
    const options = plays.filter((m) => m.card === token);
    const button = el("button", { type: "button", className: `card${options.length ? " playable" : ""}` });
    button.dataset.key = `${token}#${hand.slice(0, position).filter((c) => c.token === token).length}`;
    button.dataset.card = token;
    const name = cardName(token) + (token === view.drawn && view.phase === "drawn" ? `, ${_("just drawn")}` : "");
    button.setAttribute("aria-label", name);
    button.title = name;
    if (!options.length) button.setAttribute("aria-disabled", "true");
    button.append(cardSvg(token));
    button.addEventListener("click", () => { if (options.length) choosePlay(options, button); });
    return button;
  }));
  $("#hand-count").textContent = view.seat === null ? "" : _("Your hand: {n}", { n: view.hand.length });
}

function choosePlay(options, button) {
  const who = names();
  const uno = state.sayUno && options.some((m) => m.uno);
  const moves = options.filter((m) => Boolean(m.uno) === uno);
  const ply = state.view.ply;  // the view the choices come from, even if another arrives meanwhile
  const finish = (chosen) => {
    closeDialog();
    if (button.isConnected) button.focus({ preventScroll: true });  // (the dialog gave the focus back to it, or to nothing)
    state.sayUno = false;
    if (act(chosen, ply)) fly(button);
  };
  const pickTarget = (list) => {
    const targets = list.filter((m) => m.target !== undefined);
    if (!targets.length) return finish(list[0]);
    const choices = targets.map((m) => {
      const choice = el("button", { type: "button" }, who[m.target]);
      choice.addEventListener("click", () => finish(m));
      return choice;
    });
    const onward = list.find((m) => m.target === undefined);  // same_number_together: a 7 going on to another
    if (onward) {
      const choice = el("button", { type: "button" }, _("Nobody yet: another 7 follows"));
      choice.addEventListener("click", () => finish(onward));
      choices.push(choice);
    }
    dialog(_("Swap hands with"), choices);
  };
  if (moves.some((m) => m.color)) {
    dialog(_("Choose a colour"), colorButtons(moves, (m) => pickTarget([m])), _("The colour play goes on in."));
  } else pickTarget(moves);
}

export function colorButtons(moves, then = act) {
  return moves.map((move) => {
    const button = el("button", { type: "button", className: `pick pick-${COLORS[move.color]}` },
      shapes() ? el("span", { ariaHidden: "true" }, `${SHAPE_CHAR[move.color]} `) : null, colorName(move.color));
    button.dataset.a = move.a;
    button.addEventListener("click", () => then(move));
    return button;
  });
}

// A played card travels from the hand to the discard pile (not when motion is unwelcome).
function fly(button) {
  const target = $("#discard");
  if (!button.isConnected || !target || calm()) return;
  const from = button.getBoundingClientRect(), to = target.getBoundingClientRect();
  const ghost = el("div", { className: "ghost" });
  ghost.append(cardSvg(button.dataset.card));
  Object.assign(ghost.style, { left: `${from.left}px`, top: `${from.top}px`, width: `${from.width}px`, height: `${from.height}px` });
  document.body.append(ghost);
  ghost.animate([{ transform: "none" }, { transform: `translate(${to.left - from.left}px, ${to.top - from.top}px)` }],
    { duration: 260, easing: "ease-out" }).finished.then(() => ghost.remove(), () => ghost.remove());
}
