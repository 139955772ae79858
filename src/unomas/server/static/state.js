// What the page knows, shared by its modules, and two small DOM helpers.
// The server decides everything: the page shows the views it sends and offers exactly
// their legal actions.

export const state = {
  lang: "en", catalog: {}, switches: [], errors: {}, bots: [],
  code: null, token: null, room: null, view: null, over: null,
  sayUno: false, turnLeft: null, turnAt: 0, presence: {}, letGoAt: null,
  watching: null,  // why this page watches: "full", "started" or "chose" (null: it holds a seat, or does not know)
  startNow: null,  // the code of a room to start as soon as its lobby opens (one-tap play)
};

export const $ = (selector) => document.querySelector(selector);

export function el(tag, props = {}, ...children) {
  const node = Object.assign(document.createElement(tag), props);
  for (const child of children) if (child !== null && child !== undefined && child !== false) node.append(child);
  return node;
}

// The seats' names, from the room (an empty seat by its number, counted from 1).
export function names() {
  const seats = state.room ? state.room.seats : [];
  return seats.map((seat, i) => (seat ? seat.name : String(i + 1)));
}

// Whether motion is welcome (the system's reduced-motion setting is respected).
export const calm = () => window.matchMedia("(prefers-reduced-motion: reduce)").matches;

// Whether the seat has an out-of-turn chance (a catch, a late UNO, a jump-in) it has not let
// go: the server's bots wait the room's window for it.
export const chanceOpen = (view) => view.seat !== null && view.current !== view.seat
  && view.legal_actions.length > 0 && state.letGoAt !== view.ply;
