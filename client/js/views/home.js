// Home: race anyone now (the quick race's queue), your name, start a race (rules, deal, time limit, seats, undo, hints, Auto), join by code or link,
// the daily challenge, solo practice and statistics.

import { h } from "../dom.js";
import * as api from "../api.js";
import { PRESETS, UNDO } from "../presets.js";
import { faceUpCard } from "../cards.js";
import { toast } from "../ui.js";

export function mountHome(ctx) {
  const { root, go } = ctx;
  const me = api.player();
  const nameInput = h("input", { name: "name", maxlength: "24", autocomplete: "nickname", required: true, value: me?.name || "", placeholder: "Your name" });
  const presetSelect = h("select", { name: "preset" },
    Object.entries(PRESETS).map(([key, p]) => h("option", { value: key, text: p.label })));
  const presetBlurb = h("p.muted", { style: "margin:0;font-size:.88rem" });
  const rulesLink = h("a", { href: "#/rules/classic" }, "How to play these rules");
  const showBlurb = () => {
    presetBlurb.textContent = `${PRESETS[presetSelect.value]?.blurb || ""} `;
    rulesLink.setAttribute("href", `#/rules/${presetSelect.value}`);
    presetBlurb.append(rulesLink);
  };
  presetSelect.addEventListener("change", showBlurb);
  showBlurb();
  const dealSelect = h("select", { name: "deal" },
    h("option", { value: "random", text: "Random deal" }),
    h("option", { value: "winnable", text: "Winnable deals only" }),
    h("option", { value: "number", text: "A deal number…" }));
  const dealNumber = h("input", { name: "deal_number", type: "number", min: "0", step: "1", placeholder: "Deal number", hidden: true, "aria-label": "Deal number" });
  dealSelect.addEventListener("change", () => { dealNumber.hidden = dealSelect.value !== "number"; });
  const timeSelect = h("select", { name: "time_limit" },
    [[300, "5 minutes"], [600, "10 minutes"], [900, "15 minutes"], [1800, "30 minutes"], [0, "No limit"]]
      .map(([v, t]) => h("option", { value: String(v), text: t, selected: v === 600 })));
  const seatsSelect = h("select", { name: "max_players" },
    [2, 3, 4, 5, 6, 8, 10].map((n) => h("option", { value: String(n), text: `${n} players`, selected: n === 10 })));
  // Undo: fair (the default) never takes back a move that showed a card, so nobody peeks.
  const undoSelect = h("select", { name: "undo", "aria-describedby": "undo-explained" },
    Object.entries(UNDO).map(([v, u]) => h("option", { value: v, text: u.label, selected: v === "fair" })));
  const undoExplained = h("p.muted", { id: "undo-explained", style: "margin:0;font-size:.88rem" });
  const explainUndo = () => { undoExplained.textContent = UNDO[undoSelect.value].line; };
  undoSelect.addEventListener("change", explainUndo);
  explainUndo();
  const hintsBox = h("input", { type: "checkbox", name: "hints" });
  const autoBox = h("input", { type: "checkbox", name: "auto" });
  const ratedBox = h("input", { type: "checkbox", name: "rated" });
  const leagueBox = h("input", { type: "checkbox", name: "league" });
  const error = h("p.error-text", { role: "alert" });

  async function identify() {
    const name = nameInput.value.trim();
    if (!name) {
      nameInput.focus();
      throw new Error("Pick a name first: your friends see it in the race.");
    }
    if (!api.token()) return api.ensurePlayer(name);
    if (name !== api.player()?.name) return api.rename(name).catch(() => api.player());
    return api.player();
  }

  async function create(e) {
    e.preventDefault();
    error.textContent = "";
    try {
      await identify();
      ctx.refreshWho();
      const settings = {
        preset: presetSelect.value,
        deal: dealSelect.value === "number" ? Number(dealNumber.value || 0) : dealSelect.value,
        time_limit: Number(timeSelect.value),
        undo: undoSelect.value,
        hints: hintsBox.checked,
        auto: autoBox.checked,
        rated: ratedBox.checked,
        league: leagueBox.checked,
        max_players: Number(seatsSelect.value),
      };
      let room;
      try {
        room = await api.createRoom(settings);
      } catch (err) {
        if (err.status !== 401) throw err;
        await identify(); // the old token was forgotten: make a new player, then try again
        room = await api.createRoom(settings);
      }
      go(`#/r/${room.room ?? room.id}`);
    } catch (err) {
      error.textContent = err.message;
    }
  }

  const joinInput = h("input.input", { placeholder: "Room code or link", "aria-label": "Room code or link", style: "flex:1" });
  async function join(e) {
    e.preventDefault();
    const value = joinInput.value.trim();
    const code = value.includes("#/r/") ? value.split("#/r/")[1] : value.split("/").pop();
    if (!code) return;
    try {
      await identify();
      ctx.refreshWho();
      go(`#/r/${code}`);
    } catch (err) {
      toast(err.message);
    }
  }

  async function practice() {
    try {
      await identify();
      ctx.refreshWho();
      go(`#/practice/${presetSelect.value}`);
    } catch (err) {
      toast(err.message);
    }
  }

  const hero = h("div.hero", {},
    h("div", {},
      h("h1", { text: "Race your friends at Scorpion" }),
      h("p.lead", { text: "Same deal, same moment, everyone on their own board. Build each suit from King down to Ace; the first to clear the table wins." })),
    h("div.hero-cards", { "aria-hidden": "true" }, ["KS", "QH", "JD", "TC"].map((c, i) => {
      const card = faceUpCard(c);
      card.style.transform = `rotate(${(i - 1.5) * 9}deg) translateY(${Math.abs(i - 1.5) * 6}px)`;
      card.style.marginLeft = i ? "-34px" : "0";
      return card;
    })));
  hero.querySelector(".hero-cards").style.cssText = "--cw:74px;--ch:104px;--radius:7px;position:relative";

  const form = h("form.panel.stack", { onsubmit: create, "aria-labelledby": "new-race-h" },
    h("h2", { id: "new-race-h", text: "Start a race" }),
    h("label.field", {}, "Your name", nameInput),
    h("label.field", {}, "Rules", presetSelect), presetBlurb,
    h("div.grid2", { style: "gap:10px;grid-template-columns:1fr 1fr" },
      h("label.field", {}, "Deal", dealSelect, dealNumber),
      h("label.field", {}, "Time limit", timeSelect)),
    h("div.grid2", { style: "gap:10px;grid-template-columns:1fr 1fr" },
      h("label.field", {}, "Seats", seatsSelect),
      h("label.field", {}, "Undo", undoSelect)),
    undoExplained,
    h("div.stack", {},
      h("label.check", {}, hintsBox, "Hints allowed"),
      h("label.check", {}, autoBox, "Auto allowed: Auto plays moves for you"),
      h("label.check", {}, ratedBox, "Rated: each round moves the racers' ratings for these rules"),
      h("label.check", {}, leagueBox, "A league: the same link every week, points per round, a table for the week and all time")),
    h("div.row", {}, h("button.btn.primary", { type: "submit" }, "Create the room"),
      h("button.btn", { type: "button", onclick: practice }, "Practice alone")),
    error);

  // Race anyone now: strangers waiting for the same rules, matched by the server (views/quick.js).
  const quickPreset = h("select.input", { name: "quick_preset", "aria-label": "Rules of the quick race" },
    Object.entries(PRESETS).map(([key, p]) => h("option", { value: key, text: p.label })));
  async function quick(e) {
    e.preventDefault();
    try {
      await identify();
      ctx.refreshWho();
      go(`#/quick/${quickPreset.value}`);
    } catch (err) {
      toast(err.message);
    }
  }

  // Open rooms: rooms their hosts listed; anyone may join (the room's page asks play or watch).
  const PHASE_WORDS = { lobby: "waiting in the lobby", countdown: "starting", racing: "racing now", results: "results" };
  const openList = h("ul.players.open-rooms", { "aria-label": "Open rooms", dataset: { list: "open-rooms" } },
    h("li.muted", { text: "Looking for open rooms…" }));
  function showOpen(rooms) {
    openList.replaceChildren(...(rooms.length ? rooms.map((room) => h("li.row", { dataset: { room: room.room } },
      h("span", { style: "flex:1", text: `${PRESETS[room.preset]?.label || room.preset} · ${room.host ? `${room.host}'s room` : "a room"} · ${room.racers}/${room.max_players} racers · ${PHASE_WORDS[room.phase] || room.phase}${room.rated ? " · rated" : ""}${room.league ? " · league" : ""}${room.locked ? " · locked" : ""}` }),
      h("a.btn.small", { href: `#/r/${room.room}` }, room.phase === "lobby" && !room.locked && room.racers < room.max_players ? "Join" : "Watch")))
      : [h("li.muted", { text: "No open room right now: list yours from its lobby, or race anyone now." })]));
  }
  api.openRooms().then((data) => showOpen(data.rooms || [])).catch(() => showOpen([]));

  const side = h("div.stack", {},
    h("form.panel.stack", { onsubmit: quick, "aria-labelledby": "quick-h" },
      h("h2", { id: "quick-h", text: "Race anyone now" }),
      h("p.muted", { text: "No friend around? Race whoever is waiting for the same rules: up to 4 racers, fair rules, a winnable deal." }),
      h("div.row", {}, quickPreset, h("button.btn.primary", { type: "submit", dataset: { action: "quick" } }, "Race anyone now"))),
    h("section.panel.stack", { "aria-labelledby": "open-rooms-h" },
      h("h2", { id: "open-rooms-h", text: "Open rooms" }), openList),
    h("form.panel.stack", { onsubmit: join },
      h("h2", { text: "Join a race" }),
      h("div.row", {}, joinInput, h("button.btn", { type: "submit" }, "Join"))),
    h("section.panel.stack", {},
      h("h2", { text: "Daily challenge" }),
      h("p.muted", { text: "One deal for the whole world today. One ranked attempt; see where you land on the leaderboard." }),
      h("a.btn.primary", { href: "#/daily" }, "Play today's deal")),
    h("section.panel.stack", {},
      h("h2", { text: "Your statistics" }),
      h("p.muted", { text: "Games, wins and streaks for every set of rules." }),
      h("a.btn", { href: "#/stats" }, "See statistics")));

  root.append(hero, h("div.cta-grid", {}, form, side));
  return () => {};
}
