// A replay (#/replay/room/<room>/<round>, #/replay/daily/<day>/<player>[/<attempt>]): every
// racer's board as a spectator of the live round saw it (masked by the server), side by side on
// a laptop, one large and the others small on a phone (tap one to enlarge it); play and pause,
// 1x/4x/16x, a scrubber over the race clock, one step back or forward, and the results chart
// below with a cursor at the current time.

import { clear, clock, h, ordinal } from "../dom.js";
import * as api from "../api.js";
import { createGame } from "../game.js";
import { raceChart } from "../chart.js";
import { presetLabel } from "../presets.js";
import { STATUS_WORDS } from "../roomstate.js";
import { boardAfter, expandReplay, stepsBy } from "../replaydata.js";
import { replayAnalysis } from "./replayanalysis.js";

const SPEEDS = [1, 4, 16];
const PHONE = "(max-width: 700px)";

/** The API path of a replay route (`parts`: what follows #/replay/). */
export function replayPath(parts) {
  const [kind, ...rest] = parts;
  if (kind === "room" && rest.length === 2) return `/api/replays/room/${rest.map(encodeURIComponent).join("/")}`;
  if (kind === "daily" && (rest.length === 2 || rest.length === 3)) return `/api/replays/daily/${rest.map(encodeURIComponent).join("/")}`;
  return null;
}

export function mountReplay(ctx, parts) {
  const { root } = ctx;
  const path = replayPath(parts);
  let alive = true;
  let stop = () => {};
  root.append(h("p.muted", { role: "status", text: "Loading the replay…" }));
  if (!path) {
    showError({ message: "This replay link is not complete." });
  } else {
    api.replay(path).then((data) => { if (alive) stop = show(root, data); })
      .catch((err) => { if (alive) showError(err); });
  }

  function showError(err) {
    clear(root);
    const opens = err.opens_at ? new Date(err.opens_at * 1000) : null;
    root.append(h("div.panel.stack", { dataset: { replayError: err.code || "error" } },
      h("h1", { text: err.code === "day-not-closed" ? "Not yet" : "No replay here" }),
      h("p", { text: err.message || "This replay cannot be shown." }),
      opens ? h("p.muted", { text: `That is ${opens.toLocaleString()} your time.` }) : null,
      h("a.btn.primary", { href: "#/" }, "Home")));
  }

  return () => { alive = false; stop(); };
}

function title(data) {
  if (data.kind === "daily") {
    const who = data.racers[0]?.name || "a player";
    return `Daily ${data.date} · ${who}${data.ranked ? "" : " (unranked)"}`;
  }
  return `Race ${data.room} · round ${data.round}`;
}

