// The presets' names and a line about each, for the setting forms and labels. Only words: the
// rules themselves come from the server (a room's `settings.rules`, the daily's `rules`).

export const PRESETS = {
  classic: { label: "Classic", blurb: "Same suit, only Kings in empty columns. The standard game." },
  relaxed: { label: "Relaxed", blurb: "Build on any suit; only Kings fill empty columns." },
  easy: { label: "Easy", blurb: "Any card fills an empty column, and every deal is winnable. Timed score." },
  normal: { label: "Normal", blurb: "Any card fills an empty column. Timed score." },
  hard: { label: "Hard", blurb: "Only Kings fill empty columns. Timed score." },
  strict: { label: "Strict", blurb: "Lost the moment no move is left; scored by cards home." },
  wasp: { label: "Wasp", blurb: "Any card may fill an empty column." },
  traditional: { label: "Traditional", blurb: "Runs stay on the table; win with four complete runs." },
  "three-blind-mice": { label: "Three Blind Mice", blurb: "Ten columns of five, two reserve cards, no stock." },
};

export function presetLabel(name) {
  return PRESETS[name]?.label || name || "Classic";
}

// A room's undo (`settings.undo`, the server's word for what racers get), said plainly.
export const UNDO = {
  fair: { label: "Fair undo", line: "Undo any move except one that showed a card (a card turned face up, or the stock dealt): no peeking." },
  full: { label: "Full undo", line: "Undo any move, even one that showed a card." },
  off: { label: "No undo", line: "Every move stands." },
};
