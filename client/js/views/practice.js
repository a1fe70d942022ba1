// Practice (docs/protocol.md section 8): your own games, one after another. No invite, no
// countdown, no clock, no ranking: the board, undo, hints, Auto and a new deal. Its session
// (session.js, `practice: true`) puts the game in hand and its board in the store, which this
// page draws; the game in hand comes back on any tab and after a restart.

import { announce, clear, h } from "../dom.js";
import { fillIf } from "../keyed.js";
import { openSession } from "../session.js";
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
  store.set({ conn: null, practice: null, board: null, welcomed: false });
  let board = null; // the game on screen
  let dealing = false;
  let shown = null; // the number of the game last drawn
  const title = h("h1");
  const sub = h("p.sr-only", { text: "Just you: no clock, never ranked. Undo, hints and Auto are always on; a finished game counts in your statistics." });
  const presetSelect = h("select", { "aria-label": "Rules of the next deal" },
    Object.entries(PRESETS).map(([key, p]) => h("option", { value: key, text: p.label })));
  presetSelect.value = PRESETS[wanted] ? wanted : "classic";
  const newDealBtn = h("button.btn.primary", { type: "button", dataset: { action: "new-deal" }, onclick: () => newDeal(true) }, "New deal");
  const rulesBtn = h("button.btn", { type: "button", "aria-label": "Rules", onclick: () => openRules(held()?.preset || presetSelect.value) }, "?");
  // The result sits in the bar's row: a finished game never pushes the board down (issue 23).
  const result = h("div.practice-result", { role: "status" });
  const main = h("div.race-main", {}, h("p.muted", { role: "status", text: "Dealing…" }));
  const bar = h("div.row.practice-bar", {}, h("label.field.inline", {}, "Rules", presetSelect), newDealBtn, rulesBtn, result);
  // One compact header row: the height goes to the cards.
  root.append(h("div.stack.practice", {}, h("div.practice-head", {}, title, bar), sub, main));

  // Each welcome: the session has put a game in hand in the store; without one, deal.
  const session = openSession(store, { practice: true, onWelcome: () => { if (!playing(held())) newDeal(false); } });
  const unsubscribe = store.subscribe(render);

  /** The game in hand: {number, preset, status, rules, moves, ...} as the server said. */
  function held(s = store.get()) {
    return s.practice?.game || null;
  }

  function begun() {
    const game = held();
    return playing(game) && (game.moves > 0 || (store.get().board?.moves ?? 0) > 0);
  }

  async function newDeal(asked) {
    if (dealing) return;
    if (asked && begun() && !(await confirmDialog("Deal a new game? The game in hand counts as given up.", "New deal"))) return;
    dealing = true;
    newDealBtn.disabled = true;
    try {
      const answer = await session.newDeal(presetSelect.value);
      announce(`New deal: ${presetLabel(answer.preset)}`);
    } catch (err) {
      if (err?.code !== "closed") toast(err.message);
    } finally {
      dealing = false;
      newDealBtn.disabled = false;
    }
  }

  function render(s) {
    const game = held(s);
    if (!game) return;
    const preset = game.preset ?? presetSelect.value;
    if (game.number !== shown) {
      // Another game (dealt here, on another tab, or resumed): the page names its rules.
      shown = game.number;
      if (presetSelect.value !== preset && PRESETS[preset]) presetSelect.value = preset;
      if (history.replaceState && location.hash !== `#/practice/${preset}`) history.replaceState(null, "", `#/practice/${preset}`);
    }
    title.textContent = `Practice · ${presetLabel(preset)}`;
    if (!board) {
      clear(main);
      board = createGame({
        commands: session,
        label: "Your board",
        rules: () => held()?.rules || {},
        allowUndo: () => true,
        allowHints: () => true,
      });
      main.append(board.el);
    }
    if (s.board) board.update(s.board, { finished: game.status !== "playing" });
    const over = game.status && game.status !== "playing";
    fillIf(result, over ? `${game.status}:${s.board?.runs?.length ?? 0}` : "", () => (over ? h("span.row", {},
      h("b", { text: game.status === "won" ? "Won! All four runs are home." : `${STATUS_WORDS[game.status] || game.status}: ${s.board?.runs?.length ?? 0}/4 runs` }),
      h("button.btn.primary", { type: "button", onclick: () => newDeal(false) }, "Deal again")) : null));
  }

  return () => {
    unsubscribe();
    board?.destroy();
    session.close();
  };
}

function playing(game) {
  return !!game && game.status === "playing";
}
