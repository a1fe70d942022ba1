// Cards as the wire names them ("4H", "TS"), their words for screen readers and their drawing.
// Cards are drawn with CSS and inline SVG suit symbols (see index.html), so they stay crisp
// at any size and do not depend on the fonts a machine happens to have.

export const RANKS = "A23456789TJQK";
const RANK_WORDS = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine",
  "ten", "jack", "queen", "king"];
const SUIT_WORDS = { S: "spades", H: "hearts", D: "diamonds", C: "clubs" };

/** {rank: 1..13, suit: "S"|"H"|"D"|"C", text} or null for "??" and anything unknown. */
export function parseCard(text) {
  if (typeof text !== "string" || text.length !== 2) return null;
  const rank = RANKS.indexOf(text[0]) + 1;
  const suit = text[1];
  if (rank < 1 || !(suit in SUIT_WORDS)) return null;
  return { rank, suit, text };
}

export function rankLabel(rank) {
  return rank === 10 ? "10" : RANKS[rank - 1];
}

/** "four of hearts" */
export function cardName(text) {
  const card = parseCard(text);
  return card ? `${RANK_WORDS[card.rank - 1]} of ${SUIT_WORDS[card.suit]}` : "face-down card";
}

const SUIT_SIGNS = { S: "♠", H: "♥", D: "♦", C: "♣" };

/** What a card shows ("Q♣", "10♥"): an accessible name starts with it (WCAG 2.5.3). */
export function visibleLabel(text) {
  const card = parseCard(text);
  return card ? `${rankLabel(card.rank)}${SUIT_SIGNS[card.suit]}` : "";
}

export function suitName(suit) {
  return SUIT_WORDS[suit] || suit;
}

const SVG_NS = "http://www.w3.org/2000/svg";

/** An <svg> showing one suit symbol from the sprite in index.html. */
export function suitIcon(suit, className = "suit") {
  const svg = document.createElementNS(SVG_NS, "svg");
  svg.setAttribute("class", className);
  svg.setAttribute("viewBox", "0 0 100 100");
  svg.setAttribute("aria-hidden", "true");
  svg.setAttribute("focusable", "false");
  const use = document.createElementNS(SVG_NS, "use");
  use.setAttribute("href", `#suit-${suit}`);
  svg.append(use);
  return svg;
}

/** A face-up card element (absolutely positioned by the board). */
export function faceUpCard(text) {
  const card = parseCard(text);
  const el = document.createElement("div");
  el.className = `card up suit-${card.suit}`;
  el.dataset.card = text;
  const corner = document.createElement("span");
  corner.className = "corner";
  const rank = document.createElement("span");
  rank.className = "rank";
  rank.textContent = rankLabel(card.rank);
  corner.append(rank, suitIcon(card.suit, "suit small"));
  const pip = document.createElement("span");
  pip.className = "pip";
  if (card.rank > 10) {
    const face = document.createElement("span");
    face.className = "face";
    // Drawn by CSS (attr): the card's visible text stays its corner, which starts its name.
    face.dataset.glyph = RANKS[card.rank - 1];
    pip.append(face);
  }
  pip.append(suitIcon(card.suit, "suit big"));
  const foot = document.createElement("span");
  foot.className = "foot";
  foot.dataset.glyph = rankLabel(card.rank);
  el.append(corner, pip, foot);
  return el;
}

export function faceDownCard() {
  const el = document.createElement("div");
  el.className = "card down";
  return el;
}

/** How the server sends a face-up card of a followed board that is still face down on a
 * playing racer's board (docs/protocol.md section 4). */
export const MASKED = "??";

/** A masked card: a back with a mark, in a face-up card's place. */
export function maskedCard() {
  const el = document.createElement("div");
  el.className = "card down masked";
  el.title = "Face up for this racer, hidden from you until every racer still playing has turned it";
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", "hidden card: face up for this racer, hidden from you until every racer still playing has turned it");
  return el;
}
