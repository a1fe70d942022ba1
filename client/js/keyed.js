// Keyed rendering for the panels that list people (racers, players, ghosts, the leaderboard):
// one element per key (a player id), kept from one store notice to the next. A row is built
// again only when what it shows changed, and rows are moved, not rebuilt, when the order
// changes: a notice that changes one racer touches one row, and a focused row keeps its focus.

/**
 * A list rendered into `container` (which holds nothing else). Returns render(items):
 * key(item) names the row (unique), sig(item) is what the row shows (a row whose sig is
 * unchanged is kept as it is), build(item) makes its element.
 */
export function keyedList(container, { key, sig = (item) => JSON.stringify(item), build }) {
  let rows = new Map(); // key -> {el, sig}
  return function render(items) {
    const next = new Map();
    let cursor = container.firstChild;
    for (const item of items) {
      const k = key(item);
      const s = sig(item);
      let row = rows.get(k);
      if (!row || row.sig !== s) {
        if (row) {
          if (row.el === cursor) cursor = cursor.nextSibling;
          row.el.remove();
        }
        row = { el: build(item), sig: s };
      }
      next.set(k, row);
      if (row.el === cursor) cursor = cursor.nextSibling;
      else container.insertBefore(row.el, cursor);
    }
    for (const [k, row] of rows) if (!next.has(k)) row.el.remove();
    rows = next;
  };
}

const filled = new WeakMap(); // element -> the sig of its last fill

/** Fill `el` with build()'s children only when `sig` differs from the last fill's. */
export function fillIf(el, sig, build) {
  if (filled.get(el) === sig) return;
  filled.set(el, sig);
  el.replaceChildren(...[build()].flat().filter((x) => x !== null && x !== undefined && x !== false));
}
