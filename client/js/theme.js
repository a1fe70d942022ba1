// Themes (issue 23): the table's colour, the card backs, large card corners, light or dark,
// and four suit colours or red and black. Each is remembered in localStorage and applied to
// <html> as data attributes and classes that the CSS reads.

import { h } from "./dom.js";

const KEYS = { colors: "scorpion.colors", table: "scorpion.table", back: "scorpion.back", large: "scorpion.large", mode: "scorpion.mode" };
export const TABLES = { green: "Green felt", blue: "Blue felt", red: "Red felt", grey: "Grey" };
export const BACKS = { blue: "Blue", red: "Red", green: "Green" };

/** The theme as stored (defaults: green felt, blue backs, dark, four colours, normal cards). */
export function theme() {
  const get = (k, fallback, allowed) => {
    const v = localStorage.getItem(KEYS[k]);
    return allowed ? (v in allowed ? v : fallback) : v ?? fallback;
  };
  return {
    table: get("table", "green", TABLES),
    back: get("back", "blue", BACKS),
    mode: get("mode", "dark", { dark: 1, light: 1 }),
    large: get("large", "off") === "on",
    twoColor: get("colors", "four") === "two",
  };
}

export function applyTheme() {
  const t = theme();
  const root = document.documentElement;
  root.dataset.table = t.table;
  root.dataset.back = t.back;
  root.dataset.mode = t.mode;
  root.style.colorScheme = t.mode;
  root.classList.toggle("large-cards", t.large);
  document.body?.classList.toggle("two-color", t.twoColor);
}

/** Kept for the game's colour toggle (four suit colours or red and black). */
export const applyColors = applyTheme;

function save(key, value) {
  localStorage.setItem(KEYS[key], value);
  applyTheme();
  // The board re-fits when the card corners change size.
  window.dispatchEvent(new Event("resize"));
}

/** The table settings, for the game's settings panel. */
export function themeControls() {
  const t = theme();
  const id = Math.random().toString(36).slice(2);
  const select = (key, label, options, value) => {
    const el = h("select", { id: `${key}-${id}`, dataset: { theme: key } },
      Object.entries(options).map(([v, text]) => h("option", { value: v, text })));
    el.value = value;
    el.addEventListener("change", () => save(key, el.value));
    return h("label.field.inline", { for: el.id }, label, el);
  };
  const check = (key, label, on, values) => {
    const el = h("input", { type: "checkbox", id: `${key}-${id}`, dataset: { theme: key } });
    el.checked = on;
    el.addEventListener("change", () => save(key, el.checked ? values[0] : values[1]));
    return h("label.check", { for: el.id }, el, label);
  };
  return h("div.theme-controls", { role: "group", "aria-label": "Table" },
    select("table", "Table", TABLES, t.table),
    select("back", "Card backs", BACKS, t.back),
    check("mode", "Light table", t.mode === "light", ["light", "dark"]),
    check("large", "Large card corners", t.large, ["on", "off"]));
}
