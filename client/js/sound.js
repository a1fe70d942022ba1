// Sounds (issue 23), made with the Web Audio API (no files): a card placed, a run removed,
// the stock dealt, the countdown and the go, a win. On by default; the mute is remembered.
// Never while the tab is hidden unless the player asked for sounds in the background.
// Each sound played is also dispatched as a "scorpion:sound" event (name in detail).

import { h } from "./dom.js";

const MUTE_KEY = "scorpion.muted";
const AWAY_KEY = "scorpion.sound"; // "on": sounds also while the tab is hidden (the lobby's box)

export const SOUNDS = {
  place: "a card placed: a short soft click",
  run: "a run removed: a rising four-note chime",
  deal: "the stock dealt: three quick clicks",
  countdown: "the countdown: a short beep",
  go: "the start: a higher, longer beep",
  win: "a win: a bright six-note fanfare",
};

let audio = null;

export function muted() { return localStorage.getItem(MUTE_KEY) === "on"; }
export function awayAllowed() { return localStorage.getItem(AWAY_KEY) === "on"; }

export function setMuted(on) {
  localStorage.setItem(MUTE_KEY, on ? "on" : "off");
  for (const b of document.querySelectorAll("[data-action=mute]")) syncButton(b);
}

function context() {
  const Ctx = window.AudioContext || window.webkitAudioContext;
  if (!audio && Ctx) audio = new Ctx();
  return audio;
}

// Browsers start audio only after a gesture: the first click or key unlocks it.
for (const type of ["pointerdown", "keydown"]) {
  document.addEventListener(type, () => { if (!muted()) context()?.resume?.().catch(() => {}); }, { capture: true, passive: true });
}

function tone(ctx, at, freq, length, { type = "sine", volume = 0.12 } = {}) {
  const osc = ctx.createOscillator();
  const gain = ctx.createGain();
  osc.type = type;
  osc.frequency.setValueAtTime(freq, at);
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume, at + 0.008);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  osc.connect(gain).connect(ctx.destination);
  osc.start(at);
  osc.stop(at + length + 0.02);
}

function click(ctx, at, volume = 0.2) {
  // A card on felt: a very short band of noise.
  const length = 0.04;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / data.length) ** 3;
  const src = ctx.createBufferSource();
  const filter = ctx.createBiquadFilter();
  const gain = ctx.createGain();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  gain.gain.value = volume;
  src.buffer = buffer;
  src.connect(filter).connect(gain).connect(ctx.destination);
  src.start(at);
}

const SCORES = {
  place: (ctx, t) => click(ctx, t),
  deal: (ctx, t) => { click(ctx, t); click(ctx, t + 0.09); click(ctx, t + 0.18); },
  run: (ctx, t) => [523, 659, 784, 1047].forEach((f, i) => tone(ctx, t + i * 0.08, f, 0.25, { type: "triangle" })),
  countdown: (ctx, t) => tone(ctx, t, 660, 0.15, { type: "square", volume: 0.05 }),
  go: (ctx, t) => tone(ctx, t, 990, 0.4, { type: "square", volume: 0.06 }),
  win: (ctx, t) => [523, 659, 784, 1047, 784, 1047].forEach((f, i) => tone(ctx, t + i * 0.12, f, i === 5 ? 0.7 : 0.2, { type: "triangle", volume: 0.14 })),
};

/** Play a sound by name (see SOUNDS), unless muted, or hidden without the player's leave. */
export function play(name) {
  if (!SCORES[name] || muted()) return false;
  if (document.hidden && !awayAllowed()) return false;
  document.dispatchEvent(new CustomEvent("scorpion:sound", { detail: name }));
  const ctx = context();
  if (!ctx || ctx.state === "closed") return true;
  try {
    SCORES[name](ctx, ctx.currentTime + 0.01);
  } catch { /* no audio device: the game goes on in silence */ }
  return true;
}

function syncButton(b) {
  const off = muted();
  b.setAttribute("aria-pressed", String(off));
  b.textContent = "Mute";
  b.title = off ? "Sounds are muted: click to turn them on" : "Click to mute the sounds";
}

/** The mute button for a game's toolbar. */
export function muteButton() {
  const b = h("button.btn.small.mute", { type: "button", dataset: { action: "mute" }, onclick: () => setMuted(!muted()) });
  syncButton(b);
  return b;
}
