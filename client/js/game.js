// A game on screen: the board with its input, the score line and the buttons (undo, hint,
// auto, deal, give up). Used for your race board, the daily and practice; readonly for a followed
// board. The caller passes the commands (session) and the rules the room plays. Auto is
// offered where the caller's allowAuto says; without one, where hints are (the daily).

import { createBoard, legalTargets } from "./board.js";
import { attachInput, gameKeys } from "./input.js";
import { announce, h, reducedMotion } from "./dom.js";
import { cardName } from "./cards.js";
import { confirmDialog, toast } from "./ui.js";
import { applyColors, themeControls } from "./theme.js";
import { muteButton, play } from "./sound.js";
import { celebrate as cascade } from "./celebrate.js";

const TAP_KEY = "scorpion.tapMode";
const COLORS_KEY = "scorpion.colors";

export { applyColors };

export function createGame({ commands, readonly = false, label = "Your board", allowUndo = () => true, allowHints = () => true, allowAuto = allowHints, fairUndo = () => false, rules = () => ({}) }) {
  const board = createBoard({ interactive: !readonly, label });
  if (readonly) board.el.classList.add("readonly");
  const score = stat("score", "Score");
  const moves = stat("moves", "Moves");
  const runs = stat("runs", "Runs");
  const clockSlot = h("div.clock-slot");
  const undoBtn = button("Undo", "Undo the last move (U)", () => { input?.clear(); act(commands.undo, announceUndo); });
  const hintBtn = button("Hint", "Show the moves you can make (H)", () => hint());
  // Auto (seed 004): the server plays one move of a winning line; on a lost game it changes
  // nothing and says so, and the player is asked whether to give up.
  const autoBtn = button("Auto", "Auto plays one move of a winning line for you (A)", () => auto());
  const dealBtn = button("Deal", "Deal the stock: one card onto each of columns 1-3 (D)", () => { input?.clear(); act(commands.deal, announceDeal); });
  const giveUpBtn = button("Give up", "End your game here", async () => {
    if (await confirmDialog("Give up this game? It counts as a loss, scored where it stands.", "Give up")) act(commands.giveUp);
  });
  // Fair undo (issue 21): why Undo is off now, or why it was just refused, by the button.
  const undoNote = h("p.undo-note", { role: "status" });
  giveUpBtn.classList.add("danger");
  const tapToggle = h("input", { type: "checkbox", id: `tap-${Math.random().toString(36).slice(2)}` });
  tapToggle.checked = localStorage.getItem(TAP_KEY) !== "select";
  tapToggle.addEventListener("change", () => localStorage.setItem(TAP_KEY, tapToggle.checked ? "move" : "select"));
  const colorToggle = h("input", { type: "checkbox", id: `colors-${Math.random().toString(36).slice(2)}` });
  colorToggle.checked = localStorage.getItem(COLORS_KEY) !== "two";
  colorToggle.addEventListener("change", () => {
    localStorage.setItem(COLORS_KEY, colorToggle.checked ? "four" : "two");
    applyColors();
  });
  const controls = h("div.controls", { role: "toolbar", "aria-label": "Game controls" }, undoBtn, hintBtn, autoBtn, dealBtn, giveUpBtn, muteButton());
  const hud = h("div.hud", {}, clockSlot, h("div.stats-line", {}, runs.el, score.el, moves.el), readonly ? null : controls, readonly ? null : undoNote);
  const help = readonly ? null : h("details.help-keys", {},
    h("summary", { text: "How to play, keys and table" }),
    h("p", {}, "Drag any face-up card: the cards on it come along. Tap a card to send it where it fits, or pick it up and tap a column. Keys: ",
      h("kbd", { text: "←→↑↓" }), " move, ", h("kbd", { text: "Enter" }), " send where it fits, ",
      h("kbd", { text: "Space" }), " pick up / put down, ", h("kbd", { text: "1–7" }), " send to a column, ",
      h("kbd", { text: "D" }), " deal, ", h("kbd", { text: "U" }), " undo, ", h("kbd", { text: "H" }), " hint (again: the next one), ", h("kbd", { text: "A" }), " auto, ",
      h("kbd", { text: "Esc" }), " cancel."),
    h("label.check", { for: tapToggle.id }, tapToggle, "A tap sends the card where it fits (off: a tap picks it up)"),
    h("label.check", { for: colorToggle.id }, colorToggle, "Four suit colours (off: red and black)"),
    themeControls());
  const el = h("section.game", { "aria-label": label }, hud, board.el, help);

  let view = null;
  let input = null;
  let stopKeys = null;
  let over = false;
  let autoBusy = false; // an auto command in flight: the server may search for a moment

  async function act(fn, announced) {
    if (!fn) return;
    try {
      const before = view;
      const answer = await fn();
      announced?.(answer, before);
    } catch (err) {
      refused(err);
    }
  }

  function refused(err, card) {
    if (err?.code === "closed") return; // the page is going away: nothing to say
    const message = err?.message || "That move is not allowed";
    if (err?.code === "undo-reveals") { // said where it happens: the line by the Undo button
      undoNote.textContent = message;
      announce(message, true);
      return;
    }
    toast(message);
    announce(card ? `${cardName(card)}: ${message}` : message, true);
  }

  // One hint at a time: the first press asks the server, the next presses show its next
  // suggestion for the same board (a move on the board asks again).
  let hints = { view: null, moves: [], index: -1 };

  async function hint() {
    input?.clear(); // a card picked up is put down: the hint shows what to pick up
    try {
      if (hints.view !== view || !hints.moves.length) hints = { view, moves: await commands.hint(), index: -1 };
      const { moves } = hints;
      if (!moves.length) {
        toast("No moves left: undo, or deal the stock if you still can.", "info");
        return;
      }
      hints.index = (hints.index + 1) % moves.length;
      const move = moves[hints.index];
      board.highlight([move]);
      announce(`Hint ${hints.index + 1} of ${moves.length}: ${describeMove(move)}`);
    } catch (err) {
      refused(err);
    }
  }

  async function auto() {
    if (autoBusy || readonly || !commands.auto || !allowAuto() || over) return;
    input?.clear();
    board.clearHighlight();
    autoBusy = true;
    syncAuto();
    try {
      const answer = await commands.auto();
      if (answer.verdict === "lost") {
        // Auto never gives a game up by itself: the player says yes, like Give up.
        announce("Auto finds no way to win from here.", true);
        if (await confirmDialog("Auto finds no way to win from here. Give up?", "Give up", "Play on")) await act(commands.giveUp);
      } else if (answer.auto) {
        announce(`Auto played ${describeMove(answer.auto)}.`);
      }
    } catch (err) {
      if (err?.code === "auto-unknown") {
        toast(err.message || "Auto found no line in time; the game goes on.", "info");
        announce(err.message || "Auto found no line in time; the game goes on.");
      } else refused(err);
    } finally {
      autoBusy = false;
      syncAuto();
    }
  }

  function syncAuto() {
    autoBtn.hidden = !allowAuto();
    autoBtn.disabled = over || autoBusy;
    autoBtn.setAttribute("aria-busy", autoBusy ? "true" : "false");
  }

  if (!readonly) {
    input = attachInput(board, {
      move: async (text, card) => {
        const answer = await commands.move(text);
        announceMove(answer, card);
        return answer;
      },
      deal: () => act(commands.deal, announceDeal),
      refused,
    }, {
      tapMode: () => (tapToggle.checked ? "move" : "select"),
      fits: (card) => legalTargets(board.view, card),
    });
    stopKeys = gameKeys({ deal: () => { input.clear(); act(commands.deal, announceDeal); }, undo: () => { input.clear(); act(commands.undo, announceUndo); }, hint: () => hint(), auto: () => auto() });
  }

  function announceMove(answer, card) {
    const v = answer?.view;
    if (!v || !view) return;
    const parts = [];
    if (answer.move && card) {
      const to = answer.move.split(">")[1];
      parts.push(`${cardName(card)} to column ${to}`);
    }
    if (v.runs.length > view.runs.length) parts.push(`run of ${v.runs.length === 4 ? "the last suit" : "cards"} removed, ${v.runs.length} of 4`);
    if (v.turned > view.turned) parts.push("a card turned face up");
    if (parts.length) announce(parts.join(", "));
  }

  /** The deal said in words: which card landed on each of columns 1 to 3. */
  function announceDeal(answer) {
    const v = answer?.view || view;
    const dealt = (v?.columns || []).slice(0, 3).map((c, j) => c.up.length ? `${cardName(c.up[c.up.length - 1])} on column ${j + 1}` : null);
    announce(`Stock dealt: ${dealt.filter(Boolean).join(", ")}`);
  }

  function announceUndo(answer, before) {
    const v = answer?.view;
    const parts = ["Move undone"];
    if (v && before && v.turned < before.turned) parts.push("a card turned back face down");
    if (v && before && v.runs.length < before.runs.length) parts.push("a run is back on the table");
    if (v && before && v.stock > before.stock) parts.push("the stock is back");
    if (v) parts.push(`score ${v.score}`);
    announce(parts.join(", "));
  }

  function celebrate() {
    celebrateBoard(board);
    if (!readonly) {
      play("win");
      cascade({ from: [...board.el.querySelectorAll(".foundation")], suits: view?.runs || undefined });
    }
    announce(readonly ? "All four runs are home: won!" : "You won! All four runs are home.", true);
  }

  function update(next, opts = {}) {
    if (!next) return;
    // Under fair undo the line by Undo comes and goes: its room is kept (set before the board
    // is fitted), so the board never jumps.
    undoNote.classList.toggle("reserved", !readonly && !(next.won || next.lost || opts.finished) && allowUndo() && fairUndo());
    if (next !== view) {
      const justWon = next.won && view && !view.won;
      const animate = opts.animate !== false && !!view;
      board.update(next, { animate, rules: rules() });
      if (!readonly && view && !justWon) sound(view, next);
      view = next;
      input?.refresh();
      if (next.won || next.lost || opts.finished) board.clearHighlight();
      if (justWon) celebrate();
    }
    // A followed board's score may be withheld until the results (protocol.md): "–".
    score.set(next.score ?? "–");
    moves.set(next.moves);
    runs.set(`${next.runs.length}/4`);
    over = !!(next.won || next.lost || opts.finished);
    undoBtn.disabled = !next.can_undo || !allowUndo() || over;
    undoBtn.hidden = !allowUndo();
    undoNote.textContent = !over && allowUndo() && next.undo_refusal ? next.undo_refusal : "";
    hintBtn.hidden = !allowHints();
    hintBtn.disabled = over;
    syncAuto();
    dealBtn.disabled = !next.stock || over;
    dealBtn.hidden = !next.stock && next.reserve && next.reserve.length > 0;
    giveUpBtn.disabled = over;
    board.interactive = !readonly && !over;
  }

  return {
    el,
    board,
    update,
    clockSlot,
    get view() { return view; },
    destroy() { stopKeys?.(); },
  };
}

