// "Use on another device" (#/devices): show a one-time code here and type it on the other
// device (it expires within minutes and works once), or the other way round; and a recovery
// code to write down (shown once, good until a new one is made). Each device gets its own
// token of the same player; no code or token ever goes into a URL.

import { clear, clock, h } from "../dom.js";
import * as api from "../api.js";
import { confirmDialog, toast } from "../ui.js";
import { yourDevices } from "./yourdevices.js";

export function mountDevices(ctx) {
  const { root } = ctx;
  const me = api.player();
  const has = !!(me?.id && api.token());
  let timer = null;

  const codeOut = h("div.stack", { "aria-live": "polite" });
  const showCode = h("button.btn.primary", { type: "button", disabled: !has, onclick: makeCode }, "Show a code");
  const recoveryOut = h("div.stack", { "aria-live": "polite" });
  const makeRecovery = h("button.btn", { type: "button", disabled: !has, onclick: recoveryCode }, "Make a recovery code");

  const codeInput = h("input.input", { id: "device-code", autocomplete: "one-time-code", autocapitalize: "none", spellcheck: "false", maxlength: "64", placeholder: "abcd-efgh" });
  const recoveryBox = h("input", { type: "checkbox", id: "is-recovery" });
  const useError = h("p.error-text", { role: "alert" });
  const useForm = h("form.stack", { onsubmit: use },
    h("label.field", { for: "device-code" }, "Code from your other device, or your recovery code", codeInput),
    h("label.check", { for: "is-recovery" }, recoveryBox, "This is my recovery code"),
    useError,
    h("div.row", {}, h("button.btn.primary", { type: "submit" }, "Use this code")));

  const signedIn = has ? yourDevices(() => { ctx.refreshWho(); ctx.go("#/"); }) : null;

  root.append(h("div.stack", {},
    h("h1", { text: "Use on another device" }),
    h("p.lead", { text: has ? `You play as ${me.name} in this browser. Your statistics and streak follow you to any device that has your player.` : "This browser has no player yet: type a code from a device that has one." }),
    h("div.grid2", {},
      h("section.panel.stack", { "aria-labelledby": "from-here-h" },
        h("h2", { id: "from-here-h", text: "Take this player to another device" }),
        h("p.muted", { text: "Show a code here, then type it on the other device within 5 minutes. It works once." }),
        h("div.row", {}, showCode), codeOut),
      h("section.panel.stack", { "aria-labelledby": "to-here-h" },
        h("h2", { id: "to-here-h", text: "Bring your player here" }),
        h("p.muted", { text: "This browser becomes that player (the player it has now stays on its other devices, if any)." }),
        useForm),
      h("section.panel.stack", { "aria-labelledby": "recovery-h" },
        h("h2", { id: "recovery-h", text: "Recovery code" }),
        h("p.muted", { text: "Write it down: if you lose every device, it brings your player back. It is shown once; making a new one replaces the old one." }),
        h("div.row", {}, makeRecovery), recoveryOut)),
    signedIn?.panel));

  async function makeCode() {
    try {
      const made = await api.makeDeviceCode();
      const ends = Date.now() / 1000 + made.seconds;
      const left = h("span");
      clear(codeOut);
      codeOut.append(h("p.device-code", { dataset: { code: made.code }, text: made.code.toUpperCase() }),
        h("p.muted", {}, "Expires in ", left));
      clearInterval(timer);
      const tick = () => {
        const s = Math.max(0, ends - Date.now() / 1000);
        left.textContent = clock(s);
        if (s <= 0) { clearInterval(timer); clear(codeOut); codeOut.append(h("p.muted", { text: "That code expired: show a new one." })); }
      };
      tick();
      timer = setInterval(tick, 1000);
    } catch (err) {
      toast(err.message);
    }
  }

  async function recoveryCode() {
    if (!(await confirmDialog("Make a new recovery code? Any code you wrote down before stops working, and the devices it signed in are signed out.", "Make it"))) return;
    try {
      const made = await api.makeRecoveryCode();
      clear(recoveryOut);
      recoveryOut.append(h("p.device-code", { dataset: { recovery: made.recovery_code }, text: made.recovery_code.toUpperCase() }),
        h("p.muted", { text: "Write it down now: it will not be shown again." }));
      if (made.signed_out) {
        recoveryOut.append(h("p.muted", { text: made.signed_out === 1 ? "1 device the old code signed in was signed out." : `${made.signed_out} devices the old code signed in were signed out.` }));
        signedIn?.load();
      }
    } catch (err) {
      toast(err.message);
    }
  }

  // As the server makes them (server/scorpion/web/devices.py CODE_LENGTH, RECOVERY_LENGTH).
  const CODE_CHARS = 8;
  const RECOVERY_CHARS = 20;
  codeInput.addEventListener("input", () => {
    const length = codeInput.value.toLowerCase().replace(/[\s-]/g, "").length;
    if (length === RECOVERY_CHARS) recoveryBox.checked = true;
    else if (length === CODE_CHARS) recoveryBox.checked = false;
  });

  async function use(e) {
    e.preventDefault();
    useError.textContent = "";
    const code = codeInput.value.trim();
    if (!code) return;
    if (has && !(await confirmDialog(`This browser plays as ${me.name} now. Switch to the player of this code?`, "Switch"))) return;
    // The two kinds of code look different (8 and 20 characters): the kind typed decides, not
    // the box (issue 23: a pasted recovery code without the tick was called "unknown").
    const length = code.toLowerCase().replace(/[\s-]/g, "").length;
    if (length !== CODE_CHARS && length !== RECOVERY_CHARS) {
      useError.textContent = `A code from another device has ${CODE_CHARS} characters and a recovery code ${RECOVERY_CHARS}; this one has ${length}. Check what you typed.`;
      return;
    }
    recoveryBox.checked = length === RECOVERY_CHARS;
    try {
      const who = await api.useCode(code, recoveryBox.checked);
      ctx.store.set({ me: who });
      ctx.refreshWho();
      toast(`Welcome back, ${who.name}`, "info");
      ctx.go("#/stats");
    } catch (err) {
      useError.textContent = err.message;
    }
  }

  return () => clearInterval(timer);
}
