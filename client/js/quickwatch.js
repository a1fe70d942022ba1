// Practise while waiting: a player in the quick race's queue may open practice; this keeps
// asking the server where they are (which keeps their place, as the queue page does) and,
// once a race is found, calls them with a notice and a button into the room (the room waits
// 20 s for its matched racers: docs/rules.md "Quick races and ratings"). The server decides
// everything; this only asks and shows.

import { clock, h } from "./dom.js";
import * as api from "./api.js";
import { notifyAway } from "./notify.js";
import { presetLabel } from "./presets.js";

const POLL_MS = 1500;
let watching = null; // {preset, timer, banner, room}

/** Keep the player's place in `preset`'s queue while they practise; the first ask waits
 * for `joined` (the queue page's join, which may still be on its way). */
export function watchWhilePractising(preset, joined = Promise.resolve()) {
  stopWatching(false);
  const banner = h("div.queue-watch", { role: "status", "aria-live": "polite", dataset: { queue: "watch" } });
  document.body.append(banner);
  watching = { preset, timer: null, banner, room: null };
  draw(`Waiting for a ${presetLabel(preset)} race while you practise…`);
  const w = watching;
  joined.finally(() => { if (watching === w) poll(); });
}

/** Stop asking; `leave`: also leave the queue (the player went elsewhere). */
export function stopWatching(leave) {
  if (!watching) return;
  clearTimeout(watching.timer);
  watching.banner.remove();
  const placed = watching.room !== null;
  watching = null;
  if (leave && !placed) api.quickLeave().catch(() => {});
}

/** The router's hook: practice keeps the wait; the queue page takes it over; the room
 * found is where the player was called; anywhere else leaves the queue. */
export function routeChanged(name, arg) {
  if (!watching || name === "practice") return;
  stopWatching(!(name === "quick" || (name === "r" && arg === watching.room)));
}

function draw(text, room = null) {
  const w = watching;
  w.banner.replaceChildren(h("span", { text }),
    room
      ? h("a.btn.primary", { href: `#/r/${room}`, dataset: { action: "go-race" } }, "Go to the race")
      : h("button.btn.small", { type: "button", dataset: { action: "leave-queue" }, onclick: () => stopWatching(true) }, "Leave the queue"));
}

async function poll() {
  const w = watching;
  if (!w) return;
  let status = null;
  try {
    status = await api.quickStatus();
  } catch {
    status = null; // a failed ask: asked again shortly
  }
  if (watching !== w) return;
  if (status && !status.queued) {
    draw(status.message || "You are no longer in the queue.");
    w.timer = setTimeout(() => stopWatching(false), 6000);
    return;
  }
  if (status?.room) {
    w.room = status.room;
    draw("Racers found! Your race starts within 20 seconds.", status.room);
    notifyAway("Racers found: your quick race is ready");
    return;
  }
  if (status) {
    const others = status.waiting - 1;
    draw(`Waiting for a ${presetLabel(w.preset)} race: ${others === 0 ? "nobody else yet" : `${others} other${others === 1 ? "" : "s"} waiting`}, ${clock(status.waited)} so far.`);
  }
  w.timer = setTimeout(poll, POLL_MS);
}
