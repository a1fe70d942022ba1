// A league among friends: the room's table for this week (ISO week, UTC) and for all time,
// as the server keeps them (GET /api/rooms/{id}/league). Shown in a league room's lobby and
// results; fetched again when a round's points are kept (the `league-points` event).

import { h, clear } from "../dom.js";
import * as api from "../api.js";

const cache = new Map(); // "room:round of the last points" -> the server's answer
const pending = new Map(); // the same key -> its request (one at a time, however often drawn)

/** The league panel of room state `r` (null when the room is not a league). */
export function leaguePanel(r) {
  if (!r?.settings?.league || !r.id) return null;
  const key = `${r.id}:${r.leagueRound ?? 0}`;
  const body = h("div.stack", { dataset: { league: "tables" } });
  const panel = h("section.stack.league", { "aria-labelledby": `league-h-${r.id}` },
    h("h2", { id: `league-h-${r.id}`, text: "League" }), body);
  const fill = (data) => {
    clear(body);
    body.append(
      table(`This week (${data.week})`, data.week_table, "week"),
      table("All time", data.all_time, "all"),
      h("p.muted", { text: `Points per round by place: ${data.points.slice(0, -1).join(", ")}, then ${data.points.at(-1)} for every later place. Leaving the room during a round, or making no move, places last with 0 points; a round scores once two racers made a move.` }));
  };
  if (cache.has(key)) {
    fill(cache.get(key));
  } else {
    body.append(h("p.muted", { text: "Loading the league table…" }));
    if (!pending.has(key)) {
      pending.set(key, api.leagueTables(r.id).then((data) => { cache.set(key, data); return data; })
        .finally(() => pending.delete(key)));
    }
    pending.get(key).then(fill)
      .catch(() => { clear(body); body.append(h("p.muted", { text: "The league table cannot be loaded now." })); });
  }
  return panel;
}

function table(title, rows, which) {
  if (!rows.length) return h("div", {}, h("h3", { text: title }), h("p.muted", { dataset: { league: `${which}-empty` }, text: "No round finished yet." }));
  return h("div", {}, h("h3", { text: title }),
    h("div.table-scroll", {}, h("table.results-table", { dataset: { league: which } },
      h("thead", {}, h("tr", {}, ["#", "Racer", "Points", "Rounds", "Wins"].map((t, i) => h(i > 1 ? "th.num" : "th", { scope: "col", text: t })))),
      h("tbody", {}, rows.map((row) => h("tr", {},
        h("td", { text: String(row.rank) }), h("td.name", { text: row.name }),
        h("td.num", { text: String(row.points) }), h("td.num", { text: String(row.rounds) }), h("td.num", { text: String(row.wins) })))))));
}
