// A room's automatic seat: opening a room's link in the lobby takes a seat (and, from the
// create form's "start at once", starts); arriving mid-race watches; a one-seat room made
// through the API starts by itself, again after each "new deal". Each happens once: after
// that, the buttons decide.

import { toast } from "../ui.js";

export function createAutoJoin({ roomId, session, me }) {
  const autostart = sessionStorage.getItem(`scorpion.autostart.${roomId}`) === "1";
  let joining = false; // a join in flight: one at a time
  let joined = false;
  let watched = false;
  let soloStarted = null; // the one-seat room's round started

  async function attempt(fn) {
    joining = true;
    try {
      await fn();
    } finally {
      joining = false;
    }
  }

  return function autoJoin(s) {
    if (joining || !s.welcomed || !s.room) return;
    const seat = s.room.players.find((p) => p.id === me());
    const watching = s.room.spectators.some((x) => x.id === me());
    if (s.room.phase === "lobby" && !seat && !joined && !sessionStorage.getItem(`scorpion.watch.${roomId}`)) {
      joined = true;
      attempt(async () => {
        try {
          await session.join("player");
          if (autostart) {
            await session.ready(true);
            await session.start();
            sessionStorage.removeItem(`scorpion.autostart.${roomId}`);
          }
        } catch (err) {
          if (err.code === "room-full" || err.code === "already-started") await session.join("spectator").catch(() => {});
          else if (err.code !== "closed") toast(err.message);
        }
      });
    } else if (s.room.phase === "lobby" && seat && s.room.settings?.max_players === 1
      && s.room.creator === me() && soloStarted !== s.room.round) {
      soloStarted = s.room.round;
      attempt(async () => {
        try {
          if (!seat.ready) await session.ready(true);
          await session.start();
        } catch (err) {
          if (err.code !== "closed") toast(err.message);
        }
      });
    } else if (s.room.phase !== "lobby" && !seat && !watching && !watched) {
      watched = true;
      joined = true; // a late arrival watches; at a rematch "Take a seat" is theirs to press
      attempt(() => session.join("spectator").catch(() => {}));
    }
  };
}
