// The quick race's queue: join a rule set's queue, say how many wait and for how long, leave;
// called into the room once the server formed one. The server decides everything (who races
// whom, when); this page asks where you are every 1.5 s, which also keeps your place.

import { clock, h } from "../dom.js";
import * as api from "../api.js";
import { PRESETS, presetLabel } from "../presets.js";
import { watchWhilePractising } from "../quickwatch.js";

const POLL_MS = 1500;

/** A "Race anyone now" link for `preset` (home, and after every result). */
export function raceAnyoneLink(preset, text = "Race anyone now") {
  return h("a.btn.primary", { href: `#/quick/${encodeURIComponent(preset || "classic")}`, dataset: { action: "quick" } }, text);
}

export function mountQuick(ctx, preset) {
  const { root, go } = ctx;
  const waiting = h("p.quick-count", { dataset: { quick: "waiting" }, "aria-live": "polite" }, "Joining the queue…");
  const waited = h("p.muted", { dataset: { quick: "waited" } });
  const how = h("p.muted", { dataset: { quick: "how" } });
  const error = h("p.error-text", { role: "alert" });
  const leave = h("button.btn", { type: "button", dataset: { action: "leave-queue" }, onclick: leaveQueue }, "Leave the queue");
  const again = h("button.btn.primary", { type: "button", hidden: true, onclick: () => { again.hidden = true; start(); } }, "Try again");
  const panel = h("section.panel.stack.quick-panel", { "aria-labelledby": "quick-h" },
    h("h1", { id: "quick-h", text: `Finding racers: ${presetLabel(preset)}` }),
    h("div.spinner", { "aria-hidden": "true" }),
    waiting, waited, how, error,
    h("p.muted", { text: "Quick races are fair: fair undo, no hints, no Auto, a deal the solver proved winnable where it can." }),
    h("div.row", {}, again, leave, h("a.btn", { href: `#/practice/${encodeURIComponent(preset)}`, dataset: { action: "practise-waiting" }, onclick: practiseWhileWaiting }, "Practise while waiting")));
  root.append(panel);

  let timer = null;
  let placed = false; // called into a room (or left): nothing to leave on the way out
  let stopped = false;

  function show(status) {
    if (!status.queued) {
      waiting.textContent = "You are not in the queue.";
      waited.textContent = "";
      if (status.left === "in-race") { // racing in a room (another tab): one race at a time
        placed = true;
        how.textContent = "";
        error.textContent = status.message;
      }
      return;
    }
    if (status.room) {
      placed = true;
      waiting.textContent = "Racers found: to the room!";
      go(`#/r/${status.room}`);
      return;
    }
    const n = status.waiting;
    waiting.textContent = n === 1 ? "You are the only one waiting for now." : `${n} players waiting, you included.`;
    waited.textContent = `You have waited ${clock(status.waited)}.`;
    how.textContent = `A race starts as soon as ${status.room_size} are here, or after ${Math.round(status.short_wait)} s with at least ${status.min_racers}. You may keep waiting as long as you like.`;
    if (status.full) how.textContent = "This queue is full: you keep your place.";
  }

  function fail(err) {
    const code = err.code;
    if (code === "in-race" || code === "already-queued" || code === "queue-full") {
      error.textContent = err.message;
      if (code === "queue-full") again.hidden = false;
      return true;
    }
    error.textContent = err.message || "The queue cannot be reached.";
    return false;
  }

  async function poll() {
    if (stopped) return;
    try {
      show(await api.quickStatus());
    } catch (err) {
      fail(err);
    }
    if (!stopped && !placed) timer = setTimeout(poll, POLL_MS);
  }

  async function start() {
    error.textContent = "";
    if (!PRESETS[preset]) {
      error.textContent = `There is no rule set called ${preset}.`;
      return;
    }
    try {
      show(await api.quickJoin(preset));
    } catch (err) {
      fail(err);
      if (err.code !== "already-queued") return;
    }
    if (!placed) timer = setTimeout(poll, POLL_MS);
  }

  // Practice while waiting: the wait goes on (quickwatch.js asks for it, once the join is
  // answered: asked before, the queue would not have the player yet) and calls you back.
  function practiseWhileWaiting() {
    placed = true; // not left on the way out
    stopped = true;
    clearTimeout(timer);
    watchWhilePractising(preset, joining);
  }

  async function leaveQueue() {
    placed = true;
    stopped = true;
    clearTimeout(timer);
    await api.quickLeave().catch(() => {});
    go("#/");
  }

  const joining = start();
  return () => {
    stopped = true;
    clearTimeout(timer);
    // Going elsewhere in the app leaves the queue; a reload or a closed tab stops asking,
    // and the server lets the place go after 30 s of silence.
    if (!placed) api.quickLeave().catch(() => {});
  };
}
