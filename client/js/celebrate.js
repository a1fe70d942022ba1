// The win celebration (issue 23): the classic cascade. The Kings leave the foundations one
// after another and bounce down the window, leaving their trail, for about four seconds; a
// click, a tap or any key ends it at once. Under prefers-reduced-motion nothing moves: a short
// still message says the game is won.

import { h, reducedMotion } from "./dom.js";
import { suitName } from "./cards.js";

const LENGTH_MS = 4200;
const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };
const SUIT_COLORS = { S: "#1c1f26", H: "#d21f3c", D: "#1d62d6", C: "#17803d" };

/** Celebrate a won board. `from`: the foundation slots' elements (the cards leave from there).
 * Returns a function that ends it (also called by itself when it is over). */
export function celebrate({ from = [], suits = ["S", "H", "D", "C"], text = "You won!" } = {}) {
  document.querySelector(".celebration")?.remove();
  const message = h("p.celebration-text", { text });
  if (reducedMotion()) {
    const still = h("div.celebration.reduced", { role: "status" }, message);
    document.body.append(still);
    const timer = setTimeout(() => still.remove(), 2500);
    return () => { clearTimeout(timer); still.remove(); };
  }
  const canvas = h("canvas.cascade", { "aria-hidden": "true" });
  const layer = h("div.celebration", { role: "status", title: "Click or press a key to skip" }, canvas, message,
    h("span.celebration-skip", { text: "Click or press any key to skip" }));
  document.body.append(layer);
  const ratio = window.devicePixelRatio || 1;
  const W = window.innerWidth;
  const H = window.innerHeight;
  canvas.width = W * ratio;
  canvas.height = H * ratio;
  const g = canvas.getContext("2d");
  g?.scale(ratio, ratio);
  const starts = suits.map((suit, i) => {
    const r = from[i]?.getBoundingClientRect?.();
    return { suit, x: r ? r.left : W - (4 - i) * 70, y: r ? r.top : 80, w: r?.width || 60, h: r?.height || 84 };
  });
  // Thirteen cards per suit, King down to Ace, one suit after another, like the original.
  const queue = [];
  for (let rank = 13; rank >= 1; rank--) for (const s of starts) queue.push({ ...s, rank });
  const flying = [];
  let last = performance.now();
  let launched = 0;
  let frame = 0;
  const began = last;
  const label = (rank) => ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"][rank - 1];

  function draw(c) {
    if (!g) return;
    g.fillStyle = "#fffdf6";
    g.strokeStyle = "rgba(0,0,0,.35)";
    g.beginPath();
    g.roundRect?.(c.x, c.y, c.w, c.h, c.w * 0.09);
    if (!g.roundRect) g.rect(c.x, c.y, c.w, c.h);
    g.fill();
    g.stroke();
    g.fillStyle = SUIT_COLORS[c.suit];
    g.font = `700 ${Math.round(c.w * 0.3)}px "DejaVu Sans", sans-serif`;
    g.fillText(`${label(c.rank)}${SUIT_SIGNS[c.suit]}`, c.x + c.w * 0.08, c.y + c.w * 0.34);
  }

  function step(now) {
    const dt = Math.min(40, now - last) / 16.7;
    last = now;
    const due = Math.floor((now - began) / 90);
    while (launched < Math.min(due, queue.length)) {
      const c = queue[launched++];
      flying.push({ ...c, vx: (Math.random() < 0.5 ? -1 : 1) * (2 + Math.random() * 4), vy: -Math.random() * 6 });
    }
    for (const c of flying) {
      c.vy += 0.55 * dt;
      c.x += c.vx * dt;
      c.y += c.vy * dt;
      if (c.y + c.h > H) { c.y = H - c.h; c.vy *= -0.78; }
      draw(c);
    }
    if (now - began < LENGTH_MS) frame = requestAnimationFrame(step);
    else end();
  }
  frame = requestAnimationFrame(step);

  let ended = false;
  function end() {
    if (ended) return;
    ended = true;
    cancelAnimationFrame(frame);
    layer.remove();
    document.removeEventListener("keydown", end, true);
    document.removeEventListener("pointerdown", end, true);
  }
  // Any click, tap or key skips it; the click still reaches what it was aimed at (Results...).
  document.addEventListener("pointerdown", end, true);
  document.addEventListener("keydown", end, true);
  return end;
}

export const describe = (suits) => suits.map(suitName).join(", ");
