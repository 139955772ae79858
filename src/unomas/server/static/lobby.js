// The pages before a match: creating a room (presets, house rules, bots), joining one by
// its code or link, and the lobby where the players gather.
import { state, $, el } from "./state.js";
import { _, rulesSummary } from "./words.js";
import { post } from "./net.js";

// The house-rule switches as the server lists them: grouped, each with its title and a
// one-line explanation tied to the box; at first the official rules' ones are on.
export function buildSwitches() {
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
      input.dataset.official = rule.official ? "1" : "";
      input.setAttribute("aria-describedby", help.id);
      input.addEventListener("change", markPreset);
      set.append(el("div", { className: "switch" }, el("label", {}, input, " ", rule.title), help));
    }
    box.append(set);
  }
  buildBotSeats();
  buildBotChoice();
  markPreset();
}

// The presets the terminal offers too, as the server gives them (a house rule at its default
// left out): the official rules, every house rule on, the family's and chaos.
const NUMBERS = { uno_penalty: 2, hand_limit: 0, elimination: 0 };

function applyPreset(name) {
  const rules = state.presets[name];
  for (const input of $("#switches").querySelectorAll("input[type=checkbox]")) input.checked = Boolean(rules[input.name]);
  const form = $("#create-form");
  for (const [field, usual] of Object.entries(NUMBERS)) form[field].value = String(rules[field] ?? usual);
  markPreset();
}

function markPreset() {
  const boxes = [...$("#switches").querySelectorAll("input[type=checkbox]")];
  const form = $("#create-form");
  const fits = (rules) => boxes.every((i) => i.checked === Boolean(rules[i.name]))
    && Object.entries(NUMBERS).every(([field, usual]) => Number(form[field].value) === (rules[field] ?? usual));
  const chosen = Object.keys(state.presets).find((name) => fits(state.presets[name])) || "custom";
  for (const radio of document.querySelectorAll("#presets input")) radio.checked = radio.value === chosen;
}

function buildBotChoice() {
  const select = $("#create-form").bot;
  const chosen = select.value || "heuristic";
  select.replaceChildren(...state.bots.map((bot) => el("option", { value: bot.spec, textContent: `${bot.label} · ${bot.slips}` })));
  select.value = chosen;
}

// The seats a bot may play, and those kept for programs (`unomas bot --join`), numbered from
// 1 as the lobby numbers them (seat 1 is yours). A seat is one or the other: checking one
// box clears the seat's other.
function buildBotSeats() {
  const players = Math.max(2, Math.min(10, Number($("#create-form").players.value) || 2));
  const boxes = { "#bot-seats": _("Seats played by bots"), "#program-seats": _("Seats kept for programs") };
  for (const [id, legend] of Object.entries(boxes)) {
    const box = $(id);
    const checked = new Set([...box.querySelectorAll("input:checked")].map((i) => Number(i.value)));
    box.replaceChildren(el("legend", {}, legend));
    for (let seat = 1; seat < players; seat++) {
      const input = el("input", { type: "checkbox", value: seat, checked: checked.has(seat) });
      input.addEventListener("change", () => {
        if (!input.checked) return;
        const other = $(id === "#bot-seats" ? "#program-seats" : "#bot-seats").querySelector(`input[value="${seat}"]`);
        if (other) other.checked = false;
      });
      box.append(el("label", {}, input, " ", _("Seat {n}", { n: seat + 1 })));
    }
  }
}

const checkedSeats = (id) => [...$(id).querySelectorAll("input:checked")].map((i) => Number(i.value));

