// The host's controls in the lobby (remove a seated player, hand over the host role, lock the
// room) and everyone's "Report name". The server decides who may do what (docs/protocol.md
// section 2, "Host controls"); these only offer the buttons that would be allowed.

import { h } from "../dom.js";
import { confirmDialog, toast } from "../ui.js";

const done = (text) => () => toast(text, "info");
const failed = (err) => toast(err.message);

/** Buttons beside one person of the lobby's list (`seated`: a player, else a spectator). */
export function personControls({ room, person, seated, me, session }) {
  if (person.id === me) return [];
  const buttons = [];
  if (seated && room.host === me) {
    buttons.push(h("button.btn.small", {
      type: "button", "aria-label": `Remove ${person.name} from the seats`,
      onclick: async () => {
        if (await confirmDialog(`Remove ${person.name} from the seats? They can still watch, but not sit again in this room.`, "Remove")) {
          session.kick(person.id).then(done(`${person.name} now watches`), failed);
        }
      },
    }, "Remove"));
    buttons.push(h("button.btn.small", {
      type: "button", "aria-label": `Make host: ${person.name}`,
      onclick: async () => {
        if (await confirmDialog(`Make ${person.name} the host? They will start the race and hold these controls.`, "Make host")) {
          session.handHost(person.id).then(done(`${person.name} is the host`), failed);
        }
      },
    }, "Make host"));
  }
  buttons.push(h("button.btn.small.quiet", {
    type: "button", "aria-label": `Report name: ${person.name}`, // starts with what it shows (WCAG 2.5.3)
    onclick: async () => {
      if (await confirmDialog(`Report the name "${person.name}" as offensive? The server's operator reads reports; nobody in the room is told.`, "Report")) {
        session.report(person.id).then(done("Reported. Thank you."), failed);
      }
    },
  }, "Report name"));
  return buttons;
}

/** The host's lock switch (no new seats; anyone with the link may still watch). */
/** List the room among the home page's open rooms (anyone may join), or take it off. */
export function listControl({ room, me, session }) {
  if (room.host !== me) return null;
  return h("button.btn", {
    type: "button", dataset: { action: "list" }, "aria-pressed": room.listed ? "true" : "false",
    onclick: () => session.list(!room.listed).catch(failed),
  }, room.listed ? "Take off the open rooms" : "List publicly");
}

/** Rate the room's rounds from the next one (per rule set, like quick races), or not. */
export function ratingControl({ room, me, session }) {
  if (room.host !== me) return null;
  const rated = !!room.settings?.rated;
  return h("button.btn", {
    type: "button", dataset: { action: "rating" }, "aria-pressed": rated ? "true" : "false",
    onclick: () => session.rating(!rated).catch(failed),
  }, rated ? "Make the room unrated" : "Make the room rated");
}

/** Make the room a standing league (points per round, the same link every week), or not. */
export function leagueControl({ room, me, session }) {
  if (room.host !== me) return null;
  const league = !!room.settings?.league;
  return h("button.btn", {
    type: "button", dataset: { action: "league" }, "aria-pressed": league ? "true" : "false",
    onclick: () => session.league(!league).catch(failed),
  }, league ? "End the league" : "Make the room a league");
}

export function lockControl({ room, me, session }) {
  if (room.host !== me) return null;
  return h("button.btn", {
    type: "button", dataset: { action: "lock" }, "aria-pressed": room.locked ? "true" : "false",
    onclick: () => session.lock(!room.locked).catch(failed),
  }, room.locked ? "Unlock the room" : "Lock the room");
}
