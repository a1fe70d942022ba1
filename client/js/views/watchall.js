// Watching every racer at once (a spectator's `follow "*"`, protocol.md section 3): every board
// side by side, masked by the server exactly as a followed board; a click on one enlarges it
// (the others shrink to a strip above it), as on a phone, where one is always large. The
// replay page's layout (css/replay.css), fed live from the room's `view` messages.

import { clear, h } from "../dom.js";
import { createGame } from "../game.js";
import { STATUS_WORDS } from "../roomstate.js";

const PHONE = "(max-width: 700px)";

export function createWatchAll({ rules, onStop }) {
  let big = null; // the racer shown large (always one on a phone)
  let racers = []; // [{id, name, status}] as last drawn
  let views = {};
  let games = new Map(); // racer id -> { game, caption }
  const boardsEl = h("div.replay-boards");
  const thumbs = h("div.replay-thumbs", { role: "group", "aria-label": "The other racers: pick one to enlarge it" });
  const title = h("h2", { text: "Every board", style: "margin:0;flex:1" });
  const el = h("div.stack.watch-all", {},
    h("div.row", {}, title,
      h("button.btn.small", { type: "button", dataset: { action: "unwatch-all" }, onclick: onStop }, "Stop watching everyone")),
    thumbs, boardsEl);
  const phone = window.matchMedia(PHONE);
  phone.addEventListener?.("change", build);

  function build() {
    for (const g of games.values()) g.game.destroy();
    games = new Map();
    clear(boardsEl);
    clear(thumbs);
    const n = racers.length;
    if (big !== null && !racers.some((r) => r.id === big)) big = null;
    const focus = big ?? (phone.matches && n > 1 ? racers[0]?.id : null);
    boardsEl.dataset.count = String(focus ? 1 : Math.min(Math.max(n, 1), 4));
    thumbs.hidden = !focus;
    for (const racer of racers) {
      const game = createGame({ commands: {}, readonly: true, label: `${racer.name}'s board`, rules });
      const caption = h("span.replay-status", {});
      const name = h("h3.replay-name", {}, h("span", { text: racer.name }), caption);
      if (focus && racer.id !== focus) {
        thumbs.append(h("button.replay-thumb", { type: "button", dataset: { racer: racer.id }, onclick: () => { big = racer.id; build(); } },
          h("span.sr-only", { text: "Enlarge: " }), name, h("div.thumb-scale", {}, h("div.thumb-host", { "aria-hidden": "true" }, game.el))));
      } else {
        const pick = h("button.btn.small", { type: "button", dataset: { racer: racer.id },
          "aria-pressed": String(big === racer.id), onclick: () => { big = big === racer.id ? null : racer.id; build(); } },
        big === racer.id ? "Show every board" : "Enlarge");
        boardsEl.append(h("section.replay-racer", { dataset: { racer: racer.id } },
          h("div.row", {}, name, n > 1 ? pick : null), h("div.replay-host", {}, game.el)));
      }
      games.set(racer.id, { game, caption });
    }
    draw();
  }

  function draw() {
    for (const racer of racers) {
      const g = games.get(racer.id);
      if (!g) continue;
      const view = views[racer.id];
      if (view) g.game.update(view, { finished: true });
      g.caption.textContent = racer.status && racer.status !== "playing" ? STATUS_WORDS[racer.status] || racer.status : "";
    }
  }

  return {
    el,
    /** `players`: the room's racers (id, name, status); `boards`: their views by id. */
    update(players, boards) {
      const same = players.length === racers.length && players.every((p, i) => p.id === racers[i].id && p.name === racers[i].name);
      racers = players.map((p) => ({ id: p.id, name: p.name, status: p.status }));
      views = boards || {};
      if (same) draw();
      else build();
    },
    destroy() {
      phone.removeEventListener?.("change", build);
      for (const g of games.values()) g.game.destroy();
    },
  };
}
