// The one object that owns the client's state. Views read it and subscribe; main.js, session.js
// (a room's, daily's or practice's frames) and the views that open a place change it, through
// set(), never by changing an object they read.
// Shallow-merged patches, like a tiny Redux.

export function createStore(initial) {
  let state = initial;
  const listeners = new Set();
  let scheduled = false;

  function notify() {
    scheduled = false;
    for (const fn of [...listeners]) fn(state);
  }

  return {
    get: () => state,
    /** Merge a patch (or the result of fn(state)) into the state and notify on the next tick. */
    set(patch) {
      const next = typeof patch === "function" ? patch(state) : patch;
      if (!next) return;
      state = { ...state, ...next };
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(notify);
      }
    },
    subscribe(fn) {
      listeners.add(fn);
      return () => listeners.delete(fn);
    },
  };
}
