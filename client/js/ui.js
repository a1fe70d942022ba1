// Page-wide bits: the toast for messages (refused moves), the connection banner, dialogs.

import { h } from "./dom.js";

let toastTimer = null;

/** Show a short message. kind: "error" (default) or "info". */
export function toast(text, kind = "error", ms = 3200) {
  const el = document.getElementById("toast");
  if (!el) return;
  el.textContent = text;
  el.className = `toast show ${kind === "info" ? "info" : ""}`;
  el.setAttribute("role", kind === "info" ? "status" : "alert");
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { el.className = "toast"; }, ms);
}

let bannerTimer = null;

/** The connection banner: visible while the socket is down, and briefly once it is back. */
export function showConnection(status) {
  const el = document.getElementById("banner");
  if (!el) return;
  clearInterval(bannerTimer);
  el.classList.remove("ok");
  if (status?.outdated) {
    el.hidden = false;
    el.replaceChildren("Scorpion Race was updated. ",
      h("button.btn.small", { type: "button", onclick: () => location.reload() }, "Reload the page"));
    return;
  }
  if (!status || status.state === "open") {
    if (status?.reconnected && !el.hidden) {
      el.textContent = "Reconnected";
      el.classList.add("ok");
      bannerTimer = setTimeout(() => { el.hidden = true; }, 1600);
    } else {
      el.hidden = true;
    }
    return;
  }
  if (status.state === "connecting") {
    el.hidden = true;
    return;
  }
  if (status.state === "failed") {
    el.hidden = false;
    el.textContent = status.message || "The server refused the connection.";
    return;
  }
  el.hidden = false;
  const draw = () => {
    const wait = status.retryAt ? Math.max(0, Math.ceil((status.retryAt - Date.now()) / 1000)) : 0;
    el.textContent = wait > 0
      ? `Connection lost. Reconnecting in ${wait} s… Your moves are kept.`
      : "Connection lost. Reconnecting…";
  };
  draw();
  bannerTimer = setInterval(draw, 500);
}

/** A small modal asking a question; resolves true/false. */
export function confirmDialog(question, yes = "Yes", no = "Cancel", answered = null) {
  return new Promise((resolve) => {
    let open = true;
    const done = (answer) => {
      if (!open) return;
      open = false;
      overlay.remove();
      document.removeEventListener("keydown", onKey);
      resolve(answer);
    };
    const onKey = (e) => { if (e.key === "Escape") done(false); };
    const yesBtn = h("button.btn.primary", { type: "button", onclick: () => done(true) }, yes);
    const overlay = h("div.overlay", { role: "dialog", "aria-modal": "true", "aria-label": question },
      h("div.panel.stack", {},
        h("p", { text: question }),
        h("div.row", {}, yesBtn, h("button.btn", { type: "button", onclick: () => done(false) }, no))));
    document.body.append(overlay);
    document.addEventListener("keydown", onKey);
    yesBtn.focus();
    answered?.then(done); // the question answered by events (its reason gone)
  });
}
