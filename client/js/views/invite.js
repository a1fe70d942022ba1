// Opening a room link: the room first (host, players, rules, phase: GET /api/rooms/<id>), then
// the name and a choice between a seat and watching. An unknown room is reported before any
// player is created; a full room or a race under way offers only watching.

import { h } from "../dom.js";
import * as api from "../api.js";
import { presetLabel } from "../presets.js";
import { openRules } from "./rules.js";

const PHASES = {
  lobby: "Waiting in the lobby for the host to start",
  countdown: "Starting now",
  racing: "Racing now",
  results: "Race over: the results are in",
};

/** Resolves "play", "watch" or "in" (already in this room: carry on), or "missing" after
 * showing that the room does not exist. */
export async function invite(ctx, roomId) {
  let room;
  try {
    room = await api.getRoom(roomId);
  } catch (err) {
    if (err.status !== 404) throw err;
    ctx.root.append(h("div.panel.stack", {}, h("h1", { text: "Room not found" }),
      h("p.muted", { text: "This room does not exist (or it has closed). Ask for a new link, or start a race of your own." }),
      h("a.btn.primary", { href: "#/" }, "Start a new race")));
    return "missing";
  }
  const me = api.player();
  const known = me?.id && api.token();
  if (known && (room.creator === me.id || room.players.some((p) => p.id === me.id))) return "in";
  // A quick race's matched player was called here: the server seats them as they come.
  if (known && room.quick?.players?.includes(me.id)) return "in";
  return choose(ctx, room, known ? me : null);
}

function choose(ctx, room, me) {
  return new Promise((resolve) => {
    const st = room.settings || {};
    const seats = st.max_players ?? 10;
    const full = room.players.length >= seats;
    const open = room.phase === "lobby" && !full && !room.locked;
    const hostId = room.host ?? room.creator;
    const host = room.players.find((p) => p.id === hostId);
    const input = h("input", { maxlength: "24", value: me?.name || "", required: true, autocomplete: "nickname", "aria-label": "Your name" });
    const error = h("p.error-text", { role: "alert" });
    let choice = open ? "play" : "watch";
    const submit = async (e) => {
      e.preventDefault();
      try {
        const name = input.value.trim();
        let who = api.token() && name === api.player()?.name ? api.player() : null;
        if (!who && api.token()) {
          // A token the server no longer knows is forgotten by api.js: then make a new player.
          who = await api.rename(name).catch((err) => { if (err.status === 401) return null; throw err; });
        }
        who ||= await api.ensurePlayer(name);
        ctx.store.set({ me: { ...ctx.store.get().me, ...who } });
        ctx.refreshWho();
        overlay.remove();
        resolve(choice);
      } catch (err) {
        error.textContent = err.message;
      }
    };
    const players = room.players.length
      ? room.players.map((p) => h("li", {}, h("span", { text: p.name }), p.id === hostId ? h("span.tag", { text: "host" }) : null))
      : [h("li.muted", { text: "Nobody has taken a seat yet." })];
    const watching = typeof room.spectators === "number" ? room.spectators : room.spectators?.length || 0;
    if (watching) players.push(h("li.muted", { text: `${watching} watching` }));
    const seatNote = room.phase !== "lobby" ? "The race has begun: you can watch it, and take a seat at the rematch."
      : room.locked ? "The host has locked the room: you can watch."
      : full ? `All ${seats} seats are taken: you can watch.` : `${room.players.length} of ${seats} seats taken.`;
    const playBtn = open ? h("button.btn.primary", { type: "submit", onclick: () => { choice = "play"; } }, "Let's play") : null;
    const watchBtn = h(`button.btn${open ? "" : ".primary"}`, { type: "submit", onclick: () => { choice = "watch"; } }, open ? "Watch" : "Watch the race");
    const form = h("form.panel.stack.invite", { onsubmit: submit, "aria-labelledby": "invite-h" },
      h("h2", { id: "invite-h", text: `You're invited to race room ${room.room}` }),
      h("dl.settings-list", {},
        h("dt", { text: "Host" }), h("dd", { text: host?.name || "the room's creator" }),
        h("dt", { text: "Rules" }), h("dd", {}, `${presetLabel(st.preset)} `,
          h("button.btn.small", { type: "button", onclick: () => openRules(st.preset) }, "How to play")),
        h("dt", { text: "Now" }), h("dd", { text: PHASES[room.phase] || room.phase }),
        h("dt", { text: "Time limit" }), h("dd", { text: st.time_limit ? `${Math.round(st.time_limit / 60)} minutes` : "none" }),
        // Before taking a seat: whether the race moves your rating, or scores league points.
        st.rated ? [h("dt", { text: "Rated" }), h("dd", { dataset: { invite: "rated" }, text: "yes: racing here moves your rating for these rules" })] : null,
        st.league ? [h("dt", { text: "League" }), h("dd", { dataset: { invite: "league" }, text: "yes: points per round, kept week after week" })] : null),
      h("h3", { text: "Players" }),
      h("ul.players.invite-players", { "aria-label": "Players in the room" }, players),
      h("p.muted", { text: seatNote }),
      h("label.field", {}, "Your name", input),
      h("p.muted", { text: "Other racers see it next to your progress." }),
      error,
      h("div.row", {}, playBtn, watchBtn));
    const overlay = h("div.overlay", { role: "dialog", "aria-modal": "true", "aria-labelledby": "invite-h" }, form);
    ctx.root.append(overlay);
    (me?.name ? (playBtn || watchBtn) : input).focus();
  });
}
