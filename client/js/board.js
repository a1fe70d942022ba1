// Draws one Scorpion board from a game view (the dict the server sends: columns [{down, up}],
// stock, reserve, runs, ...). Card elements are keyed and reused, so a move can be animated
// from where a card was to where it is now (FLIP), a turned card flips, the stock's cards fly
// to their columns and a finished run flies to its foundation.

import { MASKED, faceDownCard, faceUpCard, maskedCard, cardName, suitName, visibleLabel } from "./cards.js";
import { h, reducedMotion } from "./dom.js";
import { animateChanges, shakeBack } from "./motion.js";
import { columnLabel, coveredRunNote, coveredRuns } from "./tableau.js";

const GAP_RATIO = 0.12; // gap between columns, in card widths
const MAX_CW = 104;
const MIN_CW = 30; // ten columns (Three Blind Mice) still fit a 360 px phone
// The whole board fits the window (the card you build on is the last one of a column: a racer
// must never scroll to it). Columns squeeze first, then cards shrink, down to READABLE_CW.
const STEP_MAX = 0.27; // face-up fan, in card heights
const CORNER = 0.33; // a covered face-up card still shows its corner (rank and suit), in card widths
const READABLE_CW = 41; // the corner's rank is 0.27 card widths: 11 CSS px at 41 px
const BOTTOM_MARGIN = 10;
// A covered face-up card is a target: its strip is never under 24 CSS px (WCAG 2.5.8).
const MIN_TARGET = 24;
// The card size is chosen for a long column (3 face down and a whole run of 13 face up), not
// for the columns of the moment: cards keep their size while the game goes on (issue 23), as
// in every desktop solitaire; only a column longer than that squeezes the fans, then the cards.
const REFERENCE = { down: 3, up: 13 };

/** The strip a covered card shows, in card widths: large corners (js/theme.js) need more. */
function cornerRatio() {
  return document.documentElement.classList.contains("large-cards") ? 0.4 : CORNER;
}

function sizes(cw) {
  const ch = Math.round(cw * 1.4);
  const gap = Math.max(3, Math.floor(cw * GAP_RATIO));
  return {
    cw, ch, gap,
    downStep: Math.max(3, Math.round(ch * 0.1)),
    top: ch + gap * 1.6, // the stock and foundations row (cards.css .toprow)
    minStep: Math.max(MIN_TARGET, Math.ceil(cw * cornerRatio())),
    maxStep: Math.round(ch * STEP_MAX),
  };
}

function columnHeight(S, column, step) {
  const up = column.up.length;
  if (!up) return column.down ? (column.down - 1) * S.downStep + S.ch : S.ch;
  return column.down * S.downStep + (up - 1) * step + S.ch;
}

/** Card size and each column's fan for a view in `width` x `height` CSS px. */
export function fitLayout(v, width, height) {
  const n = v.columns.length;
  const widest = Math.max(MIN_CW, Math.min(MAX_CW, Math.floor(width / (n + (n - 1) * GAP_RATIO))));
  const smallest = Math.min(widest, READABLE_CW);
  let S = sizes(widest);
  const reference = { down: Math.max(REFERENCE.down, ...v.columns.map((c) => c.down)), up: Array(REFERENCE.up) };
  const fits = (T, columns) => T.top + Math.max(...columns.map((c) => columnHeight(T, c, T.minStep))) <= height;
  let fitted = false;
  for (let cw = widest; cw >= smallest && !fitted; cw--) {
    S = sizes(cw);
    fitted = fits(S, [...v.columns, reference]);
  }
  // A very long column (20 cards and more) does not fit with 24 px strips: its strips shrink
  // to the corner (rank and suit still shown) rather than push its last card, the one you
  // build on, out of the window.
  for (let cw = widest; cw >= smallest && !fitted; cw--) {
    S = { ...sizes(cw), minStep: Math.ceil(cw * cornerRatio()) };
    fitted = fits(S, v.columns);
  }
  const room = height - S.top;
  const steps = v.columns.map((c) => {
    const up = c.up.length;
    if (up < 2) return S.maxStep;
    const fit = Math.floor((room - S.ch - c.down * S.downStep) / (up - 1));
    return Math.max(S.minStep, Math.min(S.maxStep, fit));
  });
  return { ...S, steps, width: n * S.cw + (n - 1) * S.gap };
}

