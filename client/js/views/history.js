// Your history (#/history): your records per preset (best and median clean win, win rate and a
// chart of recent results), your daily calendar (days played, won, your rank) with the streak and
// what it counts, and your games newest first, each with its replay. Every number is the
// server's (GET /api/me/records, /api/me/history): the same counts as the statistics page and
// the daily's streak.

import { clear, clock, h } from "../dom.js";
import * as api from "../api.js";
import { presetLabel } from "../presets.js";
import { STATUS_WORDS } from "../roomstate.js";

const NS = "http://www.w3.org/2000/svg";
const WEEKDAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"];

export function mountHistory(ctx) {
  const { root } = ctx;
  let alive = true;
  const records = h("section.panel.stack", { "aria-labelledby": "records-h" }, h("h2", { id: "records-h", text: "Personal records" }), h("p.muted", { role: "status", text: "Loading…" }));
  const calendar = h("section.panel.stack", { "aria-labelledby": "calendar-h" });
  const games = h("section.panel.stack", { "aria-labelledby": "games-h" });
  const ratings = h("section.panel.stack", { "aria-labelledby": "ratings-h", hidden: true, dataset: { history: "ratings" } });
  root.append(h("div.history.stack", {},
    h("h1", { text: "Your history" }),
    h("p.lead", { text: "Your best times, your daily calendar and every game you played, each with its replay. Counted like your statistics: games without help; games with a hint or Auto are counted apart." }),
    h("div.history-top", {}, records, calendar), ratings, games));
  if (!api.token()) {
    clear(records).append(h("p.muted", { text: "Play a game first: your history appears here." }));
    return () => {};
  }
  let month = null;
  loadRecords(null);
  loadGames();
  loadRatings();

  /** Quick races' ratings per rule set, each with a chart of its changes (GET /api/players/{id}/ratings). */
  function loadRatings() {
    const me = api.player();
    if (!me?.id) return;
    api.ratings(me.id).then((data) => {
      if (!alive || !Object.keys(data.ratings).length) return;
      ratings.hidden = false;
      clear(ratings).append(h("h2", { id: "ratings-h", text: "Quick race ratings" }),
        h("div.record-cards", {}, Object.entries(data.ratings).map(([preset, r]) =>
          h("article.record", { dataset: { preset } },
            h("h3", { text: presetLabel(preset) }),
            h("p", { dataset: { rating: "now" }, text: `${r.rating}${r.provisional ? " (provisional)" : ""} after ${r.races} rated ${r.races === 1 ? "race" : "races"}` }),
            ratingChart(data.history.filter((c) => c.preset === preset))))));
    }).catch(() => {});
  }

  function loadRecords(wanted) {
    api.records(wanted).then((data) => {
      if (!alive) return;
      month = data.daily.month;
      drawRecords(data.presets);
      drawCalendar(data.daily);
    }).catch((err) => { if (alive) clear(records).append(h("p.error-text", { text: err.message })); });
  }

  function drawRecords(presets) {
    clear(records).append(h("h2", { id: "records-h", text: "Personal records" }));
    if (!presets.length) {
      records.append(h("p.muted", { text: "No games yet. Start a race or play the daily." }));
      return;
    }
    records.append(h("div.record-cards", {}, presets.map((p) => {
      const finished = p.won + p.lost;
      return h("article.record", { dataset: { preset: p.preset } },
        h("h3", { text: presetLabel(p.preset) }),
        h("dl.record-numbers", {},
          h("div", {}, h("dt", { text: "Best win" }), h("dd", { dataset: { record: "best" }, text: p.best_time != null ? clock(p.best_time) : "–" })),
          h("div", {}, h("dt", { text: "Median win" }), h("dd", { dataset: { record: "median" }, text: p.median_time != null ? clock(p.median_time) : "–" })),
          h("div", {}, h("dt", { text: "Win rate" }), h("dd", { dataset: { record: "rate" }, text: `${Math.round(p.win_rate * 100)}%` }))),
        h("p.muted", { text: `${p.won} won of ${finished} finished (${p.started} started)${p.assisted_started ? `; with help, counted apart: ${p.assisted_started} played, ${p.assisted_won} won` : ""}.` }),
        recentChart(p.recent));
    })));
  }

  function drawCalendar(daily) {
    clear(calendar);
    const [y, m] = daily.month.split("-").map(Number);
    const first = new Date(Date.UTC(y, m - 1, 1));
    const days = new Date(Date.UTC(y, m, 0)).getUTCDate();
    const byDate = new Map(daily.days.map((d) => [d.date, d]));
    const shift = (k) => {
      const d = new Date(Date.UTC(y, m - 1 + k, 1));
      return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`;
    };
    const label = first.toLocaleDateString("en-GB", { month: "long", year: "numeric", timeZone: "UTC" });
    const cells = [];
    for (let i = 0; i < (first.getUTCDay() + 6) % 7; i++) cells.push(h("span.day.blank", { "aria-hidden": "true" }));
    for (let d = 1; d <= days; d++) {
      const date = `${daily.month}-${String(d).padStart(2, "0")}`;
      const played = byDate.get(date);
      const result = played ? (played.status === "won" ? `won in ${clock(played.elapsed)}` : STATUS_WORDS[played.status] || played.status) : "not played";
      const rank = played?.rank ? `, rank ${played.rank} of ${played.size}` : "";
      const cls = played ? (played.status === "won" ? ".won" : played.status === "playing" ? ".playing" : ".lost") : "";
      const body = [h("b", { text: String(d) }), played?.rank ? h("small", { text: `#${played.rank}` }) : null];
      // The link's name starts with what it shows (axe: label-content-name-mismatch).
      cells.push(played
        ? h(`a.day${cls}`, { href: `#/daily/${date}`, dataset: { date }, title: `${result}${rank}` }, body, h("span.sr-only", { text: ` ${date}: ${result}${rank}` }))
        : h("span.day", { dataset: { date }, "aria-label": `${date}: not played` }, body));
    }
    const st = daily.streak;
    calendar.append(h("h2", { id: "calendar-h", text: "Daily calendar" }),
      h("div.row.calendar-nav", {},
        h("button.btn.small", { type: "button", "aria-label": "Previous month", onclick: () => loadRecords(shift(-1)) }, "‹"),
        h("b", { dataset: { month: daily.month }, text: label }),
        h("button.btn.small", { type: "button", "aria-label": "Next month", onclick: () => loadRecords(shift(1)) }, "›")),
      h("div.calendar", { role: "group", "aria-label": `Your ranked dailies in ${label}` },
        WEEKDAYS.map((w) => h("span.weekday", { "aria-hidden": "true", text: w })), cells),
      h("p", { dataset: { streak: "daily" } }, h("b", { text: `Streak ${st.current}` }), ` (best ${st.best}): ${st.counts}.`),
      h("p.muted", { text: `${daily.days.length} ranked ${daily.days.length === 1 ? "daily" : "dailies"} this month, ${daily.days.filter((d) => d.status === "won").length} won. The number is your rank that day.` }));
  }

  function loadGames(before = null) {
    if (before === null) {
      clear(games).append(h("h2", { id: "games-h", text: "Your games" }));
    }
    api.history(before).then((page) => {
      if (!alive) return;
      games.querySelector("[data-action=more]")?.remove();
      let table = games.querySelector("tbody");
      if (!table) {
        if (!page.games.length) {
          games.append(h("p.muted", { text: "No games yet." }));
          return;
        }
        table = h("tbody");
        games.append(h("div.table-scroll", {}, h("table.history-table", {},
          h("thead", {}, h("tr", {}, ["When", "Game", "Result", "Help", "Replay"].map((t) => h("th", { scope: "col", text: t })))), table)));
      }
      for (const g of page.games) table.append(gameRow(g));
      if (page.next !== null) {
        games.append(h("button.btn", { type: "button", dataset: { action: "more" }, onclick: () => loadGames(page.next) }, "Show older games"));
      }
    }).catch((err) => { if (alive) games.append(h("p.error-text", { text: err.message })); });
  }

  return () => { alive = false; };
}

