// The racers panel: every racer's live progress, ranked (runs x/4, score, moves, status).
// Spectators click a racer to follow their board.

import { h } from "./dom.js";
import { ranked, STATUS_WORDS } from "./roomstate.js";
import { clock } from "./dom.js";

export function racersList(players, { me = null, followed = null, onPick = null } = {}) {
  const rows = ranked(players).map((p, i) => {
    const pips = h("span.runs-pips", { "aria-hidden": "true" },
      [0, 1, 2, 3].map((k) => h(k < (p.runs || 0) ? "i.on" : "i")));
    const status = p.status && p.status !== "playing"
      ? h(`span.tag${p.status === "won" ? ".won" : ".out"}`, { text: p.status === "won" && p.elapsed ? `finished ${clock(p.elapsed)}` : STATUS_WORDS[p.status] || p.status })
      : p.connected === false ? h("span.tag.away", { text: "away" }) : null;
    const label = `${p.name}${p.id === me ? " (you)" : ""}: ${p.runs || 0} of 4 runs, score ${p.score || 0}, ${p.moves || 0} moves${p.status && p.status !== "playing" ? `, ${STATUS_WORDS[p.status] || p.status}` : ""}`;
    const body = [
      h("span.rank", { text: String(i + 1) }),
      h("span.name", { text: p.id === me ? `${p.name} (you)` : p.name }),
      h("span.score", { text: String(p.score || 0) }),
      h("span.detail", {}, pips, h("span", { text: `${p.runs || 0}/4 runs` }), h("span", { text: `${p.moves || 0} ${p.moves === 1 ? "move" : "moves"}` }), status),
      h("span.mini-progress", { "aria-hidden": "true" }, progressBar(p)),
    ];
    const cls = `${p.id === me ? ".me" : ""}${p.id === followed ? ".followed" : ""}`;
    const attrs = { "aria-label": label, dataset: { player: p.id } };
    if (onPick && p.id !== me) {
      return h("li", {}, h(`button.racer${cls}`, { ...attrs, type: "button", "aria-pressed": String(p.id === followed), onclick: () => onPick(p.id) }, body));
    }
    return h(`li.racer${cls}`, attrs, body);
  });
  return h("ol.racers", { "aria-label": "Racers, ranked" }, rows);
}

function progressBar(p) {
  const bar = h("i");
  // Runs dominate; cards turned face up give a little progress before the first run.
  const pct = Math.min(100, ((p.runs || 0) * 25) + Math.min(24, (p.turned || 0) * 2));
  bar.style.width = `${p.status === "won" ? 100 : pct}%`;
  return bar;
}
