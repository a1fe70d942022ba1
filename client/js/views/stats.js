// Statistics per preset: clean games (no hint, no Auto) started, won, lost, win rate, current and
// best streak; games played with help counted apart (the server counts both).

import { h } from "../dom.js";
import * as api from "../api.js";
import { PRESETS, presetLabel } from "../presets.js";

export function mountStats(ctx) {
  const { root } = ctx;
  const body = h("div.stack", {}, h("p.muted", { role: "status", text: "Loading your statistics…" }));
  root.append(h("h1", { text: "Your statistics" }), h("p.lead", { text: "Every race, daily and practice game you started without help, by rules (one still being played counts as started, not yet won or lost). Giving up counts as a loss. Games with a hint or Auto are counted apart and end a streak." }),
    h("p", {}, h("a", { href: "#/history" }, "Your history"), ": every game with its replay, your best times and your daily calendar."),
    h("p", {}, h("a", { href: "#/devices" }, "Use on another device"), " — keep your statistics on your phone and your computer."), body,
    ratingBoard());
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

/** The rating leaderboard of a rule set (quick races and rated rooms), as the server ranks it. */
function ratingBoard() {
  const pick = h("select.input", { name: "board_preset", "aria-label": "Rules of the leaderboard", style: "max-width: 16rem" },
    Object.entries(PRESETS).map(([value, p]) => h("option", { value }, p.label)));
  const body = h("div.stack", { dataset: { ratings: "board" }, "aria-live": "polite" });
  const show = () => {
    const preset = pick.value;
    body.replaceChildren(h("p.muted", { text: "Loading the leaderboard…" }));
    api.ratingBoard(preset).then((data) => {
      if (pick.value !== preset) return; // another rule set was picked meanwhile
      body.replaceChildren(data.rows.length
        ? h("div.table-scroll", {}, h("table.results-table", {},
          h("thead", {}, h("tr", {}, ["#", "Racer", "Rating", "Rated races"].map((t, i) => h(i > 1 ? "th.num" : "th", { scope: "col", text: t })))),
          h("tbody", {}, data.rows.map((row) => h("tr", {},
            h("td", { text: String(row.rank) }), h("td.name", { text: row.name }),
            h("td.num", { text: String(row.rating) }), h("td.num", { text: String(row.races) }))))))
        : h("p.muted", { dataset: { ratings: "empty" }, text: `Nobody has ${data.min_races} rated ${presetLabel(preset)} races yet: race anyone now to be the first.` }));
    }).catch((err) => body.replaceChildren(h("p.error-text", { text: err.message })));
  };
  pick.addEventListener("change", show);
  show();
  return h("section.panel.stack", { "aria-labelledby": "rating-board-h" },
    h("h2", { id: "rating-board-h", text: "Rating leaderboard" }),
    h("p.muted", { text: "Quick races and rated rooms move a rating per rule set; players with 10 rated races or more are listed, best first." }),
    pick, body);
}
