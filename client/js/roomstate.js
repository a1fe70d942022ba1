// Pure functions: the room snapshot of protocol.md section 5 and how each room event changes it.
// No DOM, no socket: the session feeds them, the views read the result.

export function fromSnapshot(state, clientNow = Date.now() / 1000) {
  return {
    id: state.room,
    creator: state.creator,
    host: state.host ?? state.creator, // host controls: who may start, remove, lock
    locked: !!state.locked,
    listed: !!state.listed, // among the home page's open rooms
    settings: state.settings || {},
    phase: state.phase || "lobby",
    round: state.round || 0,
    countdownAt: state.countdown_at ?? null,
    startedAt: state.started_at ?? null,
    endsAt: state.ends_at ?? null,
    players: (state.players || []).map((p) => ({ ...p })),
    spectators: (state.spectators || []).map((s) => ({ ...s })),
    results: state.results || null,
    timeline: state.results_timeline || state.timeline || null,
    deal: state.deal ?? null,
    dealingUntil: state.dealing_until ?? null, // a winnable deal is being searched
    unverified: null,
    quickRace: !!state.quick_race, // strangers the queue matched: no host, a start by itself
    quick: state.quick ?? null, // {players, start_by} until the race is dealt
    ratings: state.ratings ?? null, // a rated round's changes, by player (docs/protocol.md)
    offset: typeof state.now === "number" ? state.now - clientNow : 0,
  };
}

// A racer at the start: nothing done yet, so all tied (the server's ranks say the same).
const fresh = { status: "playing", runs: 0, score: 0, moves: 0, turned: 0, elapsed: 0, hints: 0, autos: 0, clean: true, ordered: 0, rank: 1 };

