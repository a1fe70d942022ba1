// A room's results on the room page: the results dialog over the board, the bar that brings
// it back after "Look at the board" (with Rematch), and the results kept after someone else's
// rematch (session.js keeps them in the store) with "Ada asked for a rematch: join".

import { clear, h, ordinal } from "../dom.js";
import { resultsDialog } from "./results.js";
import { toast } from "../ui.js";

/** draw(s, parts) and drawKept(k, parts) fill the page's `parts.bar` and `parts.overlay`;
 * redraw() draws the page again from the store (after a button here). */
export function createRoomResults({ store, session, me, redraw }) {
  let dismissed = null; // the round whose results were closed to look at the board
  const mine = (s) => s.room?.players.find((p) => p.id === me());

  function drawBar(s, parts) {
    const r = s.room;
    const show = r.phase === "results" && dismissed === r.round;
    parts.bar.hidden = !show;
    if (!show) {
      clear(parts.bar);
      return;
    }
    if (parts.bar.dataset.round === String(r.round) && parts.bar.firstChild) return;
    parts.bar.dataset.round = String(r.round);
    clear(parts.bar);
    const mineRow = (r.results || []).find((x) => x.player === me());
    parts.bar.append(h("span.results-bar-text", { text: mineRow ? `Race over: you placed ${ordinal(mineRow.rank)} of ${(r.results || []).length}.` : "Race over." }),
      h("button.btn.primary", { type: "button", dataset: { action: "results" }, onclick: () => { dismissed = null; redraw(); } }, "Results"),
      mine(s) || r.creator === me()
        ? h("button.btn", { type: "button", dataset: { action: "rematch" }, onclick: () => session.rematch().catch((e) => toast(e.message)) }, r.settings?.max_players === 1 ? "New deal" : "Rematch")
        : null);
  }

  function drawDialog(s, parts) {
    const r = s.room;
    if (r.phase !== "results" || dismissed === r.round) {
      if (parts.overlay) clear(parts.overlay);
      return;
    }
    // Drawn again once a rated round's ratings come (a `rated` event, after the results), and
    // once a league round's points are kept (`league-points`: its table is fetched again).
    const key = `${r.round}${r.ratings ? ":rated" : ""}${r.leagueRound === r.round ? ":league" : ""}`;
    if (parts.overlay.dataset.round === key && parts.overlay.firstChild) return;
    parts.overlay.dataset.round = key;
    clear(parts.overlay);
    // Look at the board: the results bar (Results, Rematch) shows at once.
    const close = () => { dismissed = r.round; clear(parts.overlay); redraw(); };
    const canRematch = !!mine(s) || r.creator === me();
    parts.overlay.append(resultsDialog(s, {
      me: me(),
      onRematch: canRematch ? () => session.rematch().catch((e) => toast(e.message)) : null,
      onClose: close,
    }));
    parts.overlay.querySelector("button")?.focus();
  }

  /** Join the rematch someone else asked for: one click, ready for it, to the lobby. */
  function joinRematch() {
    session.dropKeptResults();
    const seated = !!mine(store.get());
    (seated ? session.ready(true) : session.join("player").then(() => session.ready(true))).catch((e) => toast(e.message));
  }

  /** The results as they were, with "Ada asked for a rematch: join" (issue 23, item 6). */
  function drawKept(k, parts) {
    const key = `kept:${k.round}:${dismissed === k.room.round}`;
    if (parts.overlay.dataset.round === key) return;
    parts.overlay.dataset.round = key;
    clear(parts.overlay);
    parts.bar.dataset.round = "";
    const notice = () => h("p.note", { dataset: { note: "rematch" } }, `${k.by} asked for a rematch. `,
      h("button.btn.small.primary", { type: "button", dataset: { action: "join-rematch" }, onclick: joinRematch }, "Join the rematch"),
      " ", h("button.btn.small", { type: "button", onclick: session.dropKeptResults }, "To the lobby"));
    if (dismissed === k.room.round) {
      parts.bar.hidden = false;
      clear(parts.bar);
      parts.bar.append(notice(), h("button.btn", { type: "button", dataset: { action: "results" }, onclick: () => { dismissed = null; parts.overlay.dataset.round = ""; redraw(); } }, "Results"));
      return;
    }
    parts.bar.hidden = true;
    const state = { ...store.get(), room: k.room, timeline: k.timeline };
    const dialog = resultsDialog(state, {
      me: me(),
      onRematch: null,
      onClose: () => { dismissed = k.room.round; parts.overlay.dataset.round = ""; redraw(); },
    });
    dialog.querySelector("[role=dialog] h2")?.after(notice());
    parts.overlay.append(dialog);
    parts.overlay.querySelector("[data-action=join-rematch]")?.focus();
  }

  return {
    draw(s, parts) {
      drawBar(s, parts);
      drawDialog(s, parts);
    },
    drawKept,
  };
}
