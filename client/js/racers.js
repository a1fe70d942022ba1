// The racers panel: every racer's live progress in the server's ranking (ties share a rank):
// cards in order (the bar), runs x/4, score, moves, status. Spectators click a racer to follow.
// Others' numbers are what the server lets everyone see (a score may be withheld: "–"); the
// caller gives your own row your exact numbers from your view (roomstate.withOwnNumbers).

import { clock, h } from "./dom.js";
import { keyedList } from "./keyed.js";
import { byRank, scoreText, STATUS_WORDS } from "./roomstate.js";

export const ORDER_MAX = 52; // `ordered`: cards in their final same-suit order (protocol.md)

/** The racers panel's list, kept between notices: update(players, {me, followed, onPick})
 * rebuilds only the rows whose racer changed (keyed by player id). */
export function createRacersList() {
  const el = h("ol.racers", { "aria-label": "Racers, ranked" });
  let onPick = null; // the latest: a kept row calls what the last update gave
  const pickNow = (id) => onPick?.(id);
  let opts = {};
  const render = keyedList(el, {
    key: (p) => p.id,
    sig: (p) => JSON.stringify([p, p.id === opts.me, p.id === opts.followed, !!opts.onPick]),
    build: (p) => racerRow(p, opts, pickNow),
  });
  return {
    el,
    update(players, { me = null, followed = null, onPick: pick = null } = {}) {
      opts = { me, followed, onPick: pick };
      onPick = pick;
      render(byRank(players));
    },
  };
}

function racerRow(p, { me, followed, onPick }, pickNow) {
  const pips = h("span.runs-pips", { "aria-hidden": "true" },
    [0, 1, 2, 3].map((k) => h(k < (p.runs || 0) ? "i.on" : "i")));
  const status = p.status && p.status !== "playing"
    ? h(`span.tag${p.status === "won" ? ".won" : ".out"}`, { text: p.status === "won" && p.elapsed ? `finished ${clock(p.elapsed)}` : STATUS_WORDS[p.status] || p.status })
    : p.connected === false ? h("span.tag.away", { text: "away" }) : null;
  // The server says whether help was used: an assisted result ranks after the clean ones.
  const assisted = p.clean === false ? h("span.tag.assisted", { title: "Used a hint or Auto: ranks after the clean results", text: "assisted" }) : null;
  const ordered = p.ordered || 0;
  const label = `${p.rank ? `rank ${p.rank}, ` : ""}${p.name}${p.id === me ? " (you)" : ""}: ${ordered} of ${ORDER_MAX} cards in order, ${p.runs || 0} of 4 runs, ${p.score === null ? "score shown at the results" : `score ${p.score || 0}`}, ${p.moves || 0} moves${p.status && p.status !== "playing" ? `, ${STATUS_WORDS[p.status] || p.status}` : ""}${assisted ? ", assisted" : ""}`;
  const body = [
    h("span.rank", { text: p.rank ? String(p.rank) : "–" }),
    h("span.name", { text: p.id === me ? `${p.name} (you)` : p.name }),
    h("span.score", { text: scoreText(p.score), title: p.score === null ? "Shown at the results: here it could tell a card others may not see yet" : null }),
    h("span.detail", {}, h("span.ordered", { text: `${ordered}/${ORDER_MAX} in order` }), pips,
      h("span", { text: `${p.runs || 0}/4 runs` }), h("span", { text: `${p.moves || 0} ${p.moves === 1 ? "move" : "moves"}` }), status, assisted),
    h("span.mini-progress", { "aria-hidden": "true" }, progressBar(p)),
  ];
  const cls = `${p.id === me ? ".me" : ""}${p.id === followed ? ".followed" : ""}`;
  const attrs = { "aria-label": label, dataset: { player: p.id } };
  if (onPick && p.id !== me) {
    // A button is named by what it shows (WCAG 2.5.3): its text, not the row's label.
    return h("li", {}, h(`button.racer${cls}`, { dataset: attrs.dataset, type: "button", "aria-pressed": String(p.id === followed), onclick: () => pickNow(p.id) }, body));
  }
  return h(`li.racer${cls}`, attrs, body);
}

/** The bar: the cards in their final order, counted by the server (52 when won). */
function progressBar(p) {
  const bar = h("i");
  const pct = p.status === "won" ? 100 : Math.min(100, (100 * (p.ordered || 0)) / ORDER_MAX);
  bar.style.width = `${pct.toFixed(1)}%`;
  return bar;
}