function gameRow(g) {
  const when = new Date(g.started * 1000).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" });
  const what = g.kind === "daily" ? `Daily ${g.daily}${g.ranked ? "" : " (unranked)"}` : g.kind === "race" ? `Race, round ${g.round}` : "Practice";
  const result = g.status === "won" ? `won in ${clock(g.elapsed)}` : g.status === "playing" ? "being played" : STATUS_WORDS[g.status] || g.status;
  const help = g.clean ? "Clean" : `Assisted: ${[g.hints ? `${g.hints} ${g.hints === 1 ? "hint" : "hints"}` : "", g.autos ? `${g.autos} by Auto` : ""].filter(Boolean).join(", ")}`;
  let replay;
  if (g.replay) replay = h("a", { href: `#${g.replay}`, "aria-label": `Watch the replay of ${what}`, text: "Watch" });
  else if (g.replay_opens_at) replay = h("span.muted", { text: `opens ${new Date(g.replay_opens_at * 1000).toLocaleString("en-GB", { dateStyle: "short", timeStyle: "short" })}` });
  else replay = h("span.muted", { text: "–" });
  return h(`tr${g.clean ? "" : ".assisted"}`, { dataset: { game: g.id } },
    h("td", { text: when }), h("td", {}, h("span", { text: what }), h("small.under", { text: presetLabel(g.preset) })),
    h("td", { text: result }), h("td", { text: help }), h("td", {}, replay));
}

