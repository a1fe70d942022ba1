// The results: the ranking, a chart of every racer's runs and score over the race clock, the
// deal (public now), and rematch.

import { clock, h } from "../dom.js";
import { raceChart } from "../chart.js";
import { presetLabel } from "../presets.js";
import { STATUS_WORDS } from "../roomstate.js";

/** The results overlay for state `s` (its room in phase "results"). */
export function resultsDialog(s, { me, onRematch, onClose }) {
  const r = s.room;
  const rows = (r.results || []).map((row) => h(`tr${row.player === me ? ".me" : ""}`, {},
    h("td", { text: String(row.rank) }), h("td", { text: row.name }),
    h("td", { text: row.status === "won" ? `won in ${clock(row.elapsed)}` : STATUS_WORDS[row.status] || row.status }),
    h("td.num", { text: `${row.runs}/4` }), h("td.num", { text: String(row.score) }), h("td.num", { text: String(row.moves) })));
  const players = (r.results || []).map((row) => ({ id: row.player, name: row.name }));
  const end = Math.max(0, ...(r.results || []).map((x) => x.elapsed || 0));
  const width = Math.round(Math.min(640, Math.max(300, window.innerWidth - 70)));
  const deal = dealText(r.deal);
  const panel = h("div.panel.stack", { role: "dialog", "aria-modal": "true", "aria-labelledby": "results-h" },
    h("h2", { id: "results-h", text: "Results" }),
    h("table.results-table", {},
      h("thead", {}, h("tr", {}, ["#", "Racer", "", "Runs", "Score", "Moves"].map((t, i) => h(i > 2 ? "th.num" : "th", { text: t })))),
      h("tbody", {}, rows)),
    raceChart(s.timeline, players, { end, width }),
    deal ? h("p.muted", { text: `Deal number ${deal} (${presetLabel(r.settings?.preset)})${r.verified ? ", proved winnable" : ""}.` }) : null,
    h("div.row", {},
      onRematch ? h("button.btn.primary", { type: "button", dataset: { action: "rematch" }, onclick: onRematch },
        r.settings?.max_players === 1 ? "New deal" : "Rematch on a new deal") : null,
      h("button.btn", { type: "button", onclick: onClose }, "Look at the board"),
      h("a.btn", { href: "#/" }, "Home")));
  return h("div.overlay", { onkeydown: (e) => { if (e.key === "Escape") onClose(); } }, panel);
}

/** The deal number as text, only when it is exact (JSON numbers past 2**53 are not). */
function dealText(deal) {
  if (typeof deal === "string") return deal;
  return Number.isSafeInteger(deal) ? String(deal) : null;
}