export function createBoard({ interactive = true, label = "Your board" } = {}) {
  // The game around the board is the region named `label`; the board is a group inside it.
  const el = h("div.board", { role: "group", "aria-label": `${label}: the table` });
  const readonly = !interactive; // a followed board: cards are pictures, not buttons
  const top = h("div.toprow");
  const stockSlot = h("div.slot.stock-slot", { dataset: { zone: "stock" } });
  const reserveRow = h("div.reserve-row");
  const foundations = h("div.foundations", { role: "list", "aria-label": "Runs removed" });
  top.append(stockSlot, reserveRow, foundations);
  const tableau = h("div.tableau");
  const note = h("div.board-note", { role: "note", hidden: true });
  // Why a followed board shows hatched backs where its racer sees cards (issue 23, item 9).
  const maskNote = h("p.mask-note", { role: "note", hidden: true, dataset: { note: "masked" } },
    h("span.mask-swatch", { "aria-hidden": "true" }),
    "Hatched cards are face up for this racer but hidden from you until every racer still playing has turned them: nobody learns a card early.");
  el.append(top, tableau, note, maskNote);

  const cards = new Map(); // key -> element
  let columnEls = [];
  let view = null;
  let highlighted = [];
  const board = { el, tableau, interactive, get view() { return view; }, columnEls: () => columnEls };

  function ensureColumns(n) {
    while (columnEls.length < n) {
      const i = columnEls.length;
      const col = h("div.column", { role: "group", dataset: { col: String(i) } });
      tableau.append(col);
      columnEls.push(col);
    }
    while (columnEls.length > n) columnEls.pop().remove();
  }

  function getCard(key, make) {
    let card = cards.get(key);
    if (!card) {
      card = make();
      card.dataset.key = key;
      cards.set(key, card);
    }
    return card;
  }

  function layout(v) {
    // Measure the space outside the .game wrapper: the wrapper itself is sized to the board.
    const host = el.closest(".game")?.parentElement || el.parentElement;
    const width = host?.clientWidth || el.clientWidth || 700;
    // From the board's top (in the page, whatever the scroll) to the window's bottom edge,
    // less what follows the board in its game section (the help line).
    const top = el.getBoundingClientRect().top + window.scrollY;
    let below = 0;
    for (let s = el.nextElementSibling; s; s = s.nextElementSibling) {
      // An opened help reads below the board (the page scrolls to it): the cards keep their size.
      const part = s.tagName === "DETAILS" ? s.querySelector("summary") || s : s;
      below += part.getBoundingClientRect().height;
    }
    const main = el.closest("main");
    const padding = main ? parseFloat(getComputedStyle(main).paddingBottom) || 0 : 0;
    return fitLayout(v, width, window.innerHeight - top - below - padding - BOTTOM_MARGIN);
  }

  /** Draw a view. opts.animate: animate from the previous view (moves, turns, runs). */
  function update(next, opts = {}) {
    const prev = view;
    view = next;
    const animate = opts.animate && prev && !reducedMotion();
    const before = new Map();
    if (animate) for (const [key, c] of cards) before.set(key, c.getBoundingClientRect());
    const stockRect = stockSlot.getBoundingClientRect();
    const focusedKey = document.activeElement?.dataset?.key;

    // Nothing stale stays lit (issue 23): a hint's glow belongs to the board it was given for.
    if (next !== prev) clearHighlight();
    const L = layout(next);
    fitted = layoutKey(L);
    el.style.setProperty("--cw", `${L.cw}px`);
    el.style.setProperty("--ch", `${L.ch}px`);
    el.style.setProperty("--gap", `${L.gap}px`);
    el.style.setProperty("--board-w", `${L.width}px`);
    el.closest(".game")?.style.setProperty("--board-w", `${L.width}px`);
    ensureColumns(next.columns.length);
    const seen = new Set();
    let tallest = L.ch;

    next.columns.forEach((column, j) => {
      const colEl = columnEls[j];
      let y = 0;
      const place = (card, key, z) => {
        card.style.top = `${y}px`;
        card.style.zIndex = String(z);
        card.style.transform = "";
        card.classList.remove("dragging", "selected", "hint-src", "covered-run");
        if (card.parentElement !== colEl || colEl.children[z] !== card) colEl.append(card);
        seen.add(key);
      };
      for (let i = 0; i < column.down; i++) {
        const key = `d:${j}:${i}`;
        const card = getCard(key, faceDownCard);
        card.setAttribute("aria-hidden", "true");
        place(card, key, i);
        y += L.downStep;
      }
      column.up.forEach((text, i) => {
        if (text === MASKED) {
          const key = `m:${j}:${i}`;
          place(getCard(key, maskedCard), key, column.down + i);
          if (i < column.up.length - 1) y += L.steps[j];
          return;
        }
        const key = `c:${text}`;
        const card = getCard(key, () => faceUpCard(text));
        card.setAttribute("role", readonly ? "img" : "button");
        card.setAttribute("aria-label", `${visibleLabel(text)}, ${cardName(text)}, column ${j + 1}`);
        card.dataset.col = String(j);
        card.dataset.index = String(i);
        if (!readonly && !card.hasAttribute("tabindex")) card.tabIndex = -1;
        place(card, key, column.down + i);
        if (i < column.up.length - 1) y += L.steps[j];
      });
      const height = (column.up.length ? y : Math.max(0, y - L.downStep)) + L.ch;
      colEl.style.height = `${height}px`;
      tallest = Math.max(tallest, height);
      colEl.setAttribute("aria-label", columnLabel(j, column));
      colEl.classList.toggle("empty", column.down + column.up.length === 0);
    });
    tableau.style.height = `${tallest}px`;

    drawStock(next, seen);
    drawReserve(next, seen);
    drawFoundations(next, seen);

    const gone = [];
    for (const [key, card] of cards) {
      if (!seen.has(key)) {
        cards.delete(key);
        if (animate && key.startsWith("c:")) gone.push([card, before.get(key)]);
        else card.remove();
      }
    }
    maskNote.hidden = !next.columns.some((c) => c.up.includes(MASKED));
    lastRules = opts.rules || lastRules;
    explainCoveredRuns(next, lastRules);
    highlighted = [];
    if (focusedKey && cards.get(focusedKey) && document.activeElement !== cards.get(focusedKey)) {
      cards.get(focusedKey).focus({ preventScroll: true });
    }
    if (animate) animateChanges({ el, cards, foundations, prev, next, before, gone, stockRect });
  }

  function drawStock(v, seen) {
    stockSlot.hidden = v.reserve && v.reserve.length > 0 && !v.stock;
    const count = v.stock || 0;
    for (let i = 0; i < count; i++) {
      const key = `s:${i}`;
      const card = getCard(key, faceDownCard);
      card.style.top = "0px";
      card.style.left = `${i * 3}px`;
      card.style.zIndex = String(i);
      if (card.parentElement !== stockSlot) stockSlot.append(card);
      seen.add(key);
    }
    stockSlot.classList.toggle("dealt", count === 0);
    stockSlot.setAttribute("role", readonly ? "img" : "button");
    if (readonly) stockSlot.removeAttribute("tabindex");
    else stockSlot.tabIndex = interactive && count ? 0 : -1;
    if (!readonly) stockSlot.setAttribute("aria-disabled", String(!count));
    stockSlot.setAttribute("aria-label", !count ? "Stock, dealt" : readonly
      ? `Stock, ${count} cards face down`
      : `Stock, ${count} cards face down: deal one onto each of columns 1 to 3`);
    stockSlot.title = count ? "Deal the stock (D)" : "The stock has been dealt";
  }

  function drawReserve(v, seen) {
    const reserve = v.reserve || [];
    reserveRow.hidden = reserve.length === 0;
    reserve.forEach((text, i) => {
      const key = `c:${text}`;
      const card = getCard(key, () => faceUpCard(text));
      card.setAttribute("role", readonly ? "img" : "button");
      card.setAttribute("aria-label", `${visibleLabel(text)}, ${cardName(text)}, reserve cell ${i + 1}`);
      card.dataset.col = "reserve";
      card.dataset.index = "0";
      if (!readonly && !card.hasAttribute("tabindex")) card.tabIndex = -1;
      card.style.top = "0px";
      card.style.left = `calc(${i} * (var(--cw) + var(--gap)))`;
      card.style.transform = "";
      card.classList.remove("dragging", "selected", "hint-src");
      if (card.parentElement !== reserveRow) reserveRow.append(card);
      seen.add(key);
    });
  }

  function drawFoundations(v, seen) {
    const runs = v.runs || [];
    while (foundations.children.length < 4) {
      foundations.append(h("div.slot.foundation", { role: "listitem" }));
    }
    [...foundations.children].forEach((slot, i) => {
      const suit = runs[i];
      slot.setAttribute("aria-label", suit ? `${suitName(suit)} run removed` : "empty foundation");
      if (!suit) return;
      const key = `f:${suit}`;
      const card = getCard(key, () => faceUpCard(`K${suit}`));
      card.setAttribute("aria-hidden", "true");
      card.style.top = "0px";
      if (card.parentElement !== slot) slot.append(card);
      seen.add(key);
    });
  }

  function explainCoveredRuns(v, rules) {
    const found = coveredRuns(v);
    for (const { column, start } of found) {
      const up = v.columns[column].up;
      for (let i = start; i < start + 13; i++) cards.get(`c:${up[i]}`)?.classList.add("covered-run");
    }
    const text = coveredRunNote(v, found, rules?.runs);
    note.textContent = text || "";
    note.hidden = !text;
  }

  /** Highlight hint moves ("5C>3", "deal"). */
  function highlight(moves) {
    clearHighlight();
    for (const move of moves) {
      if (move === "deal") {
        stockSlot.classList.add("hint-dst");
        highlighted.push(stockSlot);
        continue;
      }
      const [card, col] = move.split(">");
      const src = cards.get(`c:${card}`);
      if (src) { src.classList.add("hint-src"); highlighted.push(src); }
      const dst = col && columnEls[Number(col) - 1];
      if (dst) { dst.classList.add("hint-dst"); highlighted.push(dst); }
    }
  }

  function clearHighlight() {
    for (const e of highlighted) e.classList.remove("hint-src", "hint-dst");
    highlighted = [];
    for (const c of columnEls) c.classList.remove("hint-dst", "drop-hint", "drop-ok");
    for (const c of el.querySelectorAll(".hint-src")) c.classList.remove("hint-src");
    stockSlot.classList.remove("hint-dst");
  }

  /** The card elements that move with `text` (it and every card on it). */
  function group(text) {
    if (!view) return [];
    const first = cards.get(`c:${text}`);
    if (!first) return [];
    if (first.dataset.col === "reserve") return [first];
    const column = view.columns[Number(first.dataset.col)];
    return column.up.slice(Number(first.dataset.index)).map((t) => cards.get(`c:${t}`));
  }

  /** Shake cards that were refused and slide them back. */
  function refuse(text) {
    for (const c of text ? group(text) : []) shakeBack(c);
  }

  function select(text) {
    for (const c of el.querySelectorAll(".card.selected")) c.classList.remove("selected");
    if (text) for (const c of group(text)) c.classList.add("selected");
  }

  /** The column index under a page point, or null. Forgiving: the nearest column by x. */
  function columnAt(x, y) {
    const tab = tableau.getBoundingClientRect();
    if (y < tab.top - 20 || !columnEls.length) return null;
    let best = null;
    let bestDist = Infinity;
    columnEls.forEach((c, i) => {
      const r = c.getBoundingClientRect();
      const dist = x < r.left ? r.left - x : x > r.right ? x - r.right : 0;
      if (dist < bestDist) { best = i; bestDist = dist; }
    });
    return bestDist < 40 ? best : null;
  }

  // Re-fit the cards when the window changes size (phone rotation, split screen) or what lies
  // above the board does (a title, a wrapped line): only when the fit changes, never mid-drag.
  let lastRules = null;
  let fitted = "";
  let resizeTimer = null;
  const layoutKey = (L) => `${L.cw}:${L.steps.join(",")}`;
  const refit = () => {
    if (!view || !el.isConnected || el.querySelector(".card.dragging")) return;
    if (layoutKey(layout(view)) !== fitted) update(view, { rules: lastRules });
  };
  const onResize = () => {
    if (!el.isConnected) {
      window.removeEventListener("resize", onResize);
      observer?.disconnect();
      return;
    }
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(refit, 80);
  };
  window.addEventListener("resize", onResize);
  const observer = typeof ResizeObserver === "function" ? new ResizeObserver(onResize) : null;
  observer?.observe(document.body);

  Object.assign(board, { update, highlight, clearHighlight, group, refuse, select, columnAt,
    stockSlot, cardEl: (text) => cards.get(`c:${text}`) });
  return board;
}

export { columnLabel, coveredRuns, legalTargets } from "./tableau.js";