export function applyEvent(room, ev, clientNow = Date.now() / 1000) {
  const r = { ...room, players: room.players.map((p) => ({ ...p })), spectators: [...room.spectators] };
  if (typeof ev.now === "number") r.offset = ev.now - clientNow;
  const player = (id) => r.players.find((p) => p.id === id);
  switch (ev.event) {
    case "joined": {
      const info = ev.player || {};
      r.players = r.players.filter((p) => p.id !== info.id || ev.role !== "spectator");
      r.spectators = r.spectators.filter((s) => s.id !== info.id);
      if (ev.role === "player") {
        const existing = player(info.id);
        if (existing) Object.assign(existing, { name: info.name, connected: true });
        else r.players.push({ id: info.id, name: info.name, ready: false, connected: true, ...fresh, status: null });
      } else {
        r.spectators.push({ id: info.id, name: info.name, following: null });
      }
      break;
    }
    case "left": {
      const p = player(ev.player);
      const watching = ev.watching ?? ev.reason === "not-ready"; // stays in the room, watching
      if (p && r.phase === "racing") {
        // A racer who leaves keeps their row with its final status.
        if (p.status === "playing") p.status = "left";
        p.connected = !!watching && p.connected !== false;
      } else if (p) {
        r.players = r.players.filter((x) => x.id !== ev.player);
      }
      const known = r.spectators.find((x) => x.id === ev.player);
      r.spectators = r.spectators.filter((x) => x.id !== ev.player);
      if (watching && (p || known)) r.spectators.push({ id: ev.player, name: (p || known).name, following: null });
      break;
    }
    case "ready": {
      const p = player(ev.player);
      if (p) p.ready = ev.ready !== false;
      break;
    }
    case "presence": {
      const p = player(ev.player);
      if (p) {
        p.connected = ev.connected;
        p.grace_until = ev.connected ? null : ev.grace_until;
      }
      break;
    }
    case "dealing": // a winnable-only room's deal search began (until) or ended (null)
      r.dealingUntil = ev.until ?? null;
      break;
    case "countdown":
      r.quick = null;
      r.phase = "countdown";
      r.round = ev.round ?? r.round;
      r.countdownAt = ev.starts_at;
      r.dealingUntil = null;
      r.unverified = ev.unverified ?? null; // the server's sentence: why the deal is not proved
      break;
    case "start": {
      r.phase = "racing";
      r.round = ev.round ?? r.round;
      r.startedAt = ev.started_at;
      r.endsAt = ev.ends_at ?? null;
      r.results = null;
      r.timeline = null;
      const racing = new Set(ev.players || r.players.map((p) => p.id));
      r.players = r.players.filter((p) => racing.has(p.id));
      for (const p of r.players) Object.assign(p, fresh);
      break;
    }
    case "progress": {
      // Every racer whose numbers changed since the room's last progress event.
      for (const entry of ev.players || []) {
        const p = player(entry.player);
        if (!p) continue;
        for (const key of ["runs", "score", "moves", "turned", "status", "elapsed", "hints", "autos", "clean", "ordered"]) {
          if (entry[key] !== undefined) p[key] = entry[key];
        }
      }
      // The server ranks everyone after each change (ties share a rank).
      for (const [id, rank] of Object.entries(ev.ranks || {})) {
        const q = player(id);
        if (q) q.rank = rank;
      }
      break;
    }
    case "results":
      r.phase = "results";
      r.results = ev.ranking || [];
      r.deal = ev.deal ?? r.deal;
      r.verified = ev.verified ?? null;
      if (ev.timeline) r.timeline = ev.timeline;
      for (const row of r.results) {
        const p = player(row.player);
        if (p) Object.assign(p, { status: row.status, runs: row.runs, score: row.score, moves: row.moves, elapsed: row.elapsed, rank: row.rank, ordered: row.ordered ?? p.ordered });
      }
      break;
    case "rematch": {
      r.phase = "lobby";
      r.ratings = null;
      r.deal = null; // the next round's deal is told with its results
      r.round = ev.round ?? r.round + 1;
      r.results = null;
      r.timeline = null;
      r.countdownAt = r.startedAt = r.endsAt = null;
      r.unverified = null;
      if (Array.isArray(ev.players)) {
        // Only the seated players go on to the next round (racers who lost their seat are gone).
        const seated = new Set(ev.players);
        r.players = r.players.filter((p) => seated.has(p.id));
      }
      // The one who asked is ready for it (docs/protocol.md, `rematch`): the others are asked.
      const ready = new Set(ev.ready || []);
      for (const p of r.players) Object.assign(p, { ready: ready.has(p.id), ...fresh, status: null });
      break;
    }
    case "quick-void":
      r.quick = null;
      r.quickVoid = true;
      break;
    case "rated":
      if (ev.round === r.round) r.ratings = ev.ratings || null;
      break;
    case "league":
      r.settings = { ...r.settings, league: !!ev.league };
      break;
    case "league-points": // a round's points were kept: the league table is fetched again
      r.leagueRound = ev.round;
      break;
    case "settings":
      r.settings = { ...r.settings, ...(ev.settings || {}) };
      break;
    case "host":
      r.host = ev.player;
      break;
    case "locked":
      r.locked = !!ev.locked;
      break;
    case "listed":
      r.listed = !!ev.listed;
      break;
    case "rating":
      r.settings = { ...r.settings, rated: !!ev.rated };
      break;
    default:
      break;
  }
  return r;
}

/**
 * The racers with your own row's numbers taken from your own view (exact): the room's progress
 * events carry what everyone else may see of you (protocol.md, "What an observer sees of a
 * racer, and why"), which can be less. Ranks stay the server's.
 */
export function withOwnNumbers(players, me, view) {
  if (!view || !me) return players;
  return players.map((p) => (p.id === me
    ? { ...p, score: view.score, moves: view.moves, turned: view.turned, runs: (view.runs || []).length, ordered: view.ordered ?? p.ordered }
    : p));
}

/** A score as shown: others' scores may be withheld until the results (null: "–"). */
export function scoreText(score) {
  return score === null ? "–" : String(score || 0);
}

/** Racers in the order of the ranks the server sent (the client never ranks anyone). */
export function byRank(players) {
  return [...players].sort((a, b) => (a.rank ?? Infinity) - (b.rank ?? Infinity));
}

export const STATUS_WORDS = {
  playing: "racing",
  won: "finished",
  lost: "no moves left",
  "gave-up": "gave up",
  "timed-out": "out of time",
  left: "left",
};
