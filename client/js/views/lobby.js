// The lobby: the share link with a copy button, the players and whether they are ready, the
// room's settings, and the buttons (ready, watch, take a seat, start, lock and remove for the host).

import { clear, clock, h } from "../dom.js";
import { PRESETS, UNDO, presetLabel } from "../presets.js";
import { confirmDialog, toast } from "../ui.js";
import { openRules } from "./rules.js";
import { leagueControl, listControl, lockControl, personControls, ratingControl } from "./hostcontrols.js";
import { leaguePanel } from "./league.js";
import { fillIf, keyedList } from "../keyed.js";
import { setSound, soundOn } from "../notify.js";

export function createLobby({ roomId, session, me }) {
  const parts = {};

  function build() {
    const link = `${location.origin}/r/${roomId}`;
    const input = h("input.input", { value: link, readonly: true, "aria-label": "Room link", id: "share-link" });
    const copy = h("button.btn", {
      type: "button",
      onclick: async () => {
        try {
          await navigator.clipboard.writeText(link);
        } catch {
          input.select();
          document.execCommand?.("copy");
        }
        copy.textContent = "Copied ✓";
        setTimeout(() => { copy.textContent = "Copy link"; }, 1600);
      },
    }, "Copy link");
    // On phones the system share sheet is the natural way to send a link.
    const share = navigator.share
      ? h("button.btn", { type: "button", onclick: () => navigator.share({ title: "Race me at Scorpion", url: link }).catch(() => {}) }, "Share…")
      : null;
    parts.players = h("ul.players", { "aria-label": "Players" });
    parts.people = keyedList(parts.players, { key: (row) => row.key, build: personRow });
    parts.settings = h("dl.settings-list");
    parts.league = h("div");
    parts.actions = h("div.row");
    parts.note = h("p.muted");
    parts.title = h("h1");
    parts.lead = h("p.lead", { text: "Send the link to your friends. Everyone plays the same deal at the same time." });
    parts.invite = h("div.stack", {}, h("h2", { text: "Invite" }), h("div.share", {}, input, copy, share));
    const sound = h("input", { type: "checkbox", id: "sound-toggle" });
    sound.checked = soundOn();
    sound.addEventListener("change", () => setSound(sound.checked));
    return h("div.stack", {},
      parts.title,
      parts.lead,
      h("div.grid2", {},
        h("section.panel.stack", { "aria-labelledby": "players-h" },
          h("h2", { id: "players-h", text: "Players" }), parts.players, parts.actions, parts.note, parts.league),
        h("section.panel.stack", {},
          parts.invite,
          h("h2", { text: "Settings" }), parts.settings,
          h("label.check", { for: "sound-toggle" }, sound, "A sound when the race starts or someone joins while this tab is in the background"))));
  }

  function update(s) {
    // A quick race's room has no host: strangers the queue matched (the server refuses host
    // controls there), so no host tag and no host buttons.
    const r = s.room.quickRace ? { ...s.room, host: null } : s.room;
    parts.lead.textContent = r.quickRace
      ? "Strangers waiting for the same rules, matched by the server. Everyone plays the same deal at the same time."
      : "Send the link to your friends. Everyone plays the same deal at the same time.";
    parts.invite.hidden = r.quickRace;
    parts.title.textContent = `Race room ${r.id}`;
    // Keyed by player id: a notice (someone ready, someone away) rebuilds only that row.
    lastRoom = r; // the rows' controls act on it
    if (everyoneReady && !notReady(r).length) everyoneReady(true);
    parts.people([
      ...r.players.map((p) => ({ key: `p:${p.id}`, seated: true, person: p, host: r.host, me: me() })),
      ...(r.players.length ? [] : [{ key: "nobody" }]),
      ...r.spectators.map((x) => ({ key: `s:${x.id}`, seated: false, person: x, host: r.host, me: me() })),
      ...(r.listed ? [{ key: "listed" }] : []),
      ...(r.locked ? [{ key: "locked" }] : []),
    ]);
    clear(parts.league);
    const league = leaguePanel(r);
    if (league) parts.league.append(league);
    const st = r.settings || {};
    fillIf(parts.settings, JSON.stringify(st), () => settingRows(st)); // the settings change rarely

    clear(parts.actions);
    const seat = r.players.find((p) => p.id === me());
    const creator = r.host === me();
    if (seat) {
      parts.actions.append(h(`button.btn${seat.ready ? "" : ".primary"}`, {
        type: "button", dataset: { action: "ready" },
        onclick: () => session.ready(!seat.ready).catch((e) => toast(e.message)),
      }, seat.ready ? "Not ready" : "I'm ready"));
      parts.actions.append(h("button.btn", {
        type: "button",
        onclick: () => { sessionStorage.setItem(`scorpion.watch.${roomId}`, "1"); session.leave().then(() => session.join("spectator")).catch((e) => toast(e.message)); },
      }, "Just watch"));
    } else if (r.locked) {
      parts.actions.append(h("span.muted", { text: "The host has locked the room: you are watching." }));
    } else if (r.players.length >= (st.max_players ?? Infinity)) {
      parts.actions.append(h("span.muted", { text: "Every seat is taken: you are watching." }));
    } else {
      parts.actions.append(h("button.btn.primary", {
        type: "button",
        onclick: () => { sessionStorage.removeItem(`scorpion.watch.${roomId}`); session.join("player").catch((e) => toast(e.message)); },
      }, "Take a seat"));
    }
    if (creator) {
      // The seated host races by pressing Start (the server makes them ready): like a lichess
      // challenger or a TypeRacer host, whoever starts the race is in it.
      const anyReady = r.players.some((p) => p.ready) || !!seat;
      parts.actions.append(h("button.btn.primary", {
        type: "button", dataset: { action: "start" }, disabled: !anyReady || r.phase !== "lobby" || !!r.dealingUntil,
        onclick: () => startRace(),
      }, seat ? "Start the race (I race)" : "Start the race"));
      parts.actions.append(lockControl({ room: r, me: me(), session }));
      parts.actions.append(listControl({ room: r, me: me(), session }));
      if (r.phase === "lobby" && !r.quickRace) {
        parts.actions.append(ratingControl({ room: r, me: me(), session }));
        parts.actions.append(leagueControl({ room: r, me: me(), session }));
      }
    }
    clear(parts.note);
    parts.note.className = "muted";
    parts.note.removeAttribute("data-note");
    parts.note.removeAttribute("role");
    const hostName = r.players.find((p) => p.id === r.host)?.name || "the host";
    if (r.dealingUntil) {
      // The server is proving a deal winnable before the countdown: said, not left silent.
      parts.note.className = "note";
      parts.note.dataset.note = "dealing";
      parts.note.setAttribute("role", "status");
      parts.note.textContent = "Finding a winnable deal… the countdown starts as soon as the solver proves one.";
    } else if (creator) {
      parts.note.textContent = seat
        ? "Pressing Start makes you ready: you race. Seated players who are not ready watch; you are asked first."
        : "Start when your friends are ready; players who are not ready watch.";
    } else if (seat && !seat.ready) {
      // Nobody seated learns only at the countdown that they will watch: said before, plainly.
      parts.note.className = "note";
      parts.note.dataset.note = "not-ready";
      parts.note.textContent = `You are not ready: if ${hostName} starts now, you will watch this race. Press "I'm ready" to race.`;
    } else {
      parts.note.textContent = `Waiting for ${hostName} to start the race.`;
    }
    if (r.quickRace && r.round === 0) quickLobby(r);
  }

  /** A quick race's lobby: nobody hosts or starts; the server deals when the matched racers
   * are here (or their time to come is up). */
  function quickLobby(r) {
    parts.title.textContent = `Quick race: ${presetLabel(r.settings?.preset)}`;
    clear(parts.actions);
    parts.note.className = "note";
    parts.note.dataset.note = "quick";
    if (r.quickVoid || !r.quick) {
      parts.note.textContent = "Too few of the matched racers came: back to the queue for another race.";
      parts.actions.append(h("a.btn.primary", { href: `#/quick/${encodeURIComponent(r.settings?.preset || "classic")}` }, "Race anyone now"));
      return;
    }
    const here = r.players.filter((p) => p.ready).length;
    const left = Math.max(0, Math.round(r.quick.start_by - (Date.now() / 1000 + (r.offset || 0))));
    parts.note.textContent = `Matched by the queue: ${here} of ${r.quick.players.length} racers here. The race starts by itself when everyone is here, or in ${left} s with at least 2.`;
  }

  let lastRoom = null;

  /** One line of the players list: a seated player, a spectator, or a line about the room. */
  function personRow(row) {
    if (row.key === "nobody") return h("li.muted", { text: "Nobody has taken a seat yet." });
    if (row.key === "listed") return h("li.muted", { dataset: { listed: "true" }, text: "Listed among the open rooms: anyone may join." });
    if (row.key === "locked") return h("li.muted", { dataset: { locked: "true" }, text: "The room is locked: no new seats; anyone with the link may watch." });
    const p = row.person;
    const you = p.id === row.me ? " (you)" : "";
    if (!row.seated) {
      return h("li.muted", {}, h("span.name", { text: `Watching: ${p.name}${you}` }),
        ...personControls({ room: lastRoom, person: p, seated: false, me: row.me, session }));
    }
    const dot = h(`span.dot${p.ready ? ".ready" : ""}`, { "aria-hidden": "true" });
    const tags = [p.id === row.host ? h("span.tag", { text: "host" }) : null,
      p.connected === false ? h("span.tag.away", { text: "away" }) : null];
    return h("li", { "aria-label": `${p.name}${you}, ${p.ready ? "ready" : "not ready"}` },
      dot, h("span.name", { text: `${p.name}${you}` }), ...tags,
      h("span.muted", { text: p.ready ? "ready" : "not ready" }),
      ...personControls({ room: lastRoom, person: p, seated: true, me: row.me, session }));
  }

  /** The seated players who are not ready (the host aside): they would watch. */
  function notReady(r) {
    return (r?.players || []).filter((p) => !p.ready && p.id !== me()).map((p) => p.name);
  }

  let everyoneReady = null; // answers an open "start anyway?" once nobody is left not ready

  /** Start, after saying who will watch (the seated players not ready, the host aside). */
  async function startRace() {
    const watchers = notReady(lastRoom);
    if (watchers.length) {
      const who = watchers.length === 1 ? `${watchers[0]} is` : `${watchers.slice(0, -1).join(", ")} and ${watchers.at(-1)} are`;
      // The host pressed Start: if the last of them gets ready meanwhile, that start is the one meant.
      const ready = new Promise((resolve) => { everyoneReady = resolve; });
      const yes = await confirmDialog(`${who} not ready and will watch this race. Start anyway?`, "Start anyway", "Wait for them", ready);
      everyoneReady = null;
      if (!yes) return;
    }
    session.start().catch((e) => toast(e.message));
  }

  return { el: build(), update };
}

