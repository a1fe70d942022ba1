// What a room's events tell the player without looking: read to screen readers, a sound, a
// notification while the tab is in the background. What was last said of each racer is kept
// here (a Map keyed by player id), never on the store's objects.

import { announce, clock, ordinal } from "../dom.js";
import { STATUS_WORDS } from "../roomstate.js";
import { notifyAway } from "../notify.js";
import { play } from "../sound.js";

/** tell(ev, me): say what the room event `ev` means to player `me` (their own moves are
 * said by game.js). */
export function createRoomNotices() {
  const told = new Map(); // player id -> {runs, status} last announced this round

  return function tell(ev, me, room) {
    if (ev.event === "progress") {
      for (const entry of ev.players || []) {
        const p = entry.player !== me && room?.players.find((x) => x.id === entry.player);
        if (!p) continue;
        const said = told.get(p.id) || {};
        told.set(p.id, said);
        if (said.runs !== entry.runs && entry.runs > 0) {
          said.runs = entry.runs;
          announce(`${p.name} removed a run: ${entry.runs} of 4`);
        }
        if (entry.status && entry.status !== "playing" && said.status !== entry.status) {
          said.status = entry.status;
          announce(`${p.name} ${entry.status === "won" ? `finished in ${clock(entry.elapsed || 0)}` : STATUS_WORDS[entry.status]}`);
        }
      }
    } else if (ev.event === "dealing" && ev.until) {
      announce("Finding a winnable deal");
    } else if (ev.event === "countdown") {
      // A winnable-only room whose deal is not proved says why (the server's sentence).
      announce(ev.unverified ? `The race starts in 3 seconds. ${ev.unverified}` : "The race starts in 3 seconds");
      play("countdown");
      notifyAway("The race is starting!");
    } else if (ev.event === "start") {
      told.clear(); // a new round: every racer's runs and end are news again
      announce("Go! The race has started");
      play("go");
      notifyAway("Go! The race has started");
    } else if (ev.event === "results") {
      const mineRow = (ev.ranking || []).find((r) => r.player === me);
      announce(mineRow ? `Race over. You placed ${ordinal(mineRow.rank)}.` : "Race over.");
      notifyAway(mineRow ? `You placed ${ordinal(mineRow.rank)}` : "Race over");
    } else if (ev.event === "joined" && ev.player?.id !== me) {
      announce(`${ev.player?.name} ${ev.role === "player" ? "joined" : "is watching"}`);
      notifyAway(`${ev.player?.name} ${ev.role === "player" ? "joined" : "is watching"}`);
    }
  };
}
