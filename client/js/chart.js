// The results chart: every racer's runs removed and score against the race clock, in SVG.
// timeline: {playerId: [[elapsed, runs, score], ...]}; players: [{id, name}]. When nobody removed
// a run, the runs panel (four flat lines at 0) gives way to a taller score panel.

import { clock, h } from "./dom.js";

export const COLORS = ["#f4c95d", "#6fd3ff", "#ff8fa3", "#8ef0a8", "#c59bff", "#ffb36b", "#7ee7d9", "#f0f0f0", "#ff6b6b", "#a3b8ff"];
const NS = "http://www.w3.org/2000/svg";

function svg(tag, attrs = {}, text) {
  const el = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  if (text !== undefined) el.textContent = text;
  return el;
}

export function raceChart(timeline, players, { width = 640, end = null } = {}) {
  const series = players.map((p, i) => {
    const points = [...(timeline?.[p.id] || [])].sort((a, b) => a[0] - b[0]);
    if (!points.length || points[0][0] > 0) points.unshift([0, 0, 0]); // everyone starts at zero
    return { ...p, color: COLORS[i % COLORS.length], points };
  });
  const tMax = Math.max(5, end || 0, ...series.flatMap((s) => s.points.map((pt) => pt[0])));
  const sMax = Math.max(10, ...series.flatMap((s) => s.points.map((pt) => pt[2])));
  const anyRun = series.some((s) => s.points.some((pt) => pt[1] > 0));
  const left = 44;
  const right = 12;
  const runsTop = 14;
  const runsH = anyRun ? 90 : 0;
  const scoreTop = anyRun ? runsTop + runsH + 34 : 20;
  const scoreH = anyRun ? 130 : 180;
  const height = scoreTop + scoreH + 30;
  const x = (t) => left + (t / tMax) * (width - left - right);
  const yRuns = (r) => runsTop + runsH - (r / 4) * runsH;
  const yScore = (s) => scoreTop + scoreH - (s / sMax) * scoreH;

  const root = svg("svg", { viewBox: `0 0 ${width} ${height}`, class: "chart", role: "img" });
  root.append(svg("title", {}, anyRun ? "Runs removed and score of each racer over the race clock" : "Score of each racer over the race clock (nobody removed a run)"));
  // Grids and axes.
  for (let r = 0; anyRun && r <= 4; r++) {
    root.append(svg("line", { x1: left, x2: width - right, y1: yRuns(r), y2: yRuns(r), class: "gridline" }));
    root.append(svg("text", { x: left - 8, y: yRuns(r) + 4, "text-anchor": "end" }, String(r)));
  }
  if (anyRun) root.append(svg("text", { x: left, y: runsTop - 4 }, "Runs removed"));
  const sStep = niceStep(sMax / 4);
  for (let s = 0; s <= sMax; s += sStep) {
    root.append(svg("line", { x1: left, x2: width - right, y1: yScore(s), y2: yScore(s), class: "gridline" }));
    root.append(svg("text", { x: left - 8, y: yScore(s) + 4, "text-anchor": "end" }, String(s)));
  }
  root.append(svg("text", { x: left, y: scoreTop - 6 }, anyRun ? "Score" : "Score (nobody removed a run)"));
  root.append(svg("line", { x1: left, x2: width - right, y1: scoreTop + scoreH, y2: scoreTop + scoreH, class: "axis" }));
  const tStep = niceStep(tMax / 6, [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600]);
  for (let t = 0; t <= tMax; t += tStep) {
    root.append(svg("text", { x: x(t), y: height - 10, "text-anchor": "middle" }, clock(t)));
  }
  // One step line for runs and one line for score per racer.
  series.forEach((s, i) => {
    const pts = s.points;
    const nudge = (i - (series.length - 1) / 2) * 1.6; // keep equal lines apart
    let runsPath = "";
    let scorePath = "";
    pts.forEach(([t, r, sc], k) => {
      if (k === 0) runsPath = `M${x(t)},${yRuns(r) + nudge}`;
      else runsPath += ` H${x(t)} V${yRuns(r) + nudge}`;
      scorePath += `${k ? " L" : "M"}${x(t)},${yScore(sc) + nudge}`;
    });
    const last = pts[pts.length - 1];
    runsPath += ` H${x(Math.max(last[0], 0))}`;
    if (anyRun) root.append(svg("path", { d: runsPath, class: "runs-line", fill: "none", stroke: s.color, "stroke-width": 2.5, "stroke-linejoin": "round" }));
    root.append(svg("path", { d: scorePath, fill: "none", stroke: s.color, "stroke-width": 2.5, "stroke-linejoin": "round" }));
    root.append(svg("circle", { cx: x(last[0]), cy: yScore(last[2]) + nudge, r: 4, fill: s.color }));
  });
  const legend = h("div.legend", {}, series.map((s) => {
    const swatch = h("i");
    swatch.style.background = s.color;
    return h("span", {}, swatch, h("span", { text: s.name }));
  }));
  const figure = h("figure.chart-figure", { style: "margin:0" }, root, legend);
  figure.timeX = x; // where a race time falls on the chart (the replay's cursor)
  return figure;
}

function niceStep(raw, choices = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 50000, 100000]) {
  return choices.find((c) => c >= raw) || choices[choices.length - 1];
}
