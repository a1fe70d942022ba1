// Pure functions over a replay from the server (docs/http-api.md, "Replays"): its steps'
// board deltas expanded once into each racer's boards over time, and lookups by race time or
// step count. No DOM. The boards are the server's (already masked): nothing is re-derived.

/** A view with one step's delta applied (a new object; `columns` has null where unchanged). */
export function applyDelta(view, delta) {
  const next = { ...view };
  for (const [key, value] of Object.entries(delta)) {
    next[key] = key === "columns" ? value.map((column, j) => column ?? view.columns[j]) : value;
  }
  return next;
}

/**
 * {times, boards, actions, count}: `times[k]` is step k's race time; `boards[i]` racer i's
 * boards as [{step, view, status}] (step -1: the start), in step order.
 */
export function expandReplay(data) {
  const views = data.start.slice();
  const status = data.racers.map(() => "playing");
  const boards = data.racers.map((_, i) => [{ step: -1, view: views[i], status: "playing" }]);
  const times = new Float64Array(data.steps.length);
  data.steps.forEach(([t, racer, , ended, changed], k) => {
    times[k] = t;
    const touched = new Set();
    if (ended) {
      status[racer] = ended;
      touched.add(racer);
    }
    for (const [i, delta] of changed) {
      views[i] = applyDelta(views[i], delta);
      touched.add(i);
    }
    for (const i of touched) boards[i].push({ step: k, view: views[i], status: status[i] });
  });
  return { times, boards, count: data.steps.length };
}

/** How many steps have happened by race time `t` (binary search). */
export function stepsBy(times, t) {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (times[mid] <= t + 1e-9) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A racer's board entry once `count` steps have happened (binary search on its entries). */
export function boardAfter(entries, count) {
  let lo = 0;
  let hi = entries.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (entries[mid].step < count) lo = mid;
    else hi = mid - 1;
  }
  return entries[lo];
}

/** Per racer, the steps (indices into `data.steps`) of its own actions, in order: the j-th is
 * the racer's action j, which the analysis' `verdicts[j]` is about (a step with no action is a
 * game ended by the clock or by leaving). */
export function actionSteps(data) {
  const steps = data.racers.map(() => []);
  data.steps.forEach(([, racer, action], k) => { if (action !== null) steps[racer].push(k); });
  return steps;
}

/** How many of a racer's actions (`own`: its `actionSteps`) are done once `count` steps have. */
export function actionsDone(own, count) {
  let lo = 0;
  let hi = own.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (own[mid] < count) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