export async function createRoom(event, then) {
  event.preventDefault();
  const form = event.target;
  const rules = { players: Number(form.players.value), target_score: Number(form.target_score.value),
    hand_size: Number(form.hand_size.value), uno_penalty: Number(form.uno_penalty.value),
    hand_limit: Number(form.hand_limit.value), elimination: Number(form.elimination.value), teams: form.teams.value };
  for (const input of $("#switches").querySelectorAll("input[type=checkbox]")) rules[input.name] = input.checked;
  const room = await post("/api/rooms", { name: form.name.value, rules, bots: checkedSeats("#bot-seats"),
    programs: checkedSeats("#program-seats"), bot: form.bot.value, turn_seconds: Number(form.turn_seconds.value),
    window: Number(form.window.value) });
  localStorage.setItem(`unomas:${room.code}`, room.token);
  localStorage.setItem("unomas:name", form.name.value);
  history.pushState(null, "", `/r/${room.code}`);
  then();
}

// One tap to play: the person (by the name they last gave) and three bots, official rules;
// the lobby starts the match as soon as it opens.
export async function quickPlay(then) {
  const name = localStorage.getItem("unomas:name") || _("Player");
  const room = await post("/api/rooms", { name, rules: { players: 4 }, bots: [1, 2, 3] });
  localStorage.setItem(`unomas:${room.code}`, room.token);
  state.startNow = room.code;
  history.pushState(null, "", `/r/${room.code}`);
  then();
}

// A room code as typed or pasted: a whole link, spaces, lower case, all read the same.
export function readCode(text) {
  const link = text.trim().match(/\/r\/([A-Za-z0-9]+)\/?$/);
  return (link ? link[1] : text).replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}

export function setUpHome() {
  const form = $("#create-form");
  form.players.addEventListener("input", buildBotSeats);
  form.name.value = localStorage.getItem("unomas:name") || "";
  // Where there is room, the full form shows at once; on a phone it is one tap away.
  $("#create-box").open = window.matchMedia("(min-width: 48rem)").matches;
  for (const radio of document.querySelectorAll("#presets input")) {
    radio.addEventListener("change", () => { if (radio.value !== "custom") applyPreset(radio.value); });
  }
  for (const field of Object.keys(NUMBERS)) form[field].addEventListener("input", markPreset);
}

function seatList(room, list) {
  list.replaceChildren(...room.seats.map((seat, i) => {
    const tags = [];
    if (seat && seat.bot) tags.push(_("bot"));
    if (seat && seat.program) tags.push(_("program"));
    if (!seat && (room.programs || []).includes(i)) tags.push(_("kept for a program"));
    if (i === room.you) tags.push(_("you"));
    if (i === room.host) tags.push(_("host"));
    if (seat && !seat.bot && !seat.connected) tags.push(_("not here"));
    return el("li", {}, el("span", { className: "seat-no" }, _("Seat {n}", { n: i + 1 })), " ",
      el("strong", {}, seat ? seat.name : _("(empty seat)")),
      ...tags.map((tag) => el("span", { className: "tag" }, tag)));
  }));
}

function summary(room, box) {
  box.replaceChildren(...rulesSummary(room).map((line) => el("li", {}, line)));
}

// The join page: who is in already and the rules, before giving a name.
export function renderJoin(info) {
  seatList(info, $("#join-seats"));
  summary(info, $("#join-rules"));
  const full = info.seats.every((seat) => seat);
  $("#join-full").hidden = !full;
  $("#join-form").hidden = full;
  $("#join-form").name.value = $("#join-form").name.value || localStorage.getItem("unomas:name") || "";
}

export function renderLobby() {
  const room = state.room;
  for (const node of document.querySelectorAll(".code")) node.textContent = room.code;
  $("#link").value = `${location.origin}/r/${room.code}`;
  seatList(room, $("#lobby-seats"));
  summary(room, $("#lobby-rules"));
  $("#start").hidden = room.you !== room.host;
  $("#waiting").hidden = room.you === room.host;
}

export function setUpLobby() {
  $("#copy").addEventListener("click", async () => {
    $("#link").select();
    let done = false;
    try { await navigator.clipboard.writeText($("#link").value); done = true; } catch { done = document.execCommand("copy"); }
    $("#copied").textContent = done ? _("Link copied.") : _("Select the link and copy it.");
    setTimeout(() => { $("#copied").textContent = ""; }, 3000);
  });
}