/** Recent results as bars: a win's height is its time (the quicker, the shorter), a game not won
 * a short red mark; assisted results are hatched. */
/** The rating over its rated races, oldest first: a line from the first "before" on. */
function ratingChart(changes) {
  const width = 260;
  const height = 64;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  const values = changes.length ? [changes[0].before, ...changes.map((c) => c.after)] : [];
  svg.setAttribute("aria-label", values.length ? `Your rating over ${changes.length} rated races: ${values.join(", ")}` : "No rated race yet");
  const low = Math.min(...values) - 5;
  const high = Math.max(...values) + 5;
  const x = (i) => (values.length > 1 ? (i / (values.length - 1)) * (width - 4) + 2 : width / 2);
  const y = (v) => height - 2 - ((v - low) / (high - low)) * (height - 4);
  const line = document.createElementNS(NS, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  line.setAttribute("fill", "none");
  line.setAttribute("stroke", "currentColor");
  line.setAttribute("stroke-width", "2");
  svg.append(line);
  return svg;
}

function recentChart(recent) {
  const width = 260;
  const height = 64;
  const svg = document.createElementNS(NS, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "recent-chart");
  svg.setAttribute("role", "img");
  const words = recent.map((r) => (r.status === "won" ? `won ${clock(r.elapsed)}` : STATUS_WORDS[r.status] || r.status) + (r.clean ? "" : " with help"));
  svg.setAttribute("aria-label", recent.length ? `Your last ${recent.length} results, oldest first: ${words.join(", ")}` : "No finished game yet");
  const slowest = Math.max(1, ...recent.filter((r) => r.status === "won").map((r) => r.elapsed || 0));
  const step = width / Math.max(recent.length, 10);
  recent.forEach((r, i) => {
    const bar = document.createElementNS(NS, "rect");
    const tall = r.status === "won" ? Math.max(6, ((r.elapsed || 0) / slowest) * (height - 6)) : 5;
    bar.setAttribute("x", String(i * step + 1));
    bar.setAttribute("width", String(Math.max(2, step - 3)));
    bar.setAttribute("y", String(height - tall));
    bar.setAttribute("height", String(tall));
    bar.setAttribute("class", `${r.status === "won" ? "won" : "lost"}${r.clean ? "" : " assisted"}`);
    const title = document.createElementNS(NS, "title");
    title.textContent = words[i];
    bar.append(title);
    svg.append(bar);
  });
  return svg;
}
