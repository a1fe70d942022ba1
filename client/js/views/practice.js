// Practice (docs/protocol.md section 8): your own games, one after another. No invite, no
// countdown, no clock, no ranking: the board, undo, hints, Auto and a new deal. The socket says
// hello with `practice: true`; the game in hand comes back on any tab and after a restart.

import { announce, clear, h } from "../dom.js";
import { token } from "../api.js";
import { Connection } from "../socket.js";
import { createGame } from "../game.js";
import { PRESETS, presetLabel } from "../presets.js";
import { STATUS_WORDS } from "../roomstate.js";
import { confirmDialog, toast } from "../ui.js";
import { openRules } from "./rules.js";

/** The list of presets at #/practice: each deals a practice game of its rules. */
export function mountPracticeList(ctx) {
  ctx.root.append(h("h1", { text: "Practice" }),
    h("p.lead", { text: "A game for you alone: no opponents, no clock, never ranked. Undo, hints and Auto are always on; finished games count in your statistics." }),
    h("div.cta-grid", {}, Object.entries(PRESETS).map(([key, p]) => h("section.panel.stack", {},
      h("h2", { text: p.label }), h("p.muted", { text: p.blurb }),
      h("div.row", {}, h("a.btn.primary", { href: `#/practice/${key}` }, "Deal"),
        h("a.btn", { href: `#/rules/${key}`, "aria-label": `Rules of ${p.label}` }, "Rules"))))));
  return () => {};
}

export function mountPractice(ctx, wanted) {
  const { root, store } = ctx;
  store.set({ conn: null });
  let game = null; // {number, preset, deal, status, ...} of the game in hand
  let board = null;
  let dealing = false;
  const title = h("h1");
  const sub = h("p.sr-only", { text: "Just you: no clock, never ranked. Undo, hints and Auto are always on; a finished game counts in your statistics." });
  const presetSelect = h("select", { "aria-label": "Rules of the next deal" },
    Object.entries(PRESETS).map(([key, p]) => h("option", { value: key, text: p.label })));
  presetSelect.value = PRESETS[wanted] ? wanted : "classic";
  const newDealBtn = h("button.btn.primary", { type: "button", dataset: { action: "new-deal" }, onclick: () => newDeal(true) }, "New deal");
  const rulesBtn = h("button.btn", { type: "button", "aria-label": "Rules", onclick: () => openRules(game?.preset || presetSelect.value) }, "?");
  // The result sits in the bar's row: a finished game never pushes the board down (issue 23).
  const result = h("div.practice-result", { role: "status" });
  const main = h("div.race-main", {}, h("p.muted", { role: "status", text: "Dealing…" }));
  const bar = h("div.row.practice-bar", {}, h("label.field.inline", {}, "Rules", presetSelect), newDealBtn, rulesBtn, result);
  // One compact header row: the height goes to the cards.
  root.append(h("div.stack.practice", {}, h("div.practice-head", {}, title, bar), sub, main));

  const conn = new Connection({
    hello: () => ({ token: token(), practice: true }),
    place: { practice: store.get().me?.id },
    onWelcome,
    onMessage(frame) {
      // Another tab of ours played: its board is ours too.
      if (frame.type === "view") show(frame, frame.view);
    },
    onStatus: (s) => store.set({ conn: s }),
  }).start();

  function onWelcome(w) {
    const held = w.state?.game;
    if (held && held.status === "playing") {
      // A game in hand (another tab, a reconnect, a restart): go on with it.
      game = { ...held, number: held.game };
      if (game.preset !== presetSelect.value) presetSelect.value = game.preset;
      draw(w.view);
    } else if (!game || game.status !== "playing") {
      newDeal(false);
    }
  }

  function begun() {
    return game && game.status === "playing" && (game.moves > 0 || (board?.view?.moves ?? 0) > 0);
  }

  async function newDeal(asked) {
    if (dealing) return;
    if (asked && begun() && !(await confirmDialog("Deal a new game? The game in hand counts as given up.", "New deal"))) return;
    dealing = true;
    newDealBtn.disabled = true;
    try {
      const answer = await conn.send("new-deal", { preset: presetSelect.value });
      game = null;
      show(answer, answer.view);
      announce(`New deal: ${presetLabel(answer.preset)}`);
    } catch (err) {
      if (err?.code !== "closed") toast(err.message);
    } finally {
      dealing = false;
      newDealBtn.disabled = false;
    }
  }

  /** An answer or a view message of the game in hand. */
  function show(answer, view) {
    const number = answer.game ?? game?.number;
    const same = game && game.number === number;
    game = { ...(same ? game : {}), ...answer, number, preset: answer.preset ?? game?.preset ?? presetSelect.value };
    if (!same && history.replaceState && location.hash !== `#/practice/${game.preset}`) {
      history.replaceState(null, "", `#/practice/${game.preset}`);
    }
    draw(view);
  }

  function draw(view) {
    title.textContent = `Practice · ${presetLabel(game?.preset)}`;
    if (!board) {
      clear(main);
      board = createGame({
        commands,
        label: "Your board",
        rules: () => game?.rules || {},
        allowUndo: () => true,
        allowHints: () => true,
      });
      main.append(board.el);
    }
    if (view) board.update(view, { finished: game?.status !== "playing" });
    clear(result);
    if (game && game.status && game.status !== "playing") {
      result.append(h("span.row", {},
        h("b", { text: game.status === "won" ? "Won! All four runs are home." : `${STATUS_WORDS[game.status] || game.status}: ${view?.runs?.length ?? 0}/4 runs` }),
        h("button.btn.primary", { type: "button", onclick: () => newDeal(false) }, "Deal again")));
    }
  }

  /** The board's commands: each answer's view becomes the board. */
  async function command(type, fields) {
    const answer = await conn.send(type, fields);
    show(answer, answer.view);
    return answer;
  }

  const commands = {
    move: (text) => command("move", { move: text }),
    deal: () => command("deal"),
    undo: () => command("undo"),
    giveUp: () => command("give-up"),
    auto: () => command("auto"),
    async hint() {
      const answer = await conn.send("hint");
      return (answer.hints || []).map((x) => x.move);
    },
  };

  return () => {
    board?.destroy();
    conn.close();
  };
}
