// The rules, per preset: the sentences and options the server sends (GET /api/presets, the
// same text as docs/rules.md) and four small drawn examples: a move, a run leaving, the deal
// of the stock and the empty-column rule. As a page (#/rules/<preset>) or as a dialog over
// the board (openRules), so a racer can read them without leaving the race.

import { clear, h } from "../dom.js";
import * as api from "../api.js";
import { faceDownCard, faceUpCard } from "../cards.js";

let presetsOnce = null;

/** The presets as the server describes them (fetched once per page load). */
export function loadPresets() {
  presetsOnce ??= api.presets().then((data) => data.presets).catch((err) => {
    presetsOnce = null;
    throw err;
  });
  return presetsOnce;
}

const SPADES = ["KS", "QS", "JS", "TS", "9S", "8S", "7S", "6S", "5S", "4S", "3S", "2S"];

/** A few columns drawn with the board's cards; "??" is a face-down card, [] an empty column. */
function miniBoard(columns) {
  return h("div.mini-board", { "aria-hidden": "true" }, columns.map(({ n, cards, note }) => {
    const col = h(`div.mini-col${cards.length ? "" : ".empty"}`);
    const fan = cards.length > 8 ? 12 : 20;
    let top = 0;
    cards.forEach((text, i) => {
      const card = text === "??" ? faceDownCard() : faceUpCard(text);
      if (i) top += cards[i - 1] === "??" ? 8 : fan;
      card.style.top = `${top}px`;
      card.style.zIndex = String(i + 1);
      if (text !== "??" && note?.includes(text)) card.classList.add("mini-mark");
      col.append(card);
    });
    col.style.height = `calc(var(--ch) + ${top}px)`;
    return h("div.mini-slot", {}, col, h("span.mini-label", { text: n }));
  }));
}

function example(title, before, after, caption) {
  return h("figure.rules-example", {},
    h("h3", { text: title }),
    h("div.mini-pair", {}, miniBoard(before), h("span.mini-arrow", { "aria-hidden": "true", text: "→" }), miniBoard(after)),
    h("figcaption", { text: caption }));
}

/** The four examples, drawn for this preset's options. */
function examples(options) {
  const out = [];
  out.push(example("A move",
    [{ n: "1", cards: ["??", "??", "??", "4S", "2S", "TS", "2H"], note: ["4S"] }, { n: "5", cards: ["6C", "5S"] }],
    [{ n: "1", cards: ["??", "??", "AH"], note: ["AH"] }, { n: "5", cards: ["6C", "5S", "4S", "2S", "TS", "2H"], note: ["4S"] }],
    (options.build === "any-suit"
      ? "The 4♠ goes onto the 5♠ (under these rules it could go onto any 5). "
      : "The 4♠ goes onto the 5♠: one rank higher, same suit. ")
    + "The 2♠, 10♠ and 2♥ lying on it go along, in whatever order they are. "
    + "The card the 4♠ covered turns face up by itself. Move text: 4S>5."));

  const kept = options.runs === "keep";
  out.push(example(kept ? "A finished run (it stays)" : "A run leaving",
    [{ n: "1", cards: SPADES }, { n: "2", cards: ["??", "AS"], note: ["AS"] }],
    kept
      ? [{ n: "1", cards: [...SPADES, "AS"], note: ["AS"] }, { n: "2", cards: ["4D"], note: ["4D"] }]
      : [{ n: "1", cards: [] }, { n: "2", cards: ["4D"], note: ["4D"] }],
    kept
      ? "The A♠ finishes the spades from King down to Ace. Under these rules the run stays on the table: you win when every column holds only finished runs."
      : "The A♠ finishes the spades from King down to Ace: the thirteen cards leave at once for a foundation, column 1 is empty, and the card under the A♠ turns face up. Move text: AS>1."));

  if (options.layout === "three-blind-mice") {
    out.push(example("The reserve (no stock)",
      [{ n: "reserve", cards: ["3S"], note: ["3S"] }, { n: "4", cards: ["8C", "4S"] }],
      [{ n: "reserve", cards: [] }, { n: "4", cards: ["8C", "4S", "3S"], note: ["3S"] }],
      "There is no stock. Two cards start face up in reserve cells; each can be played onto a column at any time under the usual rules, and nothing goes back into a cell. Move text: 3S>4."));
  } else {
    out.push(example("The deal of the stock",
      [{ n: "stock", cards: ["??", "??", "??"] }, { n: "1", cards: ["AH"] }, { n: "2", cards: ["8C"] }, { n: "3", cards: ["JC"] }],
      [{ n: "stock", cards: [] }, { n: "1", cards: ["AH", "9H"], note: ["9H"] }, { n: "2", cards: ["8C", "3S"], note: ["3S"] }, { n: "3", cards: ["JC", "4H"], note: ["4H"] }],
      "Once, whenever you choose, the three stock cards are dealt face up: one onto column 1, one onto column 2, one onto column 3. It counts as one move. Move text: deal."));
  }

  const anyCard = options.empty === "any";
  out.push(example("The empty column",
    [{ n: "1", cards: [] }, { n: "4", cards: ["9H", "KH", "AD", "2D"], note: ["KH"] }, { n: "7", cards: ["TC", "QC", "KC"], note: ["QC"] }],
    anyCard
      ? [{ n: "1", cards: ["QC", "KC"], note: ["QC"] }, { n: "4", cards: ["9H", "KH", "AD", "2D"] }, { n: "7", cards: ["TC"] }]
      : [{ n: "1", cards: ["KH", "AD", "2D"], note: ["KH"] }, { n: "4", cards: ["9H"] }, { n: "7", cards: ["TC", "QC", "KC"] }],
    anyCard
      ? "Under these rules any face-up card may go into an empty column, with what lies on it: here the Q♣ takes the K♣ along (QC>1). A King could go there too."
      : "Under these rules only a King may go into an empty column, with what lies on it: KH>1 is fine, QC>1 is refused (\"Only a King can go in an empty column\")."));
  return out;
}

