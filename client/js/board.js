// Draws one Scorpion board from a game view (the dict the server sends: columns [{down, up}],
// stock, reserve, runs, ...). Card elements are keyed and reused, so a move can be animated
// from where a card was to where it is now (FLIP), a turned card flips, the stock's cards fly
// to their columns and a finished run flies to its foundation.

import { faceDownCard, faceUpCard, cardName, parseCard, suitName } from "./cards.js";
import { h, reducedMotion } from "./dom.js";

const GAP_RATIO = 0.12; // gap between columns, in card widths
const MAX_CW = 104;
const MIN_CW = 30; // ten columns (Three Blind Mice) still fit a 360 px phone

export function createBoard({ interactive = true, label = "Your board" } = {}) {
  const el = h("div.board", { role: "region", "aria-label": label });
  const top = h("div.toprow");
  const stockSlot = h("div.slot.stock-slot", { dataset: { zone: "stock" } });
  const reserveRow = h("div.reserve-row");
  const foundations = h("div.foundations", { role: "list", "aria-label": "Runs removed" });
  top.append(stockSlot, reserveRow, foundations);
  const tableau = h("div.tableau");
  const note = h("div.board-note", { role: "note", hidden: true });
  el.append(top, tableau, note);

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
    const n = v.columns.length;
    // Measure the space outside the .game wrapper: the wrapper itself is sized to the board.
    const host = el.closest(".game")?.parentElement || el.parentElement;
    const width = host?.clientWidth || el.clientWidth || 700;
    let cw = Math.floor(width / (n + (n - 1) * GAP_RATIO));
    cw = Math.max(MIN_CW, Math.min(MAX_CW, cw));
    const ch = Math.round(cw * 1.4);
    const gap = Math.max(3, Math.floor(cw * GAP_RATIO));
    const width2 = n * cw + (n - 1) * gap;
    // Fit the longest column in what is left of the window, but keep every rank readable.
    const tableauTop = el.getBoundingClientRect().top + ch + gap * 1.6;
    const avail = Math.max(ch * 4, window.innerHeight - tableauTop - 12);
    const downStep = Math.round(ch * 0.1);
    const steps = v.columns.map((c) => {
      const up = c.up.length;
      if (up < 2) return Math.round(ch * 0.27);
      const fit = (avail - ch - c.down * downStep) / (up - 1);
      return Math.round(Math.max(ch * 0.2, Math.min(ch * 0.27, fit)));
    });
    return { cw, ch, gap, downStep, steps, width: width2 };
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

    const L = layout(next);
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
        const key = `c:${text}`;
        const card = getCard(key, () => faceUpCard(text));
        card.setAttribute("role", "button");
        card.setAttribute("aria-label", cardName(text));
        card.dataset.col = String(j);
        card.dataset.index = String(i);
        if (!card.hasAttribute("tabindex")) card.tabIndex = -1;
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
    lastRules = opts.rules || lastRules;
    explainCoveredRuns(next, lastRules);
    highlighted = [];
    if (focusedKey && cards.get(focusedKey) && document.activeElement !== cards.get(focusedKey)) {
      cards.get(focusedKey).focus({ preventScroll: true });
    }
    if (animate) animateChanges(prev, next, before, gone, stockRect);
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
    stockSlot.setAttribute("role", "button");
    stockSlot.tabIndex = interactive && count ? 0 : -1;
    stockSlot.setAttribute("aria-disabled", String(!count));
    stockSlot.setAttribute("aria-label", count
      ? `Stock, ${count} cards face down: deal one onto each of columns 1 to 3`
      : "Stock, dealt");
    stockSlot.title = count ? "Deal the stock (D)" : "The stock has been dealt";
  }

  function drawReserve(v, seen) {
    const reserve = v.reserve || [];
    reserveRow.hidden = reserve.length === 0;
    reserve.forEach((text, i) => {
      const key = `c:${text}`;
      const card = getCard(key, () => faceUpCard(text));
      card.setAttribute("role", "button");
      card.setAttribute("aria-label", `${cardName(text)}, reserve cell ${i + 1}`);
      card.dataset.col = "reserve";
      card.dataset.index = "0";
      if (!card.hasAttribute("tabindex")) card.tabIndex = -1;
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
    const runsRule = rules?.runs;
    if (!found.length || runsRule === "keep") {
      note.hidden = true;
      return;
    }
    const { column, start, suit, bottom } = found[0];
    const onTop = start + 13 === v.columns[column].up.length;
    let text;
    if (onTop) {
      text = `The ${suitName(suit)} run in column ${column + 1} is complete but stays: `
        + "under these rules (runs leave when placed) a run leaves only as cards are placed "
        + "to complete it, and this one was covered then. ";
      text += bottom
        ? "Its King lies at the bottom of the column, so it can never leave: play on without it."
        : "Move its King into an empty column and it will leave.";
    } else {
      text = `The ${suitName(suit)} run in column ${column + 1} is complete, but cards lie on it, `
        + "so it stays until they are moved off";
      text += runsRule === "placed"
        ? "; then, under these rules, it leaves only when its King is moved into an empty column."
        : ".";
    }
    note.textContent = text;
    note.hidden = false;
  }

  function animateChanges(prev, next, before, gone, stockRect) {
    const ease = "cubic-bezier(.2,.75,.25,1)";
    const dealt = (prev.stock || 0) > (next.stock || 0);
    for (const [key, card] of cards) {
      const old = before.get(key);
      const now = card.getBoundingClientRect();
      if (old) {
        const dx = old.left - now.left;
        const dy = old.top - now.top;
        if (Math.abs(dx) + Math.abs(dy) > 1) {
          card.animate(
            [{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 900 }, { transform: "none", zIndex: 900 }],
            { duration: 220, easing: ease },
          );
        }
      } else if (key.startsWith("c:") && dealt && isDealtCard(next, key)) {
        const dx = stockRect.left - now.left;
        const dy = stockRect.top - now.top;
        card.animate(
          [{ transform: `translate(${dx}px, ${dy}px) scaleX(0.05)` },
            { transform: `translate(${dx / 2}px, ${dy / 2}px) scaleX(1)`, offset: 0.5 },
            { transform: "none" }],
          { duration: 380, easing: ease },
        );
      } else if (key.startsWith("c:")) {
        card.animate([{ transform: "scaleX(0.05)" }, { transform: "scaleX(1)" }],
          { duration: 240, easing: ease, delay: 120, fill: "backwards" });
      }
    }
    const runsAdded = (next.runs || []).length > (prev.runs || []).length;
    if (!gone.length) return;
    const target = runsAdded
      ? foundations.children[(next.runs || []).length - 1]?.getBoundingClientRect()
      : null;
    const host = el.getBoundingClientRect();
    gone.forEach(([card, old], i) => {
      if (!old || !target) { card.remove(); return; }
      el.append(card);
      card.style.top = `${old.top - host.top}px`;
      card.style.left = `${old.left - host.left}px`;
      card.style.zIndex = String(1000 + i);
      card.classList.add("ghost");
      const anim = card.animate(
        [{ transform: "none", opacity: 1 },
          { transform: `translate(${target.left - old.left}px, ${target.top - old.top}px)`, opacity: 0.6 }],
        { duration: 420, delay: 160 + i * 25, easing: ease, fill: "forwards" },
      );
      anim.onfinish = () => card.remove();
    });
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
    for (const c of columnEls) c.classList.remove("hint-dst");
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
    const els = text ? group(text) : [];
    for (const c of els) {
      const from = c.style.transform; // where a drag left it
      c.style.transform = "";
      c.classList.remove("dragging", "selected");
      if (reducedMotion()) continue;
      const shake = [{ transform: "translateX(0)" }, { transform: "translateX(-7px)" }, { transform: "translateX(6px)" },
        { transform: "translateX(-4px)" }, { transform: "translateX(2px)" }, { transform: "translateX(0)" }];
      if (from && from !== "none") {
        // Slide back from the drop, then shake: the move was refused.
        c.animate([{ transform: from, zIndex: 900 }, { transform: "none", zIndex: 900 }], { duration: 200, easing: "ease-out" })
          .onfinish = () => c.animate(shake, { duration: 340, easing: "ease-in-out" });
      } else {
        c.animate(shake, { duration: 360, easing: "ease-in-out" });
      }
    }
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

  // Re-fit the cards when the window changes size (phone rotation, split screen).
  let lastRules = null;
  let resizeTimer = null;
  const onResize = () => {
    if (!el.isConnected) { window.removeEventListener("resize", onResize); return; }
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => { if (view) update(view, { rules: lastRules }); }, 80);
  };
  window.addEventListener("resize", onResize);

  Object.assign(board, { update, highlight, clearHighlight, group, refuse, select, columnAt,
    stockSlot, cardEl: (text) => cards.get(`c:${text}`) });
  return board;
}

function isDealtCard(next, key) {
  const text = key.slice(2);
  return next.columns.slice(0, 3).some((c) => c.up[c.up.length - 1] === text);
}

export function columnLabel(j, column) {
  const parts = [`column ${j + 1}`];
  const total = column.down + column.up.length;
  if (!total) return `column ${j + 1}, empty`;
  if (column.down) parts.push(`${column.down} ${column.down === 1 ? "card" : "cards"} face down`);
  if (column.up.length) {
    parts.push(`${column.up.length} face up`);
    parts.push(`top card ${cardName(column.up[column.up.length - 1])}`);
  }
  return parts.join(", ");
}

/** Complete K..A runs of one suit still on the tableau: [{column, start, suit, bottom}]. */
export function coveredRuns(v) {
  const found = [];
  v.columns.forEach((column, j) => {
    const up = column.up;
    for (let s = 0; s + 13 <= up.length; s++) {
      const first = parseCard(up[s]);
      if (!first || first.rank !== 13) continue;
      let ok = true;
      for (let k = 1; k < 13 && ok; k++) {
        const c = parseCard(up[s + k]);
        ok = c && c.suit === first.suit && c.rank === 13 - k;
      }
      if (ok) found.push({ column: j, start: s, suit: first.suit, bottom: s === 0 && column.down === 0 });
    }
  });
  return found;
}

/** Columns where a card would fit under these rules: only a visual aid, the server decides. */
export function fittingColumns(v, text, rules = {}) {
  const card = parseCard(text);
  if (!v || !card) return [];
  const from = v.columns.findIndex((c) => c.up.includes(text));
  const out = [];
  v.columns.forEach((column, j) => {
    if (j === from) return;
    const top = column.up[column.up.length - 1];
    if (!top) {
      if (column.down) return;
      const whole = from >= 0 && v.columns[from].down === 0 && v.columns[from].up[0] === text;
      if (!whole && (card.rank === 13 || rules.empty === "any")) out.push(j);
      return;
    }
    const t = parseCard(top);
    if (card.rank === 13 || t.rank !== card.rank + 1) return;
    if (rules.build === "any-suit" || t.suit === card.suit) out.push(j);
  });
  return out;
}
