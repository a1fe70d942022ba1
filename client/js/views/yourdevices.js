// "Your devices" (on #/devices): every browser signed in as this player, how each got in and
// when it was last used, with a button to sign one out or every other one. The server revokes
// the tokens at once, open sockets included (docs/http-api.md "Your devices"); a device is
// named by a short id, never by its token.

import { clear, h } from "../dom.js";
import * as api from "../api.js";
import { confirmDialog, toast } from "../ui.js";

// How a device got in (the server's `made`).
const MADE = {
  "new-player": "player made here",
  "device-code": "came with a one-time code",
  "recovery-code": "came with the recovery code",
  unknown: "signed in before this list existed",
};

function when(seconds) {
  const ago = Date.now() / 1000 - seconds;
  if (ago < 600) return "just now";
  if (ago < 86400) return `${Math.round(ago / 3600) || 1} h ago`;
  if (ago < 86400 * 60) return `${Math.round(ago / 86400)} days ago`;
  return new Date(seconds * 1000).toLocaleDateString();
}

/** The "Your devices" panel; `signedOutHere` runs when this browser signs itself out. */
export function yourDevices(signedOutHere) {
  const list = h("ul.device-list", { "aria-live": "polite" });
  const status = h("p.muted");
  const others = h("button.btn.danger", { type: "button", onclick: signOutOthers }, "Sign out everywhere else");
  const panel = h("section.panel.stack", { "aria-labelledby": "your-devices-h" },
    h("h2", { id: "your-devices-h", text: "Your devices" }),
    h("p.muted", { text: "Every browser signed in as you. Sign out one you don't know or no longer use: it stops working at once." }),
    list, status, h("div.row", {}, others));

  async function load() {
    let devices;
    try {
      devices = (await api.myDevices()).devices;
    } catch (err) {
      // 401: this browser's token was signed out elsewhere (api.js forgot it).
      status.textContent = err.status === 401 ? "This browser was signed out: type a code to play as yourself again." : err.message;
      clear(list);
      others.disabled = true;
      return;
    }
    clear(list);
    status.textContent = "";
    others.disabled = devices.length < 2;
    for (const d of devices) {
      const name = d.agent || "A browser";
      const seen = d.last_seen ? `last used ${when(d.last_seen)}` : "not used since this list began";
      const out = h("button.btn.danger", { type: "button", onclick: () => signOut(d) },
        d.this_device ? "Sign out here" : "Sign out");
      out.setAttribute("aria-label", d.this_device ? "Sign out here, on this device" : `Sign out ${name}, ${seen}`);
      list.append(h("li", { dataset: { device: d.id } },
        h("div.what", {},
          h("strong", {}, name, d.this_device ? " " : null, d.this_device ? h("span.tag.won", { text: "this device" }) : null),
          h("span.muted", { text: `${MADE[d.made] || MADE.unknown} on ${new Date(d.created * 1000).toLocaleDateString()}; ${d.this_device ? "in use now" : seen}` })),
        out));
    }
  }

  async function signOut(device) {
    const question = device.this_device
      ? "Sign out this browser? You will need a code from another device (or your recovery code) to come back."
      : `Sign out ${device.agent || "that browser"}? It stops playing as you at once.`;
    if (!(await confirmDialog(question, "Sign out"))) return;
    try {
      const done = await api.signOutDevice(device.id);
      if (done.this_device) {
        api.forget();
        signedOutHere();
        return;
      }
      toast("Signed out", "info");
    } catch (err) {
      toast(err.message);
    }
    load();
  }

  async function signOutOthers() {
    if (!(await confirmDialog("Sign out every other browser playing as you? Only this one stays.", "Sign out the others"))) return;
    try {
      const done = await api.signOutOthers();
      toast(done.signed_out === 1 ? "1 device signed out" : `${done.signed_out} devices signed out`, "info");
    } catch (err) {
      toast(err.message);
    }
    load();
  }

  load();
  return { panel, load };
}