/** The rules of one preset: summary, the referee's sentences, the examples. */
export function rulesContent(preset, headingLevel = 2) {
  const hx = `h${headingLevel}`;
  const sentences = Object.values(preset.rules || {});
  return h("div.stack.rules-content", {},
    h("p.lead", { text: preset.summary }),
    h("section.panel.stack", { "aria-labelledby": `rules-list-${preset.name}` },
      h(hx, { id: `rules-list-${preset.name}`, text: "The rules" }),
      h("p", { text: "Build each suit into one run, King down to Ace, in a column. Any face-up card may move, with every card lying on it; only the card you pick has to fit." }),
      h("ul.rules-list", {}, sentences.map((s) => h("li", { text: s }))),
      h("p.muted", { text: "Undo takes a move back completely. Give up ends your game as a loss, scored where it stands." }),
      h("p.muted", { text: "Fair undo (a ranked daily attempt, and a race room unless its host chooses otherwise): a move that showed a card cannot be undone, that is one that turned a face-down card face up (also under a run that left) or dealt the stock. No peeking. Practice and unranked attempts keep full undo." })),
    h("section.stack", { "aria-labelledby": `rules-examples-${preset.name}` },
      h(hx, { id: `rules-examples-${preset.name}`, text: "Examples" }),
      h("div.rules-examples", {}, examples(preset.options || {}))));
}

/** How a race is ranked and what happens when its time runs out (docs/protocol.md, Ranking:
 * the server ranks; this only says it). */
export function raceRanking() {
  return h("section.panel.stack", { "aria-labelledby": "rules-ranking", dataset: { rules: "ranking" } },
    h("h3", { id: "rules-ranking", text: "How a race is ranked" }),
    h("ul", {},
      h("li", { text: "Whoever clears the table first wins; the others who clear it follow by time." }),
      h("li", { text: "Everyone who did not clear it ranks after them: by runs removed (most first), then score (highest first), then moves (fewest first). Equal results share a place." }),
      h("li", { text: "Clean results (no hint, no move by Auto) rank before assisted ones." }),
      h("li", { text: "When time runs out (a room with a time limit), every game still playing stops where it stands, counts as timed out and is ranked as it is; the race is over." }),
      h("li", { text: "Giving up, or leaving the race, ends your game where it stands; you are ranked as it is." })));
}

/** What makes a result count (the server applies it; this only says it). */
function fairResults() {
  return h("section.panel.stack", { "aria-labelledby": "rules-fair" },
    h("h3", { id: "rules-fair", text: "Fair results" }),
    h("ul.fair-results", {},
      h("li", { text: "A game without a hint and without a move by Auto is clean; one with either is assisted and says which help it used. Assisted results rank after every clean one, and your statistics count them apart." }),
      h("li", { text: "The daily's ranked attempt lasts at most an hour. A day closes an hour after the next midnight UTC: until then nobody gets its deal number, a hint or Auto on it, nor a replay of it (not even their own). Then the replays of the day's top 10 are open to everyone." })));
}

