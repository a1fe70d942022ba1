// A tab in the background still says what happened: the countdown started, a friend joined.
// The tab title tells (until the tab is looked at again), and a short beep if the player
// turned the sound on (off by default; the browser allows it only after a click).

const SOUND_KEY = "scorpion.sound";
const BASE_TITLE = "Scorpion Race";
let audio = null;
let seenTitle = null; // the page's own title while the tab is away

export function soundOn() {
  return localStorage.getItem(SOUND_KEY) === "on";
}

/** Turn the sound on or off (call from a click: it also unlocks audio for the page). */
export function setSound(on) {
  localStorage.setItem(SOUND_KEY, on ? "on" : "off");
  if (on) context()?.resume?.().catch(() => {});
}

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!audio && Ctx) audio = new Ctx();
  return audio;
}

function beep() {
  const ctx = context();
  if (!ctx) return;
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.frequency.value = 880;
  gain.gain.setValueAtTime(0.12, ctx.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.25);
  osc.connect(gain).connect(ctx.destination);
  osc.start();
  osc.stop(ctx.currentTime + 0.25);
}

/** Say `text` in the tab title (and beep) when the page is hidden; nothing when it is seen. */
export function notifyAway(text) {
  if (!document.hidden) return;
  if (seenTitle === null) seenTitle = document.title;
  document.title = `${text} · ${BASE_TITLE}`;
  if (soundOn()) beep();
}

document.addEventListener("visibilitychange", () => {
  if (!document.hidden && seenTitle !== null) {
    document.title = seenTitle;
    seenTitle = null;
  }
});
