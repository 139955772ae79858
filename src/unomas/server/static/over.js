// The end of a match: the winner, the standings with every round's scores, the record with
// its revealed seed, and "Play again": a rematch each player opts in to.
import { state, $, el, names } from "./state.js";
import { _, ngettext } from "./words.js";
import { send } from "./net.js";
import { play } from "./sound.js";

function standings(rounds, scores) {
  const who = names();
  const order = scores.map((score, seat) => seat).sort((a, b) => scores[b] - scores[a] || a - b);
  const box = el("div", { className: "scroll", tabIndex: 0, role: "region" });  // (it may scroll sideways on a phone)
  box.setAttribute("aria-label", _("Standings"));
  box.append(el("table", { className: "scores standings" },
    el("caption", {}, _("Standings")),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")),
      ...rounds.map((r) => el("th", { scope: "col" }, _("Round {n}", { n: r.round + 1 }))),
      el("th", { scope: "col" }, _("Total")))),
    el("tbody", {}, ...order.map((seat) => el("tr", { className: seat === state.over.winner ? "winner" : "" },
      el("th", { scope: "row" }, who[seat]),
      ...rounds.map((r) => el("td", {}, r.winner === seat ? `+${r.points}` : "·")),
      el("td", {}, String(scores[seat])))))));
  return box;
}

export function renderOver() {
  const over = state.over, room = state.room;
  if (!over || !room) return;
  const who = names();
  const banner = over.winner == null ? _("Match over: it ran too long, nobody wins ({n} actions).", { n: over.limit })
    : over.winner === room.you ? _("You win the match!") : _("{name} wins the match!", { name: who[over.winner] });
  const rounds = over.rounds || [];
  const people = room.seats.map((seat, i) => (seat && !seat.bot ? i : null)).filter((i) => i !== null);
  const waiting = people.filter((i) => !room.rematch.includes(i)).map((i) => who[i]);
  const again = el("button", { type: "button", id: "again", className: "big" }, _("Play again"));
  const mine = room.you !== null && room.rematch.includes(room.you);
  if (mine) again.setAttribute("aria-disabled", "true");
  again.addEventListener("click", () => { if (!mine) send({ type: "rematch" }); });
  const link = el("a", { href: over.record, download: `unomas-${state.code}.json` }, _("Download the record"));
  $("#over-body").replaceChildren(
    el("h2", { id: "over-banner", tabIndex: -1 }, banner),
    el("p", {}, ngettext("{n} round played.", "{n} rounds played.", rounds.length)),
    standings(rounds, over.scores),
    room.you === null ? null : again,
    el("p", { id: "rematch-status", role: "status" }, room.you === null ? ""
      : mine ? _("You are in. Still to say yes: {names}.", { names: waiting.join(", ") })
        : room.rematch.length ? ngettext("{n} player wants a rematch.", "{n} players want a rematch.", room.rematch.length) : ""),
    el("p", {}, link));
}

export function matchOver(message, fresh) {
  state.over = message;
  $("#over").hidden = false;
  renderOver();
  if (fresh) {
    play("win");
    $("#over-banner").focus();
  }
}