/** Quick races and their ratings (docs/rules.md; the server decides, this only says it). */
function quickRaces() {
  return h("section.panel.stack", { "aria-labelledby": "rules-quick", dataset: { rules: "quick" } },
    h("h3", { id: "rules-quick", text: "Quick races and ratings" }),
    h("ul", {},
      h("li", { text: "Race anyone now gathers the players waiting for the same rules: a race starts at once with 4, or after 15 seconds with at least 2. You wait in one queue at a time, and not while you race: when your race in a friends' room starts, you leave the queue." }),
      h("li", { text: "Quick races are fair whatever the rules allow: fair undo, no hints, no Auto, and a deal the solver proved winnable where it could." }),
      h("li", { text: "They are rated for their rules. Leaving, giving up or using a hint or Auto ranks you last; only clean results count. A rating rises only by racing: leaving, giving up or making no move never raises it, and beating someone who left or sat idle earns nothing. You start at 1000, provisional for 5 races; the leaderboard lists players with 10 rated races or more." }),
      h("li", { text: "A friends' room is unrated unless its host makes it rated (in the create form or the lobby): then every round is rated the same way. A rated room or a league never deals a number someone chose (who might know its face-down cards), and its host cannot remove a racer mid-race." }),
      h("li", { text: "A host may make a room a league: the same link every week, points per round by place (10, 7, 5, 4, 3, 2, then 1), a table for the week and for all time. Leaving the room during a round, or making no move, places you last with 0 points; a round needs two racers who made a move to score." })));
}

/** #/rules and #/rules/<preset>: a page with a tab per preset. */
export function mountRules(ctx, name) {
  const { root } = ctx;
  let alive = true;
  const body = h("div.stack", {}, h("p.muted", { role: "status", text: "Loading the rules…" }));
  root.append(h("h1", { text: "How to play Scorpion" }), body);
  loadPresets().then((presets) => {
    if (!alive) return;
    const preset = presets.find((p) => p.name === name) || presets[0];
    document.title = `Rules: ${preset.label} · Scorpion Race`;
    clear(body);
    body.append(
      h("nav.rules-tabs", { "aria-label": "Rules of each preset" }, presets.map((p) =>
        h("a.btn.small", { href: `#/rules/${p.name}`, "aria-current": p.name === preset.name ? "page" : null, text: p.label }))),
      h("h2", { text: preset.label }),
      rulesContent(preset, 3),
      raceRanking(),
      fairResults(),
      quickRaces(),
      h("div.row", {}, h("a.btn.primary", { href: `#/practice/${preset.name}` }, `Practice ${preset.label}`), h("a.btn", { href: "#/" }, "Start a race")));
  }).catch((err) => {
    if (!alive) return;
    clear(body);
    body.append(h("p.error-text", { role: "alert", text: `The rules could not be loaded: ${err.message}` }));
  });
  return () => { alive = false; };
}

/** The rules of a preset in a dialog over the current page (the race stays as it is). */
export function openRules(name, opener = document.activeElement) {
  const close = () => {
    overlay.remove();
    document.removeEventListener("keydown", onKey, true);
    opener?.focus?.();
  };
  const onKey = (e) => {
    if (e.key === "Escape") {
      e.stopPropagation();
      close();
    }
  };
  const closeBtn = h("button.btn", { type: "button", onclick: close }, "Back to the game");
  const title = h("h2", { id: "rules-dialog-h", text: "Rules" });
  const body = h("div", {}, h("p.muted", { role: "status", text: "Loading the rules…" }));
  const overlay = h("div.overlay.rules-overlay", { role: "dialog", "aria-modal": "true", "aria-labelledby": "rules-dialog-h" },
    h("div.panel.stack", {}, h("div.row", {}, title, h("span", { style: "flex:1" }), closeBtn), body));
  overlay.addEventListener("click", (e) => { if (e.target === overlay) close(); });
  document.addEventListener("keydown", onKey, true);
  document.body.append(overlay);
  closeBtn.focus();
  loadPresets().then((presets) => {
    const preset = presets.find((p) => p.name === name) || presets[0];
    title.textContent = `Rules: ${preset.label}`;
    clear(body).append(rulesContent(preset, 3), raceRanking());
  }).catch((err) => {
    clear(body).append(h("p.error-text", { role: "alert", text: `The rules could not be loaded: ${err.message}` }));
  });
  return close;
}
