// The daily challenge: play today's deal (one ranked attempt), your result, the leaderboard,
// who is playing it now, and your streak. Past days stay playable, unranked.

import { clear, clock, h } from "../dom.js";
import * as api from "../api.js";
import { openSession } from "../session.js";
import { createGame } from "../game.js";
import { presetLabel } from "../presets.js";
import { STATUS_WORDS } from "../roomstate.js";
import { toast } from "../ui.js";
import { sharePanel } from "../share.js";
import { mountGhosts } from "../ghosts.js";
import { analysisLine, gameId } from "./analysis.js";
import { fillIf, keyedList } from "../keyed.js";

export function todayUTC() {
  return new Date().toISOString().slice(0, 10);
}

export function mountDaily(ctx, date) {
  const { root, store } = ctx;
  const day = date || todayUTC();
  store.set({ daily: null, board: null, myStatus: null, welcomed: false, hints: [] });
  let game = null;
  let summary = null;
  // The leaderboard and "playing now" come aggregated over the socket (the welcome, then a
  // `playing` event every few seconds, our own row in our answers and `rank` frames): the
  // page never polls the HTTP API for them, however many watch.
  const session = openSession(store, { daily: day });
  const title = h("h1", { text: `Daily challenge · ${longDate(day)}` });
  const sub = h("p.lead", { style: "margin-top: -6px" }); // with the title: the board keeps its height
  const main = h("div.race-main");
  // One clock: your time, in the board's score line.
  const clockEl = h("div.clock", { role: "timer", "aria-label": "Your time" }, "0:00");
  const result = h("div");
  const board = h("section.panel.stack", { "aria-labelledby": "lb-h" });
  const playing = h("section.panel.stack");
  const streak = h("section.panel");
  const ghosts = mountGhosts(store, day); // race the day's results as ghosts (unranked only)
  const side = h("aside.side", {}, result, ghosts.el, streak, board, playing);
  const past = h("nav.row", { "aria-label": "Other days" }, h("span.muted", { text: "Other days:" }),
    [1, 2, 3, 4, 5, 6, 7].map((k) => {
      const d = new Date(Date.parse(`${todayUTC()}T12:00:00Z`) - k * 86400000).toISOString().slice(0, 10);
      return h("a", { href: `#/daily/${d}`, text: shortDate(d), "aria-current": d === day ? "page" : null });
    }),
    day !== todayUTC() ? h("a", { href: "#/daily", text: "Today" }) : null);
  root.append(h("div.stack", {}, title, sub, h("div.race-layout", {}, main, h("div.stack", {}, side, past))));

  // The streak is the server's (`you.streak`: the same count as the history page's).
  const loadSummary = () => api.daily(day).then((d) => { summary = d; render(store.get()); }).catch(() => {});
  const loadStreak = loadSummary;
  loadSummary();
  let lastStatus = null;
  const tick = setInterval(drawClock, 250);
  const unsubscribe = store.subscribe(render);

  function attempt(s) {
    const a = s.daily?.attempt || null;
    if (!a) return null;
    return a;
  }

  function render(s) {
    const d = s.daily;
    if (!d) {
      if (s.conn?.state === "failed") {
        clear(main);
        main.append(h("div.panel", {}, h("p", { text: s.conn.message || "This day cannot be played." })));
      } else if (!main.firstChild) main.append(h("p.muted", { role: "status", text: "Dealing today's cards…" }));
      return;
    }
    const a = attempt(s);
    sub.textContent = `${presetLabel(d.preset)} rules · one deal for everyone${d.verified ? ", checked winnable" : ""}. ${rankedNote(d, a)}`;
    if (s.board) {
      if (!game) {
        clear(main);
        game = createGame({
          commands: session,
          label: "Your daily board",
          rules: () => store.get().daily?.rules || {},
          allowUndo: () => true,
          fairUndo: () => store.get().daily?.attempt?.ranked === true,
          // The server says (unranked attempts once the day has closed).
          allowHints: () => store.get().daily?.attempt?.hints_allowed === true,
        });
        main.append(game.el);
        game.clockSlot.append(clockEl);
      }
      game.update(s.board, { finished: a && a.status !== "playing" });
    } else if (!game) {
      clear(main);
      // Told before the start: a player linked to this one (same device) had today's ranked attempt.
      const linked = !a && d.ranked === false && d.unranked_reason === "linked";
      main.append(h("div.panel.stack", {},
        h("h2", { text: a && a.status !== "playing" ? "You have played today's deal" : "Ready when you are" }),
        h("p.muted", { text: a && a.status !== "playing" ? "You can play it again as an unranked attempt; only the first attempt counts." : startNote(d) }),
        linked ? h("p.note", { dataset: { daily: "linked" }, text: LINKED_NOTE }) : null,
        h("button.btn.primary", { type: "button", dataset: { action: "start-daily" }, onclick: () => session.startDaily().catch((e) => toast(e.message)) },
          a && a.status !== "playing" ? "Play again (unranked)" : linked ? "Play (unranked)" : "Play")));
    }
    // A past day's leaderboard is the store's (HTTP): the socket's holds only what this server
    // process saw of that day since it started.
    const stored = day !== todayUTC() ? summary?.leaderboard : null;
    const lb = stored ? { ...(d.leaderboard || {}), top: stored.top, size: stored.size } : d.leaderboard || summary?.leaderboard || {};
    const ended = a && a.status && a.status !== "playing";
    const mineRow = ended && a.ranked !== false ? lb.you : null;
    const place = !ended ? "" : a.ranked === false ? " · unranked" : mineRow ? ` · rank ${mineRow.rank} of ${Math.max(lb.size ?? 0, mineRow.rank)}` : " · ranking…";
    fillIf(result, ended ? JSON.stringify([a, place, s.me?.id]) : "", () => (!ended ? null : h("div.panel.stack", {},
        h("h2", { text: "Your result" }),
        h("p", { text: a.status === "won" ? `Won in ${clock(a.elapsed)}` : `${STATUS_WORDS[a.status] || a.status}: ${a.runs}/4 runs` }),
        h("p.muted", { dataset: { result: "place" }, text: `Score ${a.score} · ${a.moves} moves${place}` }),
        a.ranked !== false && s.me?.id ? sharePanel(`/api/share/daily/${day}/${encodeURIComponent(s.me.id)}`) : null,
        a.attempt && s.me?.id ? analysisLine(gameId(`daily:${day}`, a.attempt, s.me.id)) : null,
        h("button.btn", { type: "button", onclick: () => session.startDaily().catch((e) => toast(e.message)) }, "Play it again (unranked)"))));
    if (a?.status && a.status !== "playing" && lastStatus === "playing") loadStreak();
    lastStatus = a?.status ?? lastStatus;
    const st = summary?.you?.streak;
    fillIf(streak, `${st?.current ?? 0}:${st?.best ?? 0}`, () => [h("h2", { text: "Your streak" }), h("div.row", {},
      h("div.stat-card", {}, h("span", { text: "Current" }), h("b", { text: String(st?.current ?? 0) })),
      h("div.stat-card", {}, h("span", { text: "Best" }), h("b", { text: String(st?.best ?? 0) }))),
    h("p.muted", { dataset: { streak: "counts" }, text: "Ranked dailies won, days in a row. " }, h("a", { href: "#/history" }, "History"))]);
    drawLeaderboard(lb, s.me?.id);
    drawPlaying(d.playing || summary?.playing || {}, s.me?.id);
  }

  // "Playing now" and the leaderboard: kept, their rows keyed by player id (a `playing` event
  // every few seconds, a board notice on every move: only the rows that changed are drawn).
  const playingCount = h("p", { dataset: { playing: "count" } });
  const playingList = h("ul.players");
  const playingRows = keyedList(playingList, { key: (p) => p.player, build: (p) => h("li", {},
    h("span.name", { text: p.name }), h("span.muted", { text: `${p.runs}/4 runs · ${p.turned ?? 0} turned · ${p.moves} ${p.moves === 1 ? "move" : "moves"}` })) });
  playing.append(h("h2", { text: "Playing now" }), playingCount, playingList);

  function drawPlaying(live, me) {
    const count = live.count ?? 0;
    const mine = (live.top || []).some((p) => p.player === me) || store.get().daily?.attempt?.status === "playing";
    const others = Math.max(0, count - (mine ? 1 : 0));
    playingCount.className = others ? "" : "muted";
    setText(playingCount, !others ? "Nobody else right now." : others === 1 ? "1 other player" : `${others} other players`);
    playingRows(others ? (live.top || []).filter((p) => p.player !== me) : []);
    playingList.hidden = !others;
  }

  const pastDay = day !== todayUTC(); // a past day's replays: the server opens them once the day closes
  const lbEmpty = h("p.muted", { text: "No finished attempts yet today. Be the first." });
  const lbBody = h("tbody");
  const lbTable = h("table.leaderboard", {},
    h("thead", {}, h("tr", {}, ["#", "Player", "Result", "Score", ...(pastDay ? ["Replay"] : [])].map((t, i) => h(i === 3 ? "th.num" : "th", { text: t, scope: "col" })))),
    lbBody);
  const lbLegend = h("p.muted.mark-legend", { dataset: { leaderboard: "legend" } }, h("span.new-player", { text: "new" }), ` = ${NEW_PLAYER_NOTE}`);
  const lbSize = h("p.muted", { dataset: { leaderboard: "size" } });
  const lbRows = keyedList(lbBody, {
    key: (e) => e.player ?? "gap",
    build: (e) => (e.player === undefined ? h("tr.gap", { "aria-hidden": "true" }, h("td", { colspan: pastDay ? "5" : "4", text: "…" }))
      : h(`tr${e.me ? ".me" : ""}`, {},
        h("td", { text: String(e.rank) }), h("td.name", {}, h("div.name-row", {},
          h("span", { text: e.name, title: e.name }),
          e.new_player ? h("abbr.new-player", { title: NEW_PLAYER_NOTE, text: "new" }) : null)),
        h("td", { text: e.status === "won" ? clock(e.elapsed) : `${e.runs}/4 runs` }),
        h("td.num", { text: String(e.score) }),
        pastDay ? h("td", {}, h("a", { href: `#/replay/daily/${day}/${encodeURIComponent(e.player)}`, "aria-label": `Replay of ${e.name}'s game`, text: "Replay" })) : null)),
  });
  board.append(h("h2", { id: "lb-h", text: "Leaderboard" }));

  function drawLeaderboard(lb, me) {
    const rows = lb.top || [];
    // The top rows, then ours below them when it is further down (the server's ranks).
    const you = lb.you && !rows.some((e) => e.player === lb.you.player) ? lb.you : null;
    const shown = [...rows, ...(you ? [{}, you] : [])].map((e) => (e.player === undefined ? e : { ...e, me: e.player === me }));
    lbRows(shown);
    const size = (lb.size ?? rows.length) > rows.length ? `${lb.size} on the leaderboard` : "";
    setText(lbSize, size);
    const wanted = !rows.length ? [lbEmpty]
      : [lbTable, ...([...rows, you].some((e) => e?.new_player) ? [lbLegend] : []), ...(size ? [lbSize] : [])];
    const now = [...board.children].slice(1);
    if (now.length !== wanted.length || now.some((el, i) => el !== wanted[i])) {
      now.forEach((el) => el.remove());
      board.append(...wanted);
    }
  }

  function drawClock() {
    const s = store.get();
    const a = attempt(s);
    if (!a || !s.daily) return;
    const now = Date.now() / 1000 + (s.daily.offset || 0);
    const t = a.status === "playing" && a.started_at ? now - a.started_at : a.elapsed || 0;
    clockEl.textContent = clock(t);
  }

  render(store.get());
  return () => {
    clearInterval(tick);
    unsubscribe();
    ghosts.destroy();
    game?.destroy();
    session.close();
  };
}

