// The results: a headline (where you placed), the ranking with each racer's result, runs, cards in
// order, score, moves and the help they used, a chart of the race (runs and score over the race
// clock; the score alone when nobody removed a run), the deal (public now), and rematch.

import { clock, h, ordinal } from "../dom.js";
import { raceChart } from "../chart.js";
import { presetLabel } from "../presets.js";
import { STATUS_WORDS } from "../roomstate.js";
import { sharePanel } from "../share.js";
import { analysisLine, gameId } from "./analysis.js";
import { leaguePanel } from "./league.js";
import { raceAnyoneLink } from "./quick.js";

/** The headline: your place (ties said so), else who won. Ranks are the server's. */
export function headline(results, me) {
  const total = results.length;
  const mine = results.find((row) => row.player === me);
  if (mine) {
    const tied = results.filter((row) => row.rank === mine.rank).length > 1;
    return `You placed ${tied ? "joint " : ""}${ordinal(mine.rank)} of ${total}`;
  }
  const first = results.filter((row) => row.rank === 1);
  if (!first.length) return "Results";
  const names = first.map((row) => row.name).join(" and ");
  return first[0].status === "won" ? `${names} won` : `${names} ${first.length > 1 ? "lead" : "leads"}: nobody finished`;
}

/** "Clean", or "Assisted: " and the help used (the server says which: `clean`). */
export function helpUsed(row) {
  if (row.clean !== false) return "Clean";
  const parts = [];
  if (row.hints) parts.push(`${row.hints} ${row.hints === 1 ? "hint" : "hints"}`);
  if (row.autos) parts.push(`${row.autos} by Auto`);
  return `Assisted: ${parts.join(", ")}`;
}

/** The results overlay for state `s` (its room in phase "results"). */
export function resultsDialog(s, { me, onRematch, onClose }) {
  const r = s.room;
  const results = r.results || [];
  const assisted = results.some((row) => row.clean === false);
  // Help was allowed or used: say who used it (assisted results rank after clean ones).
  const withHelp = assisted || !!r.settings?.hints || !!r.settings?.auto;
  // A rated round's rating changes (a quick race, a rated room), by player (the server's numbers: docs/protocol.md `rated`).
  const ratings = r.ratings || null;
  // On a phone the result goes under the name and the moves column hides (.wide-only).
  const rows = results.map((row) => {
    const result = row.status === "won" ? `won in ${clock(row.elapsed)}` : STATUS_WORDS[row.status] || row.status;
    return h(`tr${row.player === me ? ".me" : ""}${row.clean === false ? ".assisted" : ""}`, {},
      h("td", { text: String(row.rank) }),
      h("td.name", {}, h("span", { text: row.name, title: row.name }), h("small.under", { text: result })),
      h("td.wide-only", { text: result }),
      h("td.num", { text: `${row.runs}/4` }), h("td.num", { text: String(row.ordered ?? "") }),
      h("td.num", { text: String(row.score) }), h("td.num.wide-only", { text: String(row.moves) }),
      withHelp ? h("td", { dataset: { help: row.clean === false ? "assisted" : "clean" }, text: helpUsed(row) }) : null,
      ratings ? ratingCell(ratings[row.player]) : null);
  });
  const players = results.map((row) => ({ id: row.player, name: row.name }));
  const end = Math.max(0, ...results.map((x) => x.elapsed || 0));
  const width = Math.round(Math.min(640, Math.max(300, window.innerWidth - 70)));
  const deal = dealText(r.deal);
  const headers = [["#"], ["Racer"], ["Result", "wide-only"], ["Runs", "num"], ["In order", "num", "Cards in their final same-suit order, of 52"],
    ["Score", "num"], ["Moves", "num.wide-only"], ...(withHelp ? [["Help", "", "Hints and Auto used"]] : []),
    ...(ratings ? [["Rating", "num", "The rating for these rules, and its change"]] : [])];
  const panel = h("div.panel.stack", { role: "dialog", "aria-modal": "true", "aria-label": "Results" },
    h("h2", { id: "results-h", text: headline(results, me) }),
    h("div.table-scroll", {}, h("table.results-table", {},
      h("thead", {}, h("tr", {}, headers.map(([t, cls, title]) => h(cls ? `th.${cls}` : "th", { text: t, title, scope: "col" })))),
      h("tbody", {}, rows))),
    ratings?.[me] ? h("p", { dataset: { rating: "mine" }, text: ratingLine(ratings[me]) }) : null,
    r.quickRace && r.round === 1 && !ratings ? h("p.muted", { dataset: { rating: "pending" }, text: "Rating this race…" }) : null,
    assisted ? h("p.muted", { dataset: { note: "assisted" }, text: "Assisted results (a hint or a move by Auto) rank after the clean ones." }) : null,
    leaguePanel(r),
    raceChart(s.timeline, players, { end, width }),
    results.some((row) => row.player === me) && r.id ? analysisLine(gameId(r.id, r.round, me)) : null,
    deal ? h("p.muted", { text: `Deal number ${deal} (${presetLabel(r.settings?.preset)})${r.verified ? ", proved winnable" : ""}.` }) : null,
    h("div.row", {},
      onRematch ? h("button.btn.primary", { type: "button", dataset: { action: "rematch" }, onclick: onRematch },
        r.settings?.max_players === 1 ? "New deal" : "Rematch on a new deal") : null,
      h("button.btn", { type: "button", onclick: onClose }, "Look at the board"),
      r.id && r.round ? h("a.btn", { href: `#/replay/room/${encodeURIComponent(r.id)}/${r.round}`, dataset: { action: "replay" } }, "Watch the replay") : null,
      raceAnyoneLink(r.settings?.preset),
      h("a.btn", { href: "#/" }, "Home")),
    r.id && r.round && results.some((row) => row.player === me) ? sharePanel(`/api/share/room/${encodeURIComponent(r.id)}/${r.round}/${encodeURIComponent(me)}`) : null);
  return h("div.overlay", { onkeydown: (e) => { if (e.key === "Escape") onClose(); } }, panel);
}

/** "1012 (+12)", "provisional" under it for a player's first rated races. */
function ratingCell(change) {
  if (!change) return h("td.num", { text: "–", title: "Not rated (an assisted result)" });
  return h("td.num", { dataset: { rating: change.player } },
    h("span", { text: `${change.after} (${signed(change.change)})` }),
    change.provisional ? h("small.muted", { text: "provisional", style: "display:block" }) : null);
}

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

/** Your change in words: the headline's companion. */
export function ratingLine(change) {
  const word = change.provisional ? `Your provisional rating (${change.races} rated ${change.races === 1 ? "race" : "races"})` : "Your rating";
  return `${word}: ${change.before} → ${change.after} (${signed(change.change)}).`;
}

/** The deal number as text, only when it is exact (JSON numbers past 2**53 are not). */
function dealText(deal) {
  if (typeof deal === "string") return deal;
  return Number.isSafeInteger(deal) ? String(deal) : null;
}
