// One place's conversation (a room, a daily or your practice): owns its Connection, turns the
// server's frames into store state and exposes the commands the views call. Knows the
// protocol's meaning; socket.js only knows its transport. Views read the store, never a frame.

import { Connection } from "./socket.js";
import { player, token } from "./api.js";
import { applyEvent, fromSnapshot } from "./roomstate.js";

/** The player's shard of a day's daily as the server said it ("" when not known yet). */
function dailyShard() {
  const shard = player()?.daily_shard;
  return Number.isInteger(shard) ? String(shard) : "";
}

const TIMELINE_KEY = (room, round) => `scorpion.timeline.${room}.${round}`;

/** Open the conversation of one place: `room` (an id), `daily` (a day) or `practice` (true).
 * onEvent(ev) after each event is in the store; onWelcome(w) after each welcome is. */
export function openSession(store, { room = null, daily = null, practice = false, onEvent = () => {}, onWelcome: welcomed = () => {} }) {
  let conn = null;
  let startWatch = null;

  const set = (patch) => store.set(patch);
  const get = () => store.get();

  function saveTimeline(r, timeline) {
    try {
      sessionStorage.setItem(TIMELINE_KEY(r.id, r.round), JSON.stringify(timeline));
    } catch { /* storage full or disabled: the chart is only for this tab */ }
  }

  function loadTimeline(r) {
    try {
      return JSON.parse(sessionStorage.getItem(TIMELINE_KEY(r.id, r.round)) || "null");
    } catch {
      return null;
    }
  }

  function track(r, ev, current) {
    // The race's progress over its clock, for the results chart.
    let timeline = current ? { ...current } : current;
    if (ev.event === "start") {
      timeline = {};
      for (const p of r.players) timeline[p.id] = [[0, 0, 0]];
    } else if (ev.event === "progress" && timeline) {
      for (const p of ev.players || []) {
        const series = [...(timeline[p.player] || [[0, 0, 0]])];
        timeline[p.player] = series;
        series.push([p.elapsed ?? 0, p.runs ?? 0, p.score ?? 0]);
      }
    } else if (ev.event === "rematch") {
      timeline = null;
    }
    if (timeline) saveTimeline(r, timeline);
    return timeline;
  }

  function onWelcome(w) {
    if (practice) {
      // A game in hand (another tab, a reconnect, a restart): go on with it.
      const held = w.state?.game;
      if (held && held.status === "playing") set({ practice: { game: { ...held, number: held.game } }, board: w.view || null });
      set({ welcomed: true });
      welcomed(w);
      return;
    }
    const me = { ...(get().me || {}), id: w.you?.id, name: w.you?.name ?? get().me?.name };
    const patch = { me, role: w.you?.role || "spectator", welcomed: true };
    if (daily) {
      patch.daily = { ...w.state, offset: (w.state?.now ?? w.now ?? Date.now() / 1000) - Date.now() / 1000 };
      patch.board = w.view || null;
    } else {
      let r = w.recovered && get().room ? get().room : fromSnapshot(w.state || {});
      if (!w.recovered) r = fromSnapshot(w.state || {});
      let timeline = r.timeline || loadTimeline(r) || get().timeline;
      patch.room = r;
      patch.timeline = timeline;
      for (const ev of w.events || []) {
        patch.room = applyEvent(patch.room, ev);
        timeline = track(patch.room, ev, timeline);
      }
      patch.timeline = patch.room.timeline || timeline;
      if (patch.room.phase !== "lobby") patch.keptResults = null;
      if (typeof w.state?.now === "number") patch.room = { ...patch.room, offset: w.state.now - Date.now() / 1000 };
      const mine = patch.room.players.find((p) => p.id === me.id);
      if (mine && patch.room.phase !== "lobby") patch.board = w.view || get().board;
      else if (w.view && get().follow) patch.follow = { ...get().follow, view: w.view };
      else patch.board = mine ? w.view || null : null;
    }
    set(patch);
    welcomed(w);
    // A follow is per socket: after a reconnect, ask again for the board being watched.
    const follow = get().follow;
    if (!daily && follow?.player && conn && !w.view) {
      conn.send("follow", { player: follow.player })
        .then((a) => { if (get().follow?.player === follow.player) set({ follow: { ...follow, view: a.view || follow.view, views: a.views || follow.views } }); })
        .catch(() => {});
    }
  }

  function onEventFrame(ev) {
    if (daily) {
      set({ daily: applyDailyEvent(get().daily, ev) });
      onEvent(ev);
      return;
    }
    const before = get().room;
    const r = applyEvent(before, ev);
    const timeline = track(r, ev, get().timeline);
    const patch = { room: r, timeline: r.timeline || timeline };
    if (r.phase !== "lobby") patch.keptResults = null;
    else if (ev.event === "rematch" && ev.by !== get().me?.id && before.phase === "results" && before.results) {
      // Issue 23: someone else's rematch does not pull you off the results: they are kept
      // (with who asked) until you join the rematch or leave them (dropKeptResults).
      const by = r.players.find((x) => x.id === ev.by)?.name || before.results.find((x) => x.player === ev.by)?.name || "A racer";
      patch.keptResults = { room: before, timeline: get().timeline, by, round: ev.round };
    }
    if (ev.event === "start" || ev.event === "rematch") {
      patch.board = null;
      patch.hints = [];
      // Watching everyone goes on into the next round (the server keeps it); a racer stops.
      const all = get().follow?.player === "*" && !(ev.players || []).includes(get().me?.id);
      patch.follow = all ? { player: "*", views: {} } : null;
    }
    set(patch);
    if (ev.event === "start") expectBoard();
    onEvent(ev);
  }

  // Our opening board should arrive as a per-recipient `view` right after `start`; if it does
  // not (older servers), reconnecting gets it in the welcome.
  function expectBoard() {
    clearTimeout(startWatch);
    const me = get().me?.id;
    if (!get().room?.players.some((p) => p.id === me)) return;
    startWatch = setTimeout(() => {
      if (!get().board && conn) conn.reconnectNow();
    }, 1500);
  }

  function onMessage(frame) {
    // Another tab of ours played: its board is ours too.
    if (practice && frame.type === "view") return showPractice(frame);
    if (frame.type === "rank" && daily && get().daily) {
      // Our ranked result's place moved (someone finished above us): the server's rank.
      const d = get().daily;
      set({ daily: { ...d, leaderboard: { ...d.leaderboard, you: frame.row, size: frame.size ?? d.leaderboard?.size } } });
      return;
    }
    if (frame.type === "view") {
      const me = get().me?.id;
      if (daily && get().daily && frame.player === me && frame.attempt) {
        set({ myStatus: frame.status, ...attemptPatch(frame) });  // e.g. the time limit ran out
      }
      if (frame.player === me && !get().follow) set({ board: frame.view });
      else if (get().follow?.player === "*" && frame.player !== me) {
        const follow = get().follow;
        set({ follow: { ...follow, views: { ...follow.views, [frame.player]: frame.view } } });
      } else if (get().follow && get().follow.player === frame.player) {
        set({ follow: { ...get().follow, view: frame.view } });
      } else if (frame.player === me) set({ board: frame.view });
    }
  }

  function onStatus(s) {
    set({ conn: s });
  }

  conn = new Connection({
    hello: () => (practice ? { token: token(), practice: true } : daily ? { token: token(), daily } : { token: token(), room }),
    // A daily's hint names the player's shard of the day (docs/protocol.md section 1).
    place: practice ? { practice: get().me?.id } : daily ? { daily, shard: dailyShard() } : { room },
    onWelcome,
    onEvent: onEventFrame,
    onMessage,
    onStatus,
  }).start();

  /** The daily's answers (and the `view` that ends a ranked attempt at its time limit)
   * carry the attempt: the page's copy of it, kept current. */
  function attemptPatch(answer) {
    const v = answer.view;
    const before = get().daily.attempt || {};
    const patch = {
      daily: {
        ...get().daily,
        attempt: {
          ...before,
          attempt: answer.attempt ?? before.attempt,
          status: answer.status ?? before.status,
          elapsed: answer.elapsed ?? before.elapsed,
          started_at: answer.started_at ?? before.started_at,
          ends_at: answer.ends_at !== undefined ? answer.ends_at : before.ends_at,
          ranked: answer.ranked ?? before.ranked,
          hints_allowed: answer.hints_allowed ?? before.hints_allowed,
          runs: v.runs.length,
          score: v.score,
          moves: v.moves,
        },
      },
    };
    // The answer that ends our ranked attempt carries our leaderboard row.
    if (answer.rank) patch.daily.leaderboard = { ...(get().daily.leaderboard || {}), you: answer.rank };
    return patch;
  }

  /** A practice answer or `view` message: the game in hand (`fresh`: a new one) and its board. */
  function showPractice(answer, fresh = false) {
    const held = fresh ? null : get().practice?.game;
    const number = answer.game ?? held?.number;
    const same = held && held.number === number;
    const game = { ...(same ? held : {}), ...answer, number, preset: answer.preset ?? held?.preset };
    delete game.view;
    set({ practice: { game }, ...(answer.view ? { board: answer.view } : {}) });
    return answer;
  }

  /** A board command: the answer's view becomes our board. */
  async function boardCommand(type, fields) {
    const answer = await conn.send(type, fields);
    if (practice) return showPractice(answer);
    const patch = { hints: [] };
    if (answer.view) patch.board = answer.view;
    if (answer.status) patch.myStatus = answer.status;
    if (daily && get().daily && answer.view) Object.assign(patch, attemptPatch(answer));
    set(patch);
    return answer;
  }

  return {
    connection: conn,
    move: (text) => boardCommand("move", { move: text }),
    deal: () => boardCommand("deal"),
    undo: () => boardCommand("undo"),
    giveUp: () => boardCommand("give-up"),
    auto: () => boardCommand("auto"), // answers with `auto`: the move played, or "give-up"
    async hint() {
      const answer = await conn.send("hint");
      const hints = (answer.hints || []).map((h) => h.move);
      set({ hints });
      return hints;
    },
    /** Practice: deal a new game of `preset` (the game in hand, if begun, counts as given up). */
    newDeal: async (preset) => showPractice(await conn.send("new-deal", { preset }), true),
    async startDaily() {
      return boardCommand("start");
    },
    join: (as = "player") => conn.send("join", { as }),
    leave: () => conn.send("leave"),
    ready: (ready = true) => conn.send("ready", { ready }),
    start: () => conn.send("start"),
    rematch: () => conn.send("rematch", { round: get().room?.round }),
    /** Stop showing the results kept after someone else's rematch. */
    dropKeptResults: () => set({ keptResults: null }),
    kick: (player) => conn.send("kick", { player }),
    lock: (locked) => conn.send("lock", { locked }),
    list: (listed) => conn.send("list", { listed }),
    rating: (rated) => conn.send("rating", { rated }),
    league: (league) => conn.send("league", { league }),
    handHost: (player) => conn.send("hand-host", { player }),
    report: (player, reason = "") => conn.send("report", { player, reason }),
    async follow(player) {
      set({ follow: player ? { player, view: null, views: {} } : null });
      const answer = await conn.send("follow", { player });
      if (player && get().follow?.player === player) set({ follow: { player, view: answer.view || null, views: answer.views || {} } });
      return answer;
    },
    close() {
      clearTimeout(startWatch);
      conn.close();
    },
  };
}

// The daily sends "playing now" and the leaderboard aggregated (docs/protocol.md section 6):
// each `playing` event replaces what we hold; its ranks are the server's.
function applyDailyEvent(d, ev) {
  if (!d || ev.event !== "playing") return d;
  const next = { ...d, playing: ev.playing || { count: 0, top: [] } };
  if (typeof ev.now === "number") next.offset = ev.now - Date.now() / 1000;
  if (ev.leaderboard) next.leaderboard = { ...ev.leaderboard, you: d.leaderboard?.you ?? null };
  return next;
}