function show(root, data) {
  const replay = expandReplay(data);
  const { times, boards } = replay;
  const n = data.racers.length;
  const end = Math.max(data.end || 0, times.length ? times[times.length - 1] : 0);
  let t = 0; // the race clock shown
  let count = 0; // steps shown
  let speed = 1;
  let playing = false;
  let last = null;
  let frame = null;
  let big = 0; // the racer shown large on a phone
  let games = [];
  let shown = [];

  clear(root);
  const playBtn = h("button.btn.primary", { type: "button", dataset: { action: "play" }, onclick: () => (playing ? pause() : play()) }, "Play");
  const back = h("button.btn", { type: "button", dataset: { action: "back" }, title: "One move back", "aria-label": "One move back", onclick: () => step(-1) }, "◀ Move");
  const fwd = h("button.btn", { type: "button", dataset: { action: "forward" }, title: "One move forward", "aria-label": "One move forward", onclick: () => step(1) }, "Move ▶");
  const speeds = SPEEDS.map((x) => h("button.btn.small", { type: "button", dataset: { speed: String(x) }, "aria-pressed": String(x === speed), onclick: () => setSpeed(x) }, `${x}x`));
  const scrub = h("input.replay-scrub", { type: "range", min: "0", max: String(end), step: "any", value: "0", "aria-label": "Race clock" });
  scrub.addEventListener("input", () => { pause(); seek(Number(scrub.value)); });
  const clockEl = h("div.clock.replay-clock", { role: "timer", "aria-label": "Race clock" }, "0:00");
  const counter = h("span.muted.replay-count", {});
  const controls = h("div.panel.replay-controls", { role: "toolbar", "aria-label": "Replay controls" },
    h("div.row", {}, back, playBtn, fwd, h("span.row.speeds", { role: "group", "aria-label": "Speed" }, speeds), clockEl, counter),
    scrub);
  const deal = data.deal ? `Deal ${data.deal} · ${presetLabel(data.preset)}` : presetLabel(data.preset);
  const head = h("div.replay-head", {},
    h("h1", { text: title(data) }),
    h("p.muted", { text: `${deal} · ${n} ${n === 1 ? "racer" : "racers"} · ${clock(end)}. Each board as a spectator saw it live: a card still face down on a board in play shows as ??.` }));
  const boardsEl = h("div.replay-boards");
  const thumbs = h("div.replay-thumbs", { role: "group", "aria-label": "The other racers: tap one to enlarge it" });
  const players = data.racers.map((r) => ({ id: r.player, name: r.name }));
  const chart = raceChart(data.timeline, players, { end, width: Math.round(Math.min(720, Math.max(300, window.innerWidth - 50))) });
  const cursor = document.createElementNS("http://www.w3.org/2000/svg", "line");
  cursor.setAttribute("class", "replay-cursor");
  const svg = chart.querySelector("svg");
  const box = svg.viewBox.baseVal;
  cursor.setAttribute("y1", "8");
  cursor.setAttribute("y2", String(box.height - 26));
  svg.append(cursor);
  const verdicts = replayAnalysis(data, times, end, { onJump: jumpTo });
  const page = h("div.replay.stack", {}, head, controls, thumbs, boardsEl, verdicts.el,
    h("section.panel.replay-chart", { "aria-label": "Progress of the race" }, h("h2", { text: "The race" }), chart));
  root.append(page);

  const phone = window.matchMedia(PHONE);
  phone.addEventListener?.("change", build);
  build();
  page.dataset.ready = "1"; // every board drawn (the tests and the load benchmark wait for it)

  function build() {
    for (const g of games) g.game.destroy();
    clear(boardsEl);
    clear(thumbs);
    games = [];
    shown = [];
    const small = phone.matches && n > 1;
    boardsEl.dataset.count = String(small ? 1 : Math.min(n, 4));
    thumbs.hidden = !small;
    data.racers.forEach((racer, i) => {
      const thumb = small && i !== big;
      const game = createGame({ commands: {}, readonly: true, label: `${racer.name}'s board`, rules: () => data.rules || {} });
      const caption = h("span.replay-status", {});
      const name = h("h2.replay-name", {}, h("span", { text: racer.name }), caption);
      let el;
      if (thumb) {
        el = h("button.replay-thumb", { type: "button", dataset: { racer: String(i) }, onclick: () => { big = i; build(); } },
          h("span.sr-only", { text: "Enlarge: " }), name, h("div.thumb-scale", {}, h("div.thumb-host", { "aria-hidden": "true" }, game.el)));
        thumbs.append(el);
      } else {
        el = h("section.replay-racer", { dataset: { racer: String(i) } }, name, h("div.replay-host", {}, game.el));
        boardsEl.append(el);
      }
      games.push({ game, caption, racer });
      shown.push(null);
    });
    draw(false);
  }

  function draw(animate) {
    games.forEach(({ game, caption, racer }, i) => {
      const entry = boardAfter(boards[i], count);
      if (entry !== shown[i]) {
        game.update(entry.view, { animate, finished: true });
        shown[i] = entry;
      }
      const done = entry.status !== "playing";
      const text = !done ? "racing" : entry.status === "won" ? `won in ${clock(racer.elapsed)}` : STATUS_WORDS[entry.status] || entry.status;
      const rank = done && racer.rank ? ` · ${ordinal(racer.rank)}` : "";
      if (caption.textContent !== text + rank) caption.textContent = text + rank;
    });
    const clockText = clock(t);
    if (clockEl.textContent !== clockText) clockEl.textContent = clockText;
    counter.textContent = `move ${count} of ${times.length}`;
    if (document.activeElement !== scrub) scrub.value = String(t);
    scrub.setAttribute("aria-valuetext", `${clockText} of ${clock(end)}`);
    const x = chart.timeX(t);
    cursor.setAttribute("x1", String(x));
    cursor.setAttribute("x2", String(x));
    back.disabled = count === 0;
    fwd.disabled = count >= times.length;
    verdicts.update(count);
  }

  /** Show the position before step `k` (its move is the next "Move ▶"). */
  function jumpTo(k) {
    pause();
    count = k;
    t = k ? times[k - 1] : 0;
    draw(false);
  }

  function seek(to) {
    t = Math.max(0, Math.min(end, to));
    count = stepsBy(times, t);
    draw(false);
  }

  function step(delta) {
    pause();
    count = Math.max(0, Math.min(times.length, count + delta));
    t = count ? times[count - 1] : 0;
    draw(speed === 1 && delta === 1);
  }

  function setSpeed(x) {
    speed = x;
    for (const b of speeds) b.setAttribute("aria-pressed", String(Number(b.dataset.speed) === x));
  }

  function play() {
    if (t >= end) seek(0);
    playing = true;
    playBtn.textContent = "Pause";
    last = performance.now();
    frame = requestAnimationFrame(tick);
  }

  function pause() {
    playing = false;
    playBtn.textContent = "Play";
    if (frame) cancelAnimationFrame(frame);
    frame = null;
  }

  function tick(now) {
    if (!playing) return;
    t = Math.min(end, t + ((now - last) / 1000) * speed);
    last = now;
    const before = count;
    count = stepsBy(times, t);
    draw(speed === 1 && count === before + 1);
    if (t >= end) pause();
    else frame = requestAnimationFrame(tick);
  }

  return () => {
    pause();
    phone.removeEventListener?.("change", build);
    for (const g of games) g.game.destroy();
  };
}
