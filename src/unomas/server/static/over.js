// The end of a match: a podium, the last round's points counted card by card (the cards and
// their points as the server sends them), the standings with every round's scores, the
// record with its revealed seed, and "Play again": a rematch each player opts in to.
import { state, $, el, names } from "./state.js";
import { _, ngettext, cardName } from "./words.js";
import { cardSvg } from "./hand.js";
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
    el("tbody", {}, ...order.map((seat) => el("tr", { className: state.over.winners.includes(seat) ? "winner" : "" },
      el("th", { scope: "row" }, who[seat]),
      ...rounds.map((r) => el("td", {}, r.winner === seat ? `+${r.points}` : "·")),
      el("td", {}, String(scores[seat])))))));
  return box;
}

// The first three by score, on steps: the winner in the middle and highest.
function podium(scores) {
  const who = names();
  const order = scores.map((score, seat) => seat).sort((a, b) => scores[b] - scores[a] || a - b).slice(0, 3);
  const box = el("ol", { className: "podium" }, ...order.map((seat, place) => el("li", { className: `place-${place + 1}` },
    el("span", { className: "who" }, who[seat]),
    el("span", { className: "step" }, el("span", { className: "place" }, String(place + 1)),
      el("span", { className: "points" }, ngettext("{n} point", "{n} points", scores[seat]))))));
  box.setAttribute("aria-label", _("Podium"));
  return box;
}

// The points of a round, counted card by card: each hand left, each card with what it scores.
function counted(round) {
  const who = names();
  const rows = round.hands.map((hand, seat) => [seat, hand]).filter(([, hand]) => hand.length);
  let i = 0;
  return el("section", { className: "counted" },
    el("h3", {}, _("{name} takes {n} points from the hands left:", { name: who[round.winner], n: round.points })),
    el("ul", {}, ...rows.map(([seat, hand]) => el("li", {},
      el("span", { className: "who" }, who[seat]),
      el("span", { className: "cards" }, ...hand.map(([token, points]) => {
        const card = el("span", { className: "count-card", role: "img" }, cardSvg(token), el("span", { className: "pts" }, `+${points}`));
        card.setAttribute("aria-label", _("{card}: {n} points", { card: cardName(token), n: points }));
        card.style.setProperty("--i", String(i++));
        return card;
      })),
      el("span", { className: "sum" }, `= ${hand.reduce((sum, [, points]) => sum + points, 0)}`)))));
}

export function renderOver() {
  const over = state.over, room = state.room;
  if (!over || !room) return;
  const who = names();
  const banner = over.reason === "abandoned" ? _("Match over: everyone had left, nobody wins.")
    : over.winner == null ? _("Match over: it ran too long, nobody wins ({n} actions).", { n: over.limit })
    : over.winners.length > 1 ? (over.winners.includes(room.you) ? _("Your team wins the match!")
      : _("{names} win the match!", { names: over.winners.map((seat) => who[seat]).join(" + ") }))
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
    over.winner == null ? null : podium(over.scores),
    rounds.length && rounds[rounds.length - 1].hands ? counted(rounds[rounds.length - 1]) : null,
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
