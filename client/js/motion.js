// The board's motion: cards glide from where they were (FLIP), turned cards flip, the stock's
// cards fly to columns 1-3, a finished run flies to its foundation, refused cards shake back.
// Nothing moves under prefers-reduced-motion (the callers check it).

import { reducedMotion } from "./dom.js";
import { isDealtCard } from "./tableau.js";


export function animateChanges({ el, cards, foundations, prev, next, before, gone, stockRect }) {
  const ease = "cubic-bezier(.2,.75,.25,1)";
  const dealt = (prev.stock || 0) > (next.stock || 0);
  for (const [key, card] of cards) {
    const old = before.get(key);
    const now = card.getBoundingClientRect();
    if (old) {
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) + Math.abs(dy) > 1) {
        card.animate(
          [{ transform: `translate(${dx}px, ${dy}px)`, zIndex: 900 }, { transform: "none", zIndex: 900 }],
          { duration: 220, easing: ease },
        );
      }
    } else if (key.startsWith("c:") && dealt && isDealtCard(next, key)) {
      const dx = stockRect.left - now.left;
      const dy = stockRect.top - now.top;
      card.animate(
        [{ transform: `translate(${dx}px, ${dy}px) scaleX(0.05)` },
          { transform: `translate(${dx / 2}px, ${dy / 2}px) scaleX(1)`, offset: 0.5 },
          { transform: "none" }],
        { duration: 380, easing: ease },
      );
    } else if (key.startsWith("c:")) {
      card.animate([{ transform: "scaleX(0.05)" }, { transform: "scaleX(1)" }],
        { duration: 240, easing: ease, delay: 120, fill: "backwards" });
    }
  }
  const runsAdded = (next.runs || []).length > (prev.runs || []).length;
  if (!gone.length) return;
  const target = runsAdded
    ? foundations.children[(next.runs || []).length - 1]?.getBoundingClientRect()
    : null;
  const host = el.getBoundingClientRect();
  gone.forEach(([card, old], i) => {
    if (!old || !target) { card.remove(); return; }
    el.append(card);
    card.style.top = `${old.top - host.top}px`;
    card.style.left = `${old.left - host.left}px`;
    card.style.zIndex = String(1000 + i);
    card.classList.add("ghost");
    const anim = card.animate(
      [{ transform: "none", opacity: 1 },
        { transform: `translate(${target.left - old.left}px, ${target.top - old.top}px)`, opacity: 0.6 }],
      { duration: 420, delay: 160 + i * 25, easing: ease, fill: "forwards" },
    );
    anim.onfinish = () => card.remove();
  });
}

/** A refused card: slide back from where a drag left it, then shake. */
export function shakeBack(c) {
  const from = c.style.transform;
  c.style.transform = "";
  c.classList.remove("dragging", "selected");
  if (reducedMotion()) return;
  const shake = [{ transform: "translateX(0)" }, { transform: "translateX(-7px)" }, { transform: "translateX(6px)" },
    { transform: "translateX(-4px)" }, { transform: "translateX(2px)" }, { transform: "translateX(0)" }];
  if (from && from !== "none") {
    c.animate([{ transform: from, zIndex: 900 }, { transform: "none", zIndex: 900 }], { duration: 200, easing: "ease-out" })
      .onfinish = () => c.animate(shake, { duration: 340, easing: "ease-in-out" });
  } else {
    c.animate(shake, { duration: 360, easing: "ease-in-out" });
  }
}