/** The room's settings as the lobby lists them (`st`: the room's settings). */
function settingRows(st) {
  const rows = [];
  const lines = [["Rules", presetLabel(st.preset)], ["Deal", st.deal === "winnable" ? "winnable only" : st.deal === "number" ? "a chosen deal" : "random"],
    ["Time limit", st.time_limit ? clock(st.time_limit) : "none"], ["Seats", String(st.max_players ?? "")],
    ["Undo", UNDO[st.undo]?.label || String(st.undo ?? "")], ["Hints", st.hints ? "allowed" : "off"],
    ["Auto", st.auto ? "allowed: Auto plays moves for you" : "off"],
    ["Rated", st.rated ? "yes: each round moves the ratings (clean results only)" : "no"],
    ["League", st.league ? "yes: points per round, kept week after week" : "no"]];
  for (const [k, v] of lines) {
    rows.push(h("dt", { text: k }), h("dd", { dataset: { setting: k.toLowerCase().replace(" ", "-") }, text: v }));
    // What the room's undo means, right under it: players learn it before the start.
    if (k === "Undo" && UNDO[st.undo]) rows.push(h("dd.muted", { dataset: { setting: "undo-line" }, text: UNDO[st.undo].line, style: "grid-column: 2 / 3; font-size: .88rem" }));
  }
  if (st.hints || st.auto) {
    rows.push(h("dd.muted", { dataset: { setting: "help-line" }, style: "grid-column: 2 / 3; font-size: .88rem",
      text: "A result with a hint or a move by Auto is assisted: it ranks after the clean ones." }));
  }
  const blurb = PRESETS[st.preset]?.blurb;
  if (blurb) rows.push(h("dd.muted", { text: blurb, style: "grid-column: 1 / 3; margin-top: 6px" }));
  rows.push(h("dd", { style: "grid-column: 1 / 3" }, h("button.btn.small", { type: "button", onclick: () => openRules(st.preset) }, `How to play ${presetLabel(st.preset)}`)));
  return rows;
}
