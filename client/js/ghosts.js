// Ghosts: race the day's best, a player from the leaderboard, or your own ranked result, as
// racers beside your board (numbers and bars, no board). The server gives each ghost's runs
// and score over the race clock (GET /api/ghosts/daily/...); this module only steps through
// them on your attempt's clock: it derives nothing. Practice only: ghosts are offered when
// your attempt is unranked, so a ghost race never changes the leaderboard (docs/client.md).

import { clear, clock, h } from "./dom.js";
import * as api from "./api.js";
import { keyedList } from "./keyed.js";

const MOST = 3; // ghosts at once

/** A ghost's numbers at `t` seconds of the race clock: the last point at or before `t`;
 * its end status once `t` reaches its final time. */
export function ghostAt(ghost, t) {
  let runs = 0;
  let score = ghost.timeline[0]?.[2] ?? 0;
  for (const [at, r, s] of ghost.timeline) {
    if (at > t) break;
    runs = r;
    score = s;
  }
  return { runs, score, status: t >= ghost.elapsed ? ghost.status : "playing" };
}

/** Your attempt's race clock (the server's `started_at` and clock offset), frozen when it
 * has ended; 0 before you start. */
export function attemptClock(daily) {
  const a = daily?.attempt;
  if (!a) return 0;
  if (a.status === "playing" && a.started_at) return Math.max(0, Date.now() / 1000 + (daily.offset || 0) - a.started_at);
  return a.elapsed || 0;
}

/** Ghosts are for an attempt that cannot be ranked: a past day's, or today's once your ranked
 * attempt has ended (the server refuses them before that). */
function offered(day, daily) {
  if (!daily) return false;
  if (day !== new Date().toISOString().slice(0, 10)) return true;
  const a = daily.attempt;
  if (a) return !(a.ranked && a.status === "playing");
  return daily.ranked === false;
}

export function mountGhosts(store, day) {
  const ghosts = [];
  let choices = [];
  const list = h("ol.racers.ghost-list", { "aria-label": "You and your ghosts" });
  const note = h("p.muted", { role: "status", dataset: { ghosts: "note" } });
  const picker = h("div.row.ghost-picker");
  const el = h("div.panel.stack.ghosts", { role: "region", "aria-labelledby": "ghosts-h", hidden: true, dataset: { ghosts: "panel" } },
    h("h2", { id: "ghosts-h", text: "Race the ghosts" }),
    h("p.muted", { text: "Their runs and score at their real times, beside yours. Practice only: never ranked." }),
    picker, list, note);

  // A hundred rows of the leaderboard to pick from (the live one holds the top ten).
  const refresh = () => api.leaderboard(day).then((page) => { choices = page.rows || []; draw(); }).catch(() => {});
  refresh();

  function rowsOf(lb) {
    const rows = [...(lb?.top || []), ...(lb?.you ? [lb.you] : [])];
    return rows.filter((row, i) => rows.findIndex((r) => r.player === row.player) === i);
  }

  async function add(player) {
    if (!player || ghosts.some((g) => g.player === player) || ghosts.length >= MOST) return;
    note.textContent = "";
    try {
      ghosts.push(await api.ghost(day, player));
    } catch (e) {
      note.textContent = e.message;
    }
    draw();
  }

  function draw() {
    const s = store.get();
    el.hidden = !offered(day, s.daily);
    if (el.hidden) return;
    const live = rowsOf(s.daily?.leaderboard);
    const all = rowsOf({ top: [...choices, ...live] });
    const me = s.me?.id;
    const best = all.find((row) => row.rank === 1);
    const mine = all.find((row) => row.player === me);
    const others = all.filter((row) => row.player !== me && !ghosts.some((g) => g.player === row.player));
    clear(picker);
    if (!all.length) picker.append(h("span.muted", { text: "No ranked results on this day yet." }));
    if (best && best.player !== me) picker.append(button("The day's best", best.player, "best", `Race the day's best, ${best.name}`));
    if (mine) picker.append(button("Your ranked result", me, "mine", "Race your ranked result"));
    if (others.length) {
      const select = h("select", { "aria-label": "Race a player from the leaderboard", dataset: { ghost: "pick" },
        onchange: () => { add(select.value); } },
      h("option", { value: "", text: "A player…" }),
      others.map((row) => h("option", { value: row.player, text: `${row.rank}. ${row.name}` })));
      picker.append(select);
    }
    tick();
  }

  function button(label, player, kind, title) {
    const taken = ghosts.some((g) => g.player === player) || ghosts.length >= MOST;
    return h("button.btn", { type: "button", title, dataset: { ghost: kind }, disabled: taken, onclick: () => add(player) }, label);
  }

  function tick() {
    const s = store.get();
    if (el.hidden || !ghosts.length) {
      rows([]);
      return;
    }
    const t = attemptClock(s.daily);
    const you = s.board ? { runs: (s.board.runs || []).length, score: s.board.score ?? 0,
      status: s.daily?.attempt?.status || "ready" } : { runs: 0, score: 0, status: "ready" };
    rows([{ name: "You", at: you, ghost: null, cls: ".me" }, ...ghosts.map((g) => ({ name: `${g.name} (ghost)`, at: ghostAt(g, t), ghost: g, cls: ".ghost" }))]);
  }

  // Every 250 ms: only a row whose numbers moved is drawn again (keyed by player).
  const rows = keyedList(list, {
    key: (x) => x.ghost?.player ?? "you",
    sig: (x) => JSON.stringify([x.name, x.at, x.ghost?.rank, x.ghost ? x.ghost.elapsed : x.at.status === "won" && attemptClock(store.get().daily)]),
    build: (x) => row(x.name, x.at, x.ghost, x.cls),
  });

  function row(name, at, ghost, cls) {
    const pips = h("span.runs-pips", { "aria-hidden": "true" }, [0, 1, 2, 3].map((k) => h(k < at.runs ? "i.on" : "i")));
    const ended = at.status !== "playing" && at.status !== "ready";
    const tag = ended ? h(`span.tag${at.status === "won" ? ".won" : ".out"}`,
      { text: at.status === "won" ? `finished ${clock(ghost ? ghost.elapsed : attemptClock(store.get().daily))}` : at.status.replace("-", " ") }) : null;
    const bar = h("i");
    bar.style.width = `${(at.status === "won" ? 100 : (100 * at.runs) / 4).toFixed(0)}%`;
    return h(`li.racer${cls}`, { dataset: ghost ? { ghost: ghost.player } : { ghost: "you" },
      "aria-label": `${name}: ${at.runs} of 4 runs, score ${at.score}${ended ? `, ${tag.textContent}` : ""}` },
    h("span.rank", { text: ghost ? String(ghost.rank) : "–", title: ghost ? "Their rank that day" : null }),
    h("span.name", { text: name }),
    h("span.score", { dataset: { ghostScore: "" }, text: String(at.score) }),
    h("span.detail", {}, pips, h("span", { dataset: { ghostRuns: "" }, text: `${at.runs}/4 runs` }), tag),
    h("span.mini-progress", { "aria-hidden": "true" }, bar));
  }

  const unsubscribe = store.subscribe(() => {
    const hidden = !offered(day, store.get().daily);
    if (hidden === el.hidden) return;
    if (!hidden) refresh(); // offered now that your ranked attempt has ended: its row is in
    draw();
  });
  const timer = setInterval(tick, 250);
  return { el, destroy: () => { clearInterval(timer); unsubscribe(); } };
}
