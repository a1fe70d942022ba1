// Pure facts about a board view (no DOM): screen-reader labels, complete runs still on the
// table and why they stay, and where a card may go (read from the view's legal moves).

import { cardName, parseCard, suitName } from "./cards.js";

export function isDealtCard(next, key) {
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

/** 0-based columns a card may move to: from the view's legal moves, which the server lists. */
export function legalTargets(v, text) {
  const prefix = `${text}>`;
  return (v?.legal || []).filter((m) => m.startsWith(prefix)).map((m) => Number(m.slice(prefix.length)) - 1);
}

/** Why a complete run stays on the table (docs/rules.md, "Finished runs"), or "" when there is none to explain. */
export function coveredRunNote(v, found, runsRule) {
  if (!found.length || runsRule === "keep") return "";
  const { column, start, suit, bottom } = found[0];
  const onTop = start + 13 === v.columns[column].up.length;
  if (onTop) {
    return `The ${suitName(suit)} run in column ${column + 1} is complete but stays: `
      + "under these rules (runs leave when placed) a run leaves only as cards are placed "
      + "to complete it, and this one was covered then. "
      + (bottom
        ? "Its King lies at the bottom of the column, so it can never leave: play on without it."
        : "Move its King into an empty column and it will leave.");
  }
  return `The ${suitName(suit)} run in column ${column + 1} is complete, but cards lie on it, `
    + "so it stays until they are moved off"
    + (runsRule === "placed"
      ? "; then, under these rules, it leaves only when its King is moved into an empty column."
      : ".");
}
