// Sounds made with WebAudio (no files to download), a mute switch the browser remembers,
// and the turn cue: the tab's title, and a short vibration on phones.
import { $ } from "./state.js";
import { _ } from "./words.js";

let audio = null;
let muted = localStorage.getItem("unomas:mute") === "1";

const TUNES = {  // [frequency Hz, start s, length s]
  card: [[520, 0, 0.07]], draw: [[300, 0, 0.08], [260, 0.07, 0.08]], turn: [[660, 0, 0.1], [880, 0.1, 0.14]],
  uno: [[880, 0, 0.1], [1175, 0.1, 0.2]], win: [[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.3]],
  timeout: [[220, 0, 0.25]], react: [[740, 0, 0.06]],
};

export function play(name) {
  if (muted || !TUNES[name] || !window.AudioContext) return;
  audio = audio || new AudioContext();
  if (audio.state === "suspended") audio.resume();  // (browsers start it only after a click)
  const now = audio.currentTime;
  for (const [frequency, start, length] of TUNES[name]) {
    const tone = audio.createOscillator(), gain = audio.createGain();
    tone.frequency.value = frequency;
    gain.gain.setValueAtTime(0.0001, now + start);
    gain.gain.exponentialRampToValueAtTime(0.15, now + start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, now + start + length);
    tone.connect(gain).connect(audio.destination);
    tone.start(now + start);
    tone.stop(now + start + length + 0.02);
  }
}

export function showMute() {
  const button = $("#mute");
  button.setAttribute("aria-pressed", String(muted));
  button.innerHTML = `<svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">` +
    `<path d="M3 9v6h4l5 4V5L7 9H3z" fill="currentColor"/>` +
    (muted ? `<path d="M16 9l6 6M22 9l-6 6" stroke="currentColor" stroke-width="2"/>`
      : `<path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" stroke="currentColor" stroke-width="2" fill="none"/>`) +
    `</svg>`;
  button.setAttribute("aria-label", _("Mute sounds"));
  button.title = _("Mute sounds");
}

export function setUpMute() {
  $("#mute").addEventListener("click", () => {
    muted = !muted;
    localStorage.setItem("unomas:mute", muted ? "1" : "0");
    showMute();
  });
  showMute();
}

let wasMyTurn = false;

// The tab's title says when it is your turn; the moment it becomes so, a sound and a buzz.
export function turnCue(myTurn) {
  document.title = myTurn ? `● ${_("Your turn")} — unomas` : "unomas";
  if (myTurn && !wasMyTurn) {
    play("turn");
    if (navigator.vibrate) navigator.vibrate(120);
  }
  wasMyTurn = myTurn;
}
