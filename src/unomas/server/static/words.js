// The page's words come from the gettext catalogs the terminal game uses too (served as
// {msgid: text}); the names are gettext's, so `pybabel extract` finds every message here.
import { state, $, names } from "./state.js";

const fmt = (text, values = {}) => text.replace(/\{(\w+)\}/g, (field, key) => (key in values ? values[key] : field));
export const _ = (id, values) => fmt(state.catalog[id] || id, values);
const pgettext = (context, id, values) => fmt(state.catalog[`${context}\u0004${id}`] || id, values);
export const ngettext = (singular, plural, n, values = {}) => {  // both languages: the plural form when n != 1
  const id = n === 1 ? singular : plural;
  return fmt(state.catalog[id] || id, { n, ...values });
};

// The words of a language, and the page's fixed texts (data-t) put in it.
export async function loadWords(lang) {
  const answer = await fetch(`/api/i18n/${lang}`).then((r) => r.json());
  Object.assign(state, { lang, catalog: answer.catalog, switches: answer.switches, errors: answer.errors, bots: answer.bots,
    presets: answer.presets });
  localStorage.setItem("unomas:lang", lang);
  document.documentElement.lang = lang;
  $("#lang").value = lang;
  for (const node of document.querySelectorAll("[data-t]")) node.textContent = _(node.dataset.t);
  for (const node of document.querySelectorAll("[data-t-label]")) node.setAttribute("aria-label", _(node.dataset.tLabel));
}

const SEAT_PARAMS = ["player", "current", "target", "seat", "challenger", "challenged"];

// A refusal in the reader's words, from its code and params ({code, params, message}, as the
// server sends it): the message itself is English, shown only for a code the page does not
// know (or a failure of the network). An error it wraps (cause_code) is worded too.
export function errorText(error) {
  const template = state.errors[error.code];
  if (!template) return error.message;
  const params = { ...(error.params || {}) };
  // A seat the server counts from 0 is said by its name (or its number from 1), as the page shows it.
  const who = names();
  for (const key of SEAT_PARAMS) {
    if (typeof params[key] === "number") params[key] = who[params[key]] ?? String(params[key] + 1);
  }
  if (params.cause_code) {
    params.cause = errorText({ code: params.cause_code, params: params.cause_params, message: params.cause });
  }
  return fmt(template, params);
}

// A colour's initial in the page's language (R, Am, V, Az in Spanish): on the colour
// buttons, and with a shape on the cards in the colour-blind mode.
export const initial = (letter) => ({ R: pgettext("colour initial", "R"), Y: pgettext("colour initial", "Y"),
  G: pgettext("colour initial", "G"), B: pgettext("colour initial", "B") }[letter]);

export function colorName(letter) {
  const color = { R: _("Red"), Y: _("Yellow"), G: _("Green"), B: _("Blue") }[letter];
  return _("{color} ({letter})", { color, letter: initial(letter) });
}

function rankName(token) {
  const rank = token.slice(1);
  if (token === "W") return _("Wild");
  if (token === "W+4") return _("Wild Draw Four");
  return { S: _("Skip"), R: _("Reverse"), "+2": _("Draw Two") }[rank] || rank;
}

export function cardName(token) {
  if (token[0] === "W") return _("{name} ({token})", { name: rankName(token), token });
  const color = { R: pgettext("in a card name", "Red"), Y: pgettext("in a card name", "Yellow"),
    G: pgettext("in a card name", "Green"), B: pgettext("in a card name", "Blue") }[token[0]];
  return _("{color} {rank} ({token})", { color, rank: rankName(token), token });
}

// The quick reactions: the server's fixed set, each an emoji and a phrase in the reader's words.
export const REACTIONS = ["good_game", "nice", "oops", "hurry", "thanks", "laugh", "wow", "uno"];
export function reactionText(reaction) {
  return {
    good_game: ["🤝", _("Good game!")], nice: ["👏", _("Nice one!")], oops: ["😬", _("Oops!")],
    hurry: ["⏳", _("Your move!")], thanks: ["🙏", _("Thanks!")], laugh: ["😂", _("Ha ha!")],
    wow: ["😮", _("Wow!")], uno: ["☝️", _("Watch out, UNO!")],
  }[reaction] || ["", reaction];
}

// The rules of a room in a few words: players, hand, target, timer, the house rules on.
export function rulesSummary(room) {
  const rules = room.rules;
  const lines = [
    _("Players: {n}", { n: rules.players }),
    _("Cards dealt: {n}", { n: rules.hand_size }),
    rules.target_score ? _("Plays to {n} points", { n: rules.target_score }) : _("One round"),
    room.turn_seconds ? _("Turn timer: {n} s", { n: room.turn_seconds }) : _("No turn timer"),
    _("{n} s to catch or jump in before a bot acts", { n: room.window }),
  ];
  const on = state.switches.flatMap((group) => group.switches).filter((rule) => rules[rule.name] && !rule.official)
    .map((rule) => rule.title);
  const off = state.switches.flatMap((group) => group.switches).filter((rule) => !rules[rule.name] && rule.official)
    .map((rule) => rule.title);
  if (on.length) lines.push(_("House rules on: {rules}", { rules: on.join(", ") }));
  if (off.length) lines.push(_("Official rules off: {rules}", { rules: off.join(", ") }));
  if (!on.length && !off.length) lines.push(_("Official rules"));
  if (rules.uno_penalty && rules.uno_penalty !== 2) lines.push(_("{n} cards for a missed UNO", { n: rules.uno_penalty }));
  if (rules.hand_limit) lines.push(_("at most {n} cards in hand", { n: rules.hand_limit }));
  if (rules.elimination) lines.push(_("out at {n} cards", { n: rules.elimination }));
  if (rules.teams && rules.teams !== "none") lines.push(teamsLabel(rules.teams));
  return lines;
}

// A value of the house rule `teams` in words (the terminal's words too).
export function teamsLabel(teams) {
  return { "2v2": _("Teams: 2 against 2"), "3v3": _("Teams: 3 against 3"), pairs: _("Teams: pairs") }[teams] || _("No teams");
}
