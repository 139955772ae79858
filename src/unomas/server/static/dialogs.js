// Modal dialogs (<dialog>: the browser keeps the focus inside, Escape closes it, and the
// focus goes back where it was) and the summary of a round.
import { $, el, names } from "./state.js";
import { _, ngettext } from "./words.js";

export function dialog(title, buttons, text = null) {
  const cancel = el("button", { type: "button" }, _("Cancel"));
  cancel.addEventListener("click", closeDialog);
  // (replaceChildren would write a missing explanation as the word "null")
  $("#dialog-body").replaceChildren(el("h2", { id: "dialog-title" }, title), ...(text ? [el("p", {}, text)] : []),
    el("div", { className: "choices" }, ...buttons), cancel);
  showDialog(buttons[0]);
}

// The server holds no more rooms (room.capacity): a panel that says so, counts down and asks
// again by itself (rooms free up as matches end), or at once with its button.
const FULL_RETRY = 30;
export function serverFull(retry) {
  const again = el("button", { type: "button" }, _("Try again now"));
  dialog(_("The server is full"), [again],
    _("Every room on this server is in use. Rooms free up as matches end, so this page will ask again by itself."));
  let left = FULL_RETRY;
  const count = el("p", { className: "small", role: "status" }, _("Asking again in {n} s.", { n: left }));
  $("#dialog-body p").after(count);
  const timer = setInterval(() => {
    left -= 1;
    count.textContent = _("Asking again in {n} s.", { n: left });
    if (left <= 0) { closeDialog(); retry(); }
  }, 1000);
  $("#dialog").addEventListener("close", () => clearInterval(timer), { once: true });
  again.addEventListener("click", () => { closeDialog(); retry(); });
}

function showDialog(focus) {
  const box = $("#dialog");
  if (!box.open) box.showModal();
  focus.focus();
}

export function closeDialog() { if ($("#dialog").open) $("#dialog").close(); }

function scoresTable(scores, caption) {
  const who = names();
  return el("table", { className: "scores" }, el("caption", {}, caption),
    el("thead", {}, el("tr", {}, el("th", { scope: "col" }, _("Player")), el("th", { scope: "col" }, _("Score")))),
    el("tbody", {}, ...scores.map((score, seat) => el("tr", {},
      el("th", { scope: "row" }, who[seat]), el("td", {}, String(score))))));
}

export function roundSummary(event) {
  const ok = el("button", { type: "button" }, _("OK"));
  ok.addEventListener("click", closeDialog);
  $("#dialog-body").replaceChildren(el("h2", { id: "dialog-title" }, _("Round over")),
    el("p", {}, ngettext("{player} wins the round and scores {n} point.", "{player} wins the round and scores {n} points.",
      event.points, { player: names()[event.winner] })),
    scoresTable(event.scores, _("Scores")), ok);
  showDialog(ok);
}
