// Where the win slipped away: one short line about your game, from the server's analysis
// (GET /api/games/{id}/analysis, docs/http-api.md). The solver's words, never the client's:
// this module only turns the server's outcome into a sentence, and asks again politely
// (every `retry_after` seconds, a bounded number of times) while the analysis is pending.

import { h } from "../dom.js";
import * as api from "../api.js";

const MAX_ASKS = 60; // about two minutes at the server's pace, then "ask later"
const known = new Map(); // game id -> { state, text, els, timer, asks }

/** The sentence for an analysis (the `analysis` object of a `done` answer). */
export function analysisText(a) {
  const tp = a.turning_point;
  switch (a.outcome) {
    case "won":
      return "Won.";
    case "never-winnable":
      return "This deal was never winnable.";
    case "still-winnable":
      return "Still winnable when the game ended.";
    case "slipped":
      return `The win slipped away at move ${tp.index + 1} (${tp.move === "give-up" ? "giving up" : tp.move})${tp.kept ? `: ${tp.kept} kept it winnable` : ""}.`;
    default:
      return a.undecided_after ? `Undecided after move ${a.undecided_after}.` : "Undecided from the start.";
  }
}

/** A line about game `gameId` that fills itself in: "Analysing…" until the server answers. */
export function analysisLine(gameId) {
  const el = h("p.muted", { dataset: { analysis: "pending" }, "aria-live": "polite", text: "Analysing…" });
  let entry = known.get(gameId);
  if (!entry) {
    entry = { state: "pending", text: "Analysing…", els: new Set(), timer: null, asks: 0 };
    known.set(gameId, entry);
  }
  entry.els.add(el);
  show(entry);
  if (entry.state === "pending" && !entry.timer) ask(gameId, entry);
  return el;
}

/** A game's id (docs/http-api.md): its place (a room id or `daily:<date>`), round, player. */
export function gameId(place, round, player) {
  return `${place}:${round}:${player}`;
}

function show(entry) {
  for (const el of entry.els) {
    el.textContent = entry.text;
    el.dataset.analysis = entry.state;
    el.hidden = entry.state === "none";
  }
}

function set(entry, state, text) {
  entry.state = state;
  entry.text = text;
  show(entry);
}

async function ask(id, entry) {
  entry.timer = -1; // asking
  entry.asks += 1;
  let body;
  try {
    body = await api.analysis(id);
  } catch (e) {
    entry.timer = null;
    if (e.code === "analysis-not-yet") set(entry, "closed", "Where the win slipped away: shown once the day closes.");
    else set(entry, "none", "");
    return;
  }
  entry.timer = null;
  if (body.status === "done") return set(entry, "done", analysisText(body.analysis));
  if (body.status !== "pending") return set(entry, "none", "");
  // Ask again only while the line is on screen (a closed dialog stops asking).
  for (const el of entry.els) if (!el.isConnected) entry.els.delete(el);
  if (entry.asks >= MAX_ASKS) return set(entry, "pending", "Still analysing: look again later.");
  entry.timer = setTimeout(() => {
    entry.timer = null;
    if ([...entry.els].some((el) => el.isConnected)) ask(id, entry);
  }, 1000 * (body.retry_after || 2));
}
