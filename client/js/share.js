// Share a result without spoiling it: the server's text (the day or room, place, time, runs,
// score, a strip of squares for the runs held over time, and the replay link) with a Copy
// button, and the same as an image. The server writes it (docs/http-api.md "Share"): the
// client adds nothing, so it can name no card.

import { h } from "./dom.js";
import * as api from "./api.js";

const TRIES = 4; // the result is written to the store a moment after the results are out
let last = null; // {path, el}: views redraw often; the panel is fetched once per result

/** The share panel of `path` (/api/share/...): hidden until the server answers, removed when
 * there is nothing to share. */
export function sharePanel(path) {
  if (last?.path === path) return last.el;
  const el = h("section.share.stack", { dataset: { share: "panel" }, "aria-label": "Share this result", hidden: true });
  last = { path, el };
  load(el, path, 1);
  return el;
}

function load(el, path, attempt) {
  api.share(path).then((s) => fill(el, s)).catch((e) => {
    if (attempt < TRIES && [403, 404, 409].includes(e.status)) setTimeout(() => load(el, path, attempt + 1), 700 * attempt);
    else el.remove();
  });
}

function fill(el, s) {
  const text = h("textarea.share-text", { readonly: true, rows: String(s.text.split("\n").length), spellcheck: "false",
    "aria-label": "Your result to share", dataset: { share: "text" } });
  text.value = s.text;
  const status = h("p.muted.share-status", { role: "status", dataset: { share: "status" } });
  el.append(
    h("h3", { text: "Share" }),
    text,
    h("div.row", {},
      h("button.btn", { type: "button", dataset: { action: "copy-share" }, onclick: () => copy(text, status) }, "Copy"),
      h("a.btn", { href: s.image, target: "_blank", rel: "noopener", dataset: { share: "image" } }, "Image")),
    status);
  el.hidden = false;
}

/** The clipboard when the browser gives it; else the text selected with the old copy command,
 * else selected for the player to copy. */
export async function copy(textarea, status) {
  try {
    await navigator.clipboard.writeText(textarea.value);
    status.textContent = "Copied: paste it anywhere.";
    return;
  } catch {
    // No clipboard (an insecure origin, or permission refused): select it instead.
  }
  textarea.focus();
  textarea.select();
  let copied = false;
  try {
    copied = document.execCommand("copy");
  } catch {
    copied = false;
  }
  status.textContent = copied ? "Copied: paste it anywhere." : "Selected: press Ctrl+C (⌘C on a Mac) to copy it.";
}
