// A room: the lobby, the countdown, the race (your board and everyone's progress), watching
// (follow one racer's board) and the results with the chart and rematch.

import { announce, clear, clock, h } from "../dom.js";
import { createRoomNotices } from "./roomnotices.js";
import { createAutoJoin } from "./autojoin.js";
import * as api from "../api.js";
import { openSession } from "../session.js";
import { createLobby } from "./lobby.js";
import { createRoomResults } from "./roomresults.js";
import { createGame } from "../game.js";
import { createRacersList } from "../racers.js";
import { fillIf, keyedList } from "../keyed.js";
import { presetLabel } from "../presets.js";
import { byRank, scoreText, STATUS_WORDS, withOwnNumbers } from "../roomstate.js";
import { toast } from "../ui.js";
import { createWatchAll } from "./watchall.js";
import { openRules } from "./rules.js";
import { play } from "../sound.js";

export function mountRoom(ctx, roomId) {
  const { root, store } = ctx;
  store.set({ room: null, board: null, follow: null, hints: [], timeline: null, welcomed: false, role: null, myStatus: null, keptResults: null });
  const tell = createRoomNotices();
  const session = openSession(store, { room: roomId, onEvent });
  const autoJoin = createAutoJoin({ roomId, session, me });
  // What is on screen (the store holds what the server said): the mode drawn, its parts and
  // the boards shown.
  let mode = null;
  let parts = {};
  let game = null;
  let gameRound = null;
  let watch = null; // readonly game for a followed board
  let watchPlayer = null;
  const results = createRoomResults({ store, session, me, redraw: () => update(store.get()) });
  const tick = setInterval(drawClock, 250);
  const unsubscribe = store.subscribe(render);

  function me() { return store.get().me?.id; }
  function mine(s = store.get()) { return s.room?.players.find((p) => p.id === me()); }

  function onEvent(ev) {
    const s = store.get();
    tell(ev, me(), s.room);
    if (ev.event === "rematch" && s.keptResults?.round === ev.round) {
      announce(`${s.keptResults.by} asked for a rematch`);
    } else if (ev.event === "quick-void") {
      // Too few of the matched racers came: back to the queue, keeping the rules.
      toast("Too few racers came: back to the queue.", "info");
      ctx.go(`#/quick/${encodeURIComponent(s.room?.settings?.preset || "classic")}`);
    }
  }

  function wantedMode(s) {
    if (s.conn?.state === "failed") return "failed";
    if (!s.welcomed || !s.room) return "connecting";
    const phase = s.room.phase;
    if (phase === "lobby" && s.keptResults && (mode === "race" || mode === "watch")) return mode;
    if (phase === "lobby" || phase === "countdown") return "lobby";
    return mine(s) ? "race" : "watch";
  }

  function render(s) {
    autoJoin(s);
    const m = wantedMode(s);
    if (m !== mode) build(m, s);
    update(s);
  }

  function build(m, s) {
    mode = m;
    game?.destroy();
    game = null;
    watch = null;
    watchPlayer = null;
    parts.watchAll?.destroy();
    clear(root);
    parts = {};
    if (m === "failed" && s.conn?.code === "name-taken") {
      // Another member's name looks the same as ours (docs/protocol.md): rename, come back.
      const input = h("input.input", { id: "other-name", maxlength: "24", required: true, autocomplete: "nickname" });
      const error = h("p.error-text", { role: "alert" });
      const rename = async (e) => {
        e.preventDefault();
        try {
          await api.rename(input.value.trim());
          location.reload();
        } catch (err) {
          error.textContent = err.message;
        }
      };
      root.append(h("div.panel.stack", {}, h("h1", { text: "Pick another name" }), h("p.muted", { text: s.conn.message }),
        h("form.stack", { onsubmit: rename }, h("label.field", { for: "other-name" }, "Your name in this room", input), error,
          h("div.row", {}, h("button.btn.primary", { type: "submit" }, "Join with this name")))));
      return;
    }
    if (m === "failed") {
      const msg = s.conn?.code === "unknown-room" ? "This room does not exist (or it has closed)." : s.conn?.message || "Cannot connect.";
      root.append(h("div.panel.stack", {}, h("h1", { text: "Room not found" }), h("p.muted", { text: msg }),
        h("a.btn.primary", { href: "#/" }, "Start a new race")));
      return;
    }
    if (m === "connecting") {
      root.append(h("p.muted", { role: "status", text: "Connecting to the room…" }));
      return;
    }
    if (m === "lobby") {
      parts.lobby = createLobby({ roomId, session, me });
      root.append(parts.lobby.el);
    }
    else buildRace(m);
    parts.overlay = h("div");
    root.append(parts.overlay);
  }

  // ------------------------------------------------------------------- race
  function buildRace(m) {
    // One race clock, in the board's score line (always above the board, which fits the window),
    // or at the top of the side panel while no board is shown.
    parts.clock = h("div.clock", { role: "timer", "aria-label": "Race clock" }, "0:00");
    parts.clockRow = h("div.panel.row.clock-row", {}, h("span.muted", { text: "Race clock" }));
    parts.side = h("aside.side", { "aria-label": "Race" });
    // The racers panel: kept, and updated row by row (keyed by player id) on each notice.
    parts.racersTitle = h("h2");
    parts.racersList = createRacersList();
    parts.watching = h("p.muted", { dataset: { watching: "count" } });
    parts.unverified = h("p.muted", { dataset: { deal: "unverified" } });
    parts.racers = h("div.panel", {}, parts.racersTitle, parts.racersList.el, parts.watching);
    parts.info = h("div");
    parts.main = h("div.race-main");
    // The rules open over the board (a dialog): the race goes on behind it.
    const help = h("button.btn.small.help-button", { type: "button", "aria-label": "Rules", title: "Rules",
      onclick: () => openRules(store.get().room?.settings?.preset) }, "?");
    parts.side.append(h("div.row.help-row", {}, help), parts.clockRow, parts.racers, parts.info);
    // After the results are closed: the way back to them and to a rematch, above everything.
    parts.bar = h("div.results-bar", { role: "region", "aria-label": "Race over", hidden: true });
    // On a phone the side panel falls below the board: a compact strip keeps the race in view.
    parts.strip = h("div.mini-strip", { "aria-hidden": "true" });
    parts.chips = keyedList(parts.strip, {
      key: (p) => p.id,
      sig: (p) => JSON.stringify([p.id === me(), p.name, p.status, p.rank, p.ordered, p.runs, p.score]),
      build: (p) => h(`span.chip${p.id === me() ? ".me" : ""}${p.status && p.status !== "playing" ? ".done" : ""}`, {},
        h("b", { text: p.rank ? String(p.rank) : "–" }), h("span.chip-name", { text: p.id === me() ? "You" : p.name }),
        h("span", { text: `${p.ordered || 0}/52 · ${p.runs || 0}/4 · ${scoreText(p.score)}` })),
    });
    if (m === "race") root.append(parts.bar, h("div.race-layout", {}, h("div", {}, parts.strip, parts.main), parts.side));
    else root.append(parts.bar, h("div.watch-grid", {}, parts.side, parts.main));
  }

  /** Put the one race clock in the board shown (own, else followed), else in the side panel. */
  function placeClock() {
    const slot = game?.clockSlot || watch?.clockSlot || parts.clockRow;
    if (parts.clock.parentElement !== slot) slot.append(parts.clock);
    parts.clockRow.hidden = slot !== parts.clockRow;
  }

  function ensureGame(s) {
    const r = s.room;
    if (game && gameRound === r.round) return;
    game?.destroy();
    clear(parts.main);
    gameRound = r.round;
    game = createGame({
      commands: session,
      label: "Your board",
      allowUndo: () => store.get().room?.settings?.undo !== "off",
      fairUndo: () => store.get().room?.settings?.undo === "fair",
      allowHints: () => !!store.get().room?.settings?.hints,
      allowAuto: () => !!store.get().room?.settings?.auto,
      rules: () => store.get().room?.settings?.rules || {},
    });
    parts.main.append(game.el);
  }

  function ensureWatch(s, playerId) {
    if (watch && watchPlayer === playerId) return;
    watchPlayer = playerId;
    parts.watchHost?.remove(); // following someone else now
    const p = s.room.players.find((x) => x.id === playerId);
    watch = createGame({ commands: {}, readonly: true, label: `${p?.name || "Racer"}'s board`, rules: () => store.get().room?.settings?.rules || {} });
    parts.followTitle = h("h2", { text: `Following ${p?.name || "a racer"}`, style: "margin:0;flex:1" });
    parts.watchHost = h("div.stack", {},
      h("div.row", {}, parts.followTitle,
        h("button.btn.small", { type: "button", onclick: () => session.follow(null).catch((e) => toast(e.message)) }, mode === "race" ? "Back to my board" : "Stop following")),
      watch.el);
    if (mode === "watch") {
      clear(parts.main);
      parts.main.append(parts.watchHost);
    } else {
      // Your game is over: the followed board takes its place, at the top, in view (issue 23).
      if (game) game.el.hidden = true;
      parts.main.prepend(parts.watchHost);
      parts.followTitle.textContent = `Following ${p?.name || "a racer"}`;
    }
    parts.watchHost.scrollIntoView?.({ block: "start" });
  }

  function updateRace(s) {
    const r = s.room;
    const followed = s.follow?.player || null;
    const pick = (id) => session.follow(id === followed ? null : id).catch((e) => toast(e.message));
    const mySeat = mine(s);
    const canFollow = mode === "watch" || (mySeat && mySeat.status && mySeat.status !== "playing");
    // Your row: your exact numbers, from your own view; the others': what everyone may see.
    const players = r.phase === "racing" ? withOwnNumbers(r.players, me(), s.board) : r.players;
    setText(parts.racersTitle, `${presetLabel(r.settings?.preset)} · ${r.players.length} ${r.players.length === 1 ? "racer" : "racers"}`);
    parts.racersList.update(players, { me: me(), followed, onPick: canFollow ? pick : null });
    setText(parts.watching, watchingText(r.spectators.length));
    setText(parts.unverified, r.unverified || "");
    if (r.unverified && !parts.unverified.parentElement) parts.racers.append(parts.unverified);
    else if (!r.unverified) parts.unverified.remove();
    parts.chips(r.players.length > 1 ? byRank(players) : []);
    if (mode === "race") {
      ensureGame(s);
      if (s.board) game.update(s.board, { finished: mySeat?.status && mySeat.status !== "playing" });
      const over = mySeat?.status && mySeat.status !== "playing" && r.phase === "racing";
      fillIf(parts.info, over ? `${mySeat.status}:${mySeat.elapsed}` : "", () => (over ? h("div.panel.stack", {},
        h("h3", { text: mySeat.status === "won" ? `You finished in ${clock(mySeat.elapsed)}!` : `Your game is over: ${STATUS_WORDS[mySeat.status]}` }),
        h("p.muted", { text: "Click a racer to watch their board while the others finish." })) : null));
      if (followed && s.follow?.view) {
        ensureWatch(s, followed);
        watch.update(s.follow.view);
      } else if (!followed && parts.watchHost) {
        parts.watchHost.remove();
        parts.watchHost = null;
        watch = null;
        watchPlayer = null;
        game.el.hidden = false;
      }
    } else {
      fillIf(parts.info, "", () => null);
      if (followed !== "*" && parts.watchAll) {
        parts.watchAll.destroy();
        parts.watchAll = null;
        clear(parts.main);
      }
      if (followed === "*") {
        watch = null;
        watchPlayer = null;
        if (!parts.watchAll) {
          clear(parts.main);
          parts.watchAll = createWatchAll({ rules: () => store.get().room?.settings?.rules || {},
            onStop: () => session.follow(null).catch((e) => toast(e.message)) });
          parts.main.append(parts.watchAll.el);
        }
        parts.watchAll.update(r.players, s.follow.views);
      } else if (!followed) {
        watch = null;
        watchPlayer = null;
        const any = r.players.length > 0;
        if (parts.intro?.parentElement !== parts.main || parts.introAny !== any) {
          // Drawn when it changes, not on every notice: its button keeps its focus.
          clear(parts.main);
          parts.introAny = any;
          parts.intro = h("div.panel.stack", {},
            h("h2", { text: "Watching the race" }),
            h("p.muted", { text: any ? "Click a racer to follow their board live, or watch every board at once. You see exactly what they see." : "Nobody is racing." }),
            any ? h("div.row", {}, h("button.btn.primary", { type: "button", dataset: { action: "watch-all" },
              onclick: () => session.follow("*").catch((e) => toast(e.message)) }, "Watch every board")) : null);
          parts.main.append(parts.intro);
        }
      } else {
        ensureWatch(s, followed);
        if (s.follow.view) watch.update(s.follow.view, { finished: true });
      }
      const fp = r.players.find((x) => x.id === followed);
      if (fp && parts.followTitle) {
        const state = fp.status && fp.status !== "playing" ? ` · ${fp.status === "won" ? `finished in ${clock(fp.elapsed)}` : STATUS_WORDS[fp.status]}` : "";
        parts.followTitle.textContent = `Following ${fp.name}${state}`;
      }
    }
    placeClock();
    results.draw(s, parts);
  }

  function update(s) {
    if ((mode === "race" || mode === "watch") && s.keptResults && s.room.phase === "lobby") {
      results.drawKept(s.keptResults, parts);
      return;
    }
    if (mode === "lobby") {
      parts.lobby.update(s);
      drawCountdown(s);
    } else if (mode === "race" || mode === "watch") {
      updateRace(s);
    }
  }

  function drawCountdown(s) {
    if (!parts.overlay) return;
    if (s.room.phase !== "countdown") {
      clear(parts.overlay);
      return;
    }
    if (!parts.overlay.querySelector(".countdown")) {
      clear(parts.overlay);
      const note = s.room.unverified ? h("p.note.countdown-note", { dataset: { note: "unverified" }, text: s.room.unverified }) : null;
      parts.overlay.append(h("div.overlay", { "aria-hidden": "true" }, h("div.stack.countdown-wrap", {}, h("div.countdown", { text: "3" }), note)));
    }
  }

  function drawClock() {
    const s = store.get();
    const r = s.room;
    if (!r) return;
    const now = Date.now() / 1000 + (r.offset || 0);
    if (r.phase === "countdown" && r.countdownAt) {
      const el = parts.overlay?.querySelector(".countdown");
      const n = String(Math.max(1, Math.ceil(r.countdownAt - now)));
      if (el && el.textContent !== n) {
        el.textContent = n;
        play("countdown");
      }
      return;
    }
    if (!parts.clock || !r.startedAt) return;
    let text;
    if (r.phase === "results") text = clock(Math.max(0, ...(r.results || []).map((x) => x.elapsed || 0)));
    else if (r.endsAt) {
      const left = r.endsAt - now;
      text = `${clock(left)} left`;
      parts.clock.classList.toggle("low", left < 60);
    } else text = clock(now - r.startedAt);
    if (parts.clock.textContent !== text) parts.clock.textContent = text;
  }

  render(store.get());
  return () => {
    clearInterval(tick);
    unsubscribe();
    game?.destroy();
    session.close();
  };
}

function setText(el, text) {
  if (el.textContent !== text) el.textContent = text;
}

/** How many watch the room (the server's spectators), for everyone to see. */
function watchingText(count) {
  if (!count) return "Nobody is watching.";
  return count === 1 ? "1 person watching" : `${count} people watching`;
}