/** The sound of a change of your own board (js/sound.js). */
function sound(before, after) {
  if (after.moves === before.moves && after.runs.length === before.runs.length) return;
  if (after.runs.length > before.runs.length) play("run");
  else if ((after.stock || 0) < (before.stock || 0)) play("deal");
  else if (after.moves > before.moves) play("place");
}

/** Four runs home: the Kings on the foundations take a bow (not under reduced motion). */
function celebrateBoard(board) {
  board.el.classList.add("won");
  if (reducedMotion()) return;
  [...board.el.querySelectorAll(".foundation .card")].forEach((card, i) => {
    card.animate(
      [{ transform: "none" }, { transform: "translateY(-18px) rotate(-6deg)" }, { transform: "none" }],
      { duration: 520, delay: 500 + i * 140, easing: "cubic-bezier(.3,1.6,.5,1)" },
    );
  });
}

function stat(name, label) {
  const value = h("b", { text: "0" });
  const el = h("div.stat", { dataset: { stat: name } }, value, h("span", { text: label }));
  return { el, set: (v) => { value.textContent = String(v); } };
}

function button(text, title, onclick) {
  return h("button.btn.small", { type: "button", title, onclick }, text);
}

function describeMove(move) {
  if (move === "deal") return "deal the stock";
  const [card, col] = move.split(">");
  return `${cardName(card)} to column ${col}`;
}