/** What pressing Play starts. */
function startNote(d) {
  if (d.ranked !== false && d.today !== false) {
    return `Your clock starts when you press Play; a ranked attempt has ${minutes(d.ranked_limit)}.`;
  }
  return "Your clock starts when you press Play. There is no time limit.";
}

function minutes(seconds) {
  return `${Math.round((seconds || 3600) / 60)} minutes`;
}

const LINKED_NOTE = "Another player on this device has played today's ranked attempt: yours will be unranked.";
const NEW_PLAYER_NOTE = "new player: account younger than a day";

/** What the attempt now (or the next one) counts for. */
function rankedNote(d, a) {
  if (a?.ranked && a.status === "playing") return `This attempt is ranked: fair undo, no hints, no Auto, ${minutes(d.ranked_limit)} at most.`;
  if (a?.ranked) return "Your ranked attempt is done; playing again is unranked.";
  if (a && a.status === "playing") return "This is an unranked attempt.";
  if (d.ranked !== false && d.today !== false) return "Your first attempt today is ranked.";
  if (!a && d.unranked_reason === "linked") return "Your attempt today is unranked.";
  return "Playing again is unranked.";
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

function shortDate(day) {
  return new Date(`${day}T12:00:00Z`).toLocaleDateString(undefined, { day: "numeric", month: "short", timeZone: "UTC" });
}

function longDate(day) {
  const d = new Date(`${day}T12:00:00Z`);
  return d.toLocaleDateString(undefined, { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
}
