// Statistics per preset: clean games (no hint, no Auto) started, won, lost, win rate, current and
// best streak; games played with help counted apart (the server counts both).

import { h } from "../dom.js";
import * as api from "../api.js";
import { presetLabel } from "../presets.js";

export function mountStats(ctx) {
  const { root } = ctx;
  const body = h("div.stack", {}, h("p.muted", { role: "status", text: "Loading your statistics…" }));
  root.append(h("h1", { text: "Your statistics" }), h("p.lead", { text: "Every race, daily and practice game you started without help, by rules (one still being played counts as started, not yet won or lost). Giving up counts as a loss. Games with a hint or Auto are counted apart and end a streak." }),
    h("p", {}, h("a", { href: "#/history" }, "Your history"), ": every game with its replay, your best times and your daily calendar."),
    h("p", {}, h("a", { href: "#/devices" }, "Use on another device"), " — keep your statistics on your phone and your computer."), body);
  if (!api.token()) {
    body.replaceChildren(h("p.muted", { text: "Play a game first: your statistics appear here." }));
    return () => {};
  }
  api.stats().then((data) => {
    const table = data?.stats || {};
    const entries = Array.isArray(table) ? table.map((row) => [row.preset, row]) : Object.entries(table);
    if (!entries.length) {
      body.replaceChildren(h("p.muted", { text: "No games yet. Start a race or play the daily." }));
      return;
    }
    body.replaceChildren(...entries.map(([preset, st]) => h("section.panel.stack", { dataset: { preset } },
      h("h2", { text: presetLabel(preset) }),
      h("div.stat-cards", {},
        card("Started", st.started), card("Won", st.won), card("Lost", st.lost),
        card("Win rate", `${Math.round((st.win_rate ?? (st.started ? st.won / st.started : 0)) * 100)}%`),
        card("Streak", st.current_streak), card("Best streak", st.best_streak)),
      st.assisted_started ? h("p.muted", { dataset: { stats: "assisted" },
        text: `With help (hints or Auto), counted apart: ${st.assisted_started} played, ${st.assisted_won} won.` }) : null)));
  }).catch((err) => {
    body.replaceChildren(h("p.error-text", { text: err.message }));
  });
  return () => {};
}

function card(label, value) {
  return h("div.stat-card", {}, h("span", { text: label }), h("b", { text: String(value ?? 0) }));
}
