// The replay's "where the win slipped away" panel: for each racer, the solver's verdict on the
// position shown now (winnable, lost, undecided), its moves coloured along the race clock, and
// a button that jumps to the move after which the win slipped away. The verdicts are the
// server's analysis (GET /api/games/{id}/analysis): the client only places and colours them.

import { h } from "../dom.js";
import * as api from "../api.js";
import { actionSteps, actionsDone } from "../replaydata.js";
import { analysisText, gameId } from "./analysis.js";

const WORDS = { winnable: "still winnable", lost: "lost", undecided: "undecided" };
const MAX_ASKS = 30;

/** The game id of each racer of a replay (docs/http-api.md). */
function gameIds(data) {
  return data.racers.map((r) => (data.kind === "daily"
    ? gameId(`daily:${data.date}`, data.attempt, r.player)
    : gameId(data.room, data.round, r.player)));
}

export function replayAnalysis(data, times, end, { onJump }) {
  const own = actionSteps(data);
  const rows = data.racers.map((racer, i) => {
    const badge = h("span.verdict", { dataset: { verdict: "pending" }, text: "analysing…" });
    const line = h("span.muted", {});
    const ticks = h("div.verdict-ticks", { "aria-hidden": "true" });
    const jump = h("button.btn.small", { type: "button", hidden: true, dataset: { action: "turning-point", racer: String(i) } });
    const row = h("div.verdict-row", { dataset: { racer: String(i) } },
      h("div.row", {}, h("b", { text: racer.name }), badge, line, jump), ticks);
    return { row, badge, line, ticks, jump, analysis: null };
  });
  const el = h("section.panel.stack.replay-analysis", { "aria-label": "Where the win slipped away" },
    h("h2", { text: "Where the win slipped away" }), ...rows.map((r) => r.row));
  let count = 0;

  gameIds(data).forEach((id, i) => ask(id, rows[i], i, 0));

  async function ask(id, row, i, asks) {
    let body;
    try {
      body = await api.analysis(id);
    } catch (e) {
      row.badge.textContent = e.code === "analysis-not-yet" ? "not yet" : "no analysis";
      row.badge.dataset.verdict = "none";
      return;
    }
    if (body.status === "pending" && asks < MAX_ASKS && el.isConnected !== false) {
      setTimeout(() => ask(id, row, i, asks + 1), 1000 * (body.retry_after || 2));
      return;
    }
    if (body.status !== "done") {
      row.badge.textContent = "no analysis";
      row.badge.dataset.verdict = "none";
      return;
    }
    row.analysis = body.analysis;
    row.line.textContent = analysisText(body.analysis);
    draw(row, i);
    show(row, i);
  }

  function draw(row, i) {
    const verdicts = row.analysis.verdicts || [];
    row.ticks.replaceChildren(...own[i].slice(0, verdicts.length).map((k, j) =>
      h("i", { dataset: { verdict: verdicts[j] }, style: `left:${end ? (100 * times[k]) / end : 0}%` })));
    const tp = row.analysis.turning_point;
    if (tp && own[i][tp.index] !== undefined) {
      row.jump.hidden = false;
      row.jump.textContent = `Jump to move ${tp.index + 1}`;
      row.jump.onclick = () => onJump(own[i][tp.index]); // the position before that move
    }
  }

  function show(row, i) {
    if (!row.analysis) return;
    const done = actionsDone(own[i], count);
    const verdict = done === 0 ? row.analysis.start : row.analysis.verdicts[done - 1];
    row.badge.textContent = WORDS[verdict] || verdict || "undecided";
    row.badge.dataset.verdict = verdict || "undecided";
  }

  return {
    el,
    /** The replay shows the position after `steps` steps. */
    update(steps) {
      count = steps;
      rows.forEach(show);
    },
  };
}
