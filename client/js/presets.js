// What the client says about each preset (docs/rules.md). The server is the referee; this is
// only for labels, the setting forms and explanations such as the `placed` runs rule.

export const PRESETS = {
  classic: { label: "Classic", build: "same-suit", empty: "kings", runs: "placed", undo: true, blurb: "Same suit, only Kings in empty columns. The standard game." },
  relaxed: { label: "Relaxed", build: "any-suit", empty: "kings", runs: "placed", undo: true, blurb: "Build on any suit; only Kings fill empty columns." },
  easy: { label: "Easy", build: "same-suit", empty: "any", runs: "any", undo: true, blurb: "Any card fills an empty column, and every deal is winnable. Timed score." },
  normal: { label: "Normal", build: "same-suit", empty: "any", runs: "any", undo: true, blurb: "Any card fills an empty column. Timed score." },
  hard: { label: "Hard", build: "same-suit", empty: "kings", runs: "any", undo: true, blurb: "Only Kings fill empty columns. Timed score." },
  strict: { label: "Strict", build: "same-suit", empty: "kings", runs: "any", undo: true, blurb: "Lost the moment no move is left; scored by cards home." },
  wasp: { label: "Wasp", build: "same-suit", empty: "any", runs: "placed", undo: true, blurb: "Any card may fill an empty column." },
  traditional: { label: "Traditional", build: "same-suit", empty: "kings", runs: "keep", undo: true, blurb: "Runs stay on the table; win with four complete runs." },
  "three-blind-mice": { label: "Three Blind Mice", build: "same-suit", empty: "kings", runs: "placed", undo: true, blurb: "Ten columns of five, two reserve cards, no stock." },
};

export function presetLabel(name) {
  return PRESETS[name]?.label || name || "Classic";
}

export function presetRules(name) {
  const p = PRESETS[name] || PRESETS.classic;
  return { runs: p.runs, build: p.build, empty: p.empty };
}
