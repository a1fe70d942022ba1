// Input on a board: drag any face-up card (everything on it comes along), tap a card to send it
// where it fits (the server resolves "4H"), tap a card then a column, and the keyboard.
// It calls actions.move(text) -> Promise and reports refusals back to the board.

import { announce, reducedMotion } from "./dom.js";
import { cardName } from "./cards.js";

const DRAG_START = 6; // px before a press becomes a drag

/**
 * actions: {move(text, card) -> Promise, deal(), undo(), hint(), refused(err, card)}
 * options: {tapMode: () => "move" | "select", fits: (card) => [0-based columns] from the legal moves}
 */
export function attachInput(board, actions, options = {}) {
  const el = board.el;
  let press = null;
  let selected = null;
  let focus = { col: 0, index: -1 }; // index -1: the column itself (used when it is empty)
  const tapMode = options.tapMode || (() => "move");
  const fits = (text) => (options.fits ? options.fits(text) : []);

  /** Light the columns a card may go to (the legal moves the server sent). */
  function glow(columns) {
    board.columnEls().forEach((c, i) => c.classList.toggle("drop-hint", columns.includes(i)));
  }

  function select(text) {
    selected = text;
    board.select(text);
    el.classList.toggle("has-selection", !!text);
    glow(text ? fits(text) : []);
  }

  async function send(text, card) {
    select(null);
    board.clearHighlight();
    try {
      await actions.move(text, card);
    } catch (err) {
      board.refuse(card);
      actions.refused?.(err, card);
      // A tap that cannot be resolved leaves the card picked up: tap a column to finish.
      if (card && (err.code === "ambiguous" || err.code === "no-target") && !text.includes(">")) select(card);
    }
  }

  function columnOf(text) {
    const c = board.cardEl(text);
    return c ? c.dataset.col : null;
  }

  // ------------------------------------------------------------------ pointer
  el.addEventListener("pointerdown", (e) => {
    if (!board.interactive || e.button > 0) return;
    const cardEl = e.target.closest(".card.up");
    if (!cardEl || !cardEl.dataset.col || cardEl.classList.contains("ghost")) return;
    const text = cardEl.dataset.card;
    press = { id: e.pointerId, x: e.clientX, y: e.clientY, text, els: board.group(text), dragging: false };
    try { el.setPointerCapture(e.pointerId); } catch { /* not capturable: moves still arrive */ }
  });

  el.addEventListener("pointermove", (e) => {
    if (!press || e.pointerId !== press.id) return;
    const dx = e.clientX - press.x;
    const dy = e.clientY - press.y;
    if (!press.dragging) {
      if (Math.hypot(dx, dy) < DRAG_START) return;
      press.dragging = true;
      select(null);
      for (const c of press.els) c.classList.add("dragging");
      glow(fits(press.text));
      press.els[0]?.parentElement?.classList.add("lifted");
    }
    for (const c of press.els) c.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-3, Math.min(3, dx / 60))}deg)`;
    const col = board.columnAt(e.clientX, e.clientY);
    board.columnEls().forEach((c, i) => c.classList.toggle("drop-ok", i === col && String(i) !== columnOf(press.text)));
    e.preventDefault();
  });

  function endPress(e, cancelled) {
    if (!press || e.pointerId !== press.id) return;
    const p = press;
    press = null;
    board.columnEls().forEach((c) => c.classList.remove("drop-ok", "drop-hint"));
    // The lifted column stays above the others until the dropped cards have landed.
    const unlift = () => board.columnEls().forEach((c) => c.classList.remove("lifted"));
    if (!p.dragging) {
      unlift();
      if (!cancelled) tapCard(p.text);
      return;
    }
    const col = cancelled ? null : board.columnAt(e.clientX, e.clientY);
    if (col === null || String(col) === columnOf(p.text)) {
      slideBack(p.els);
      setTimeout(unlift, 220);
      return;
    }
    for (const c of p.els) c.classList.remove("dragging");
    send(`${p.text}>${col + 1}`, p.text).finally(() => setTimeout(unlift, 240));
  }
  el.addEventListener("pointerup", (e) => endPress(e, false));
  el.addEventListener("pointercancel", (e) => endPress(e, true));

  // Taps on an empty column, on a column's free space, or on the stock.
  el.addEventListener("click", (e) => {
    if (!board.interactive) return;
    if (e.target.closest(".stock-slot")) {
      select(null);
      actions.deal();
      return;
    }
    const colEl = e.target.closest(".column");
    if (colEl && !e.target.closest(".card.up") && selected) {
      send(`${selected}>${Number(colEl.dataset.col) + 1}`, selected);
    }
  });

  function tapCard(text) {
    if (selected && selected !== text && columnOf(selected) !== columnOf(text)) {
      const col = columnOf(text);
      if (col !== "reserve") {
        send(`${selected}>${Number(col) + 1}`, selected);
        return;
      }
    }
    if (selected === text) {
      select(null);
      return;
    }
    if (tapMode() === "select") select(text);
    else send(text, text);
  }

  function slideBack(els) {
    for (const c of els) {
      const from = c.style.transform;
      c.style.transform = "";
      c.classList.remove("dragging");
      if (from && !reducedMotion()) {
        c.animate([{ transform: from }, { transform: "none" }], { duration: 200, easing: "ease-out" });
      }
    }
  }

  // ----------------------------------------------------------------- keyboard
  function focusables() {
    const view = board.view;
    if (!view) return null;
    return view.columns;
  }

  function focusTarget() {
    const cols = focusables();
    if (!cols) return null;
    focus.col = Math.max(0, Math.min(cols.length - 1, focus.col));
    const up = cols[focus.col].up;
    if (!up.length) return board.columnEls()[focus.col];
    if (focus.index < 0 || focus.index >= up.length) focus.index = up.length - 1;
    return board.cardEl(up[focus.index]);
  }

  /** Keep exactly one tab stop in the tableau (roving tabindex). */
  function syncTabStop() {
    for (const c of el.querySelectorAll(".card[tabindex='0'], .column[tabindex='0']")) c.tabIndex = -1;
    const t = focusTarget();
    if (t) t.tabIndex = 0;
  }

  function moveFocus(dcol, dindex) {
    const cols = focusables();
    if (!cols) return;
    if (dcol) {
      focus.col = (focus.col + dcol + cols.length) % cols.length;
      focus.index = cols[focus.col].up.length - 1;
    }
    if (dindex) {
      const n = cols[focus.col].up.length;
      focus.index = Math.max(0, Math.min(n - 1, focus.index + dindex));
    }
    syncTabStop();
    focusTarget()?.focus();
  }

  el.addEventListener("focusin", (e) => {
    const c = e.target.closest(".card.up, .column");
    if (!c || !c.dataset.col || c.dataset.col === "reserve") return;
    focus.col = Number(c.dataset.col);
    focus.index = c.classList.contains("card") ? Number(c.dataset.index) : -1;
    syncTabStop();
  });

  el.addEventListener("keydown", (e) => {
    if (!board.interactive || e.altKey || e.metaKey || e.ctrlKey) return;
    const onCard = e.target.closest(".card.up");
    const text = onCard?.dataset.card;
    switch (e.key) {
      case "ArrowLeft": moveFocus(-1, 0); break;
      case "ArrowRight": moveFocus(1, 0); break;
      case "ArrowUp": moveFocus(0, -1); break;
      case "ArrowDown": moveFocus(0, 1); break;
      case "Enter":
        if (e.target.closest(".stock-slot")) actions.deal();
        else if (selected) dropOnFocused();
        else if (text) sendWhereItFits(text);
        break;
      case " ":
        if (e.target.closest(".stock-slot")) actions.deal();
        else if (selected) dropOnFocused();
        else if (text) select(text);
        break;
      case "Escape": select(null); board.clearHighlight(); break;
      default:
        if (/^[0-9]$/.test(e.key)) {
          const col = e.key === "0" ? 10 : Number(e.key);
          const card = selected || text;
          if (card && col <= board.view.columns.length) send(`${card}>${col}`, card);
          break;
        }
        return;
    }
    e.preventDefault();
  });

  /** Enter on a card: one place it fits, it goes there; several, it is picked up with those
   * columns lit; none, the server is asked anyway and says why not. */
  function sendWhereItFits(text) {
    const targets = fits(text);
    if (targets.length === 1) send(`${text}>${targets[0] + 1}`, text);
    else if (targets.length > 1) {
      select(text);
      announce(`${cardName(text)} fits on columns ${targets.map((j) => j + 1).join(" and ")}: press a column's number`);
    } else send(text, text);
  }

  function dropOnFocused() {
    const col = focus.col;
    if (String(col) === columnOf(selected)) {
      select(null);
      return;
    }
    send(`${selected}>${col + 1}`, selected);
  }

  return {
    /** Call after each board update: a new board drops the card picked up (it was picked up
     * on the board before: a move, a deal, an undo or Auto changed it) and keeps the tab stop. */
    refresh() {
      if (selected) select(null);
      syncTabStop();
    },
    clear: () => select(null),
    get selected() { return selected; },
  };
}

/** Keys that work anywhere on a game page (not while typing in a field). */
export function gameKeys(actions) {
  const handler = (e) => {
    if (e.target.closest("input, textarea, select, [contenteditable]")) return;
    if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "z") {
      actions.undo();
      e.preventDefault();
      return;
    }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const key = e.key.toLowerCase();
    if (key === "d") actions.deal();
    else if (key === "u") actions.undo();
    else if (key === "h") actions.hint();
    else if (key === "a" && actions.auto) actions.auto();
    else return;
    e.preventDefault();
  };
  document.addEventListener("keydown", handler);
  return () => document.removeEventListener("keydown", handler);
}
