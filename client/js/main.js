// Boot: the store, the hash router (home, room, daily, practice, stats), the name prompt and the
// connection banner. Views mount into <main> and return a function that unmounts them.

import { createStore } from "./store.js";
import { clear, h } from "./dom.js";
import * as api from "./api.js";
import { showConnection, toast } from "./ui.js";
import { applyTheme } from "./theme.js";
import { routeChanged } from "./quickwatch.js";

// Each view's module loads when its route is opened (issue 23): the home page does not fetch
// the race, the daily or the board.
const views = {
  home: () => import("./views/home.js"),
  room: () => import("./views/room.js"),
  daily: () => import("./views/daily.js"),
  stats: () => import("./views/stats.js"),
  rules: () => import("./views/rules.js"),
  practice: () => import("./views/practice.js"),
  devices: () => import("./views/devices.js"),
  invite: () => import("./views/invite.js"),
  replay: () => import("./views/replay.js"),
  history: () => import("./views/history.js"),
  quick: () => import("./views/quick.js"),
};

const store = createStore({ me: api.player(), conn: null, room: null, board: null, daily: null });
const root = document.getElementById("main");
let unmount = () => {};
let lastConn = null;

let lastMe = null;
store.subscribe((s) => {
  if (s.me !== lastMe) {
    lastMe = s.me;
    refreshWho();
  }
  if (s.conn !== lastConn) {
    lastConn = s.conn;
    showConnection(s.conn);
    if (s.conn?.state === "failed" && s.conn.code === "bad-token") {
      // The server does not know our token (its database was reset): start over with a name.
      api.forget();
      refreshWho();
      route();
    }
  }
});

const ctx = {
  root,
  store,
  go: (hash) => { if (location.hash === hash) route(); else location.hash = hash; },
  refreshWho,
};

function refreshWho() {
  const who = document.getElementById("who");
  const me = api.player();
  who.textContent = me?.name ? me.name : "Pick a name";
  who.setAttribute("aria-label", me?.name ? `Your name: ${me.name}. Change it` : "Pick a name");
}

document.getElementById("who").addEventListener("click", () => askName(true));

/** Make sure this browser has a player (name + token) before joining anything. */
function askName(change = false) {
  return new Promise((resolve) => {
    const me = api.player();
    if (me?.name && api.token() && !change) {
      resolve(me);
      return;
    }
    const input = h("input", { maxlength: "24", value: me?.name || "", required: true, autocomplete: "nickname", "aria-label": "Your name" });
    const error = h("p.error-text", { role: "alert" });
    const form = h("form.panel.stack", {
      onsubmit: async (e) => {
        e.preventDefault();
        try {
          const name = input.value.trim();
          const who = api.token() ? await api.rename(name) : await api.ensurePlayer(name);
          overlay.remove();
          refreshWho();
          store.set({ me: { ...store.get().me, ...who } });
          resolve(who);
        } catch (err) {
          error.textContent = err.message;
        }
      },
    }, h("h2", { id: "name-h", text: change ? "Your name" : "Pick a name to play" }),
    h("p.muted", { text: "Other racers see it next to your progress." }),
    change ? h("p", {}, h("a", { href: "#/devices", onclick: () => { overlay.remove(); resolve(null); } }, "Use on another device")) : null,
    h("label.field", {}, "Name", input), error,
    h("div.row", {}, h("button.btn.primary", { type: "submit" }, change ? "Save" : "Let's play"),
      change ? h("button.btn", { type: "button", onclick: () => { overlay.remove(); resolve(null); } }, "Cancel") : null));
    const overlay = h("div.overlay", { role: "dialog", "aria-modal": "true", "aria-labelledby": "name-h" }, form);
    document.body.append(overlay);
    input.focus();
  });
}

async function route() {
  unmount();
  unmount = () => {};
  clear(root);
  store.set({ conn: null });
  const path = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  for (const a of document.querySelectorAll(".nav a")) {
    const target = a.getAttribute("href").replace(/^#\/?/, "");
    const on = (target || "") === (path[0] === "r" ? "" : path[0] || "");
    if (on) a.setAttribute("aria-current", "page");
    else a.removeAttribute("aria-current");
  }
  const [name, arg] = path;
  routeChanged(name, arg); // practising while waiting for a quick race: keep or leave the wait
  document.title = TITLES[name] ? `${TITLES[name]}${arg && name === "r" ? ` ${arg}` : ""} · Scorpion Race` : "Scorpion Race";
  const token = {};
  route.current = token;
  // Which module a route needs, fetched (once) before anything is mounted.
  const load = (key) => views[key]().catch((err) => { toast(`This page could not be loaded: ${err.message}`); throw err; });
  const mount = async (key, pick) => {
    const mod = await load(key);
    return route.current === token ? pick(mod) : null;
  };
  let mounted = null;
  if (name === "r" && arg) {
    const { invite } = await load("invite");
    if (route.current !== token) return;
    const choice = await invite(ctx, arg).catch((err) => { toast(err.message); return "in"; });
    if (route.current !== token || choice === "missing") return;
    if (choice === "watch") sessionStorage.setItem(`scorpion.watch.${arg}`, "1");
    if (choice === "play") sessionStorage.removeItem(`scorpion.watch.${arg}`);
    await askName();
    if (route.current !== token) return;
    mounted = await mount("room", (m) => m.mountRoom(ctx, arg));
  } else if (name === "quick") {
    await askName();
    if (route.current !== token) return;
    mounted = await mount("quick", (m) => m.mountQuick(ctx, arg || "classic"));
  } else if (name === "daily") {
    await askName();
    if (route.current !== token) return;
    mounted = await mount("daily", (m) => m.mountDaily(ctx, arg));
  } else if (name === "practice" && arg) {
    await askName();
    if (route.current !== token) return;
    mounted = await mount("practice", (m) => m.mountPractice(ctx, arg));
  } else if (name === "practice") {
    mounted = await mount("practice", (m) => m.mountPracticeList(ctx));
  } else if (name === "rules") {
    mounted = await mount("rules", (m) => m.mountRules(ctx, arg));
  } else if (name === "history") {
    mounted = await mount("history", (m) => m.mountHistory(ctx));
  } else if (name === "replay") {
    mounted = await mount("replay", (m) => m.mountReplay(ctx, path.slice(1)));
  } else if (name === "devices") {
    mounted = await mount("devices", (m) => m.mountDevices(ctx));
  } else if (name === "stats") {
    mounted = await mount("stats", (m) => m.mountStats(ctx));
  } else {
    mounted = await mount("home", (m) => m.mountHome(ctx));
  }
  if (route.current !== token) return;
  if (mounted) unmount = mounted;
  root.focus({ preventScroll: true });
}

// The server also serves index.html at /r/<id>, /daily[/<day>] and /replay/...: turn those
// into hash routes.
const pathRoute = location.pathname.match(/^\/(r\/[^/]+|daily(?:\/[^/]+)?|replay(?:\/[^/]+){2,4})\/?$/);
if (pathRoute && !location.hash) history.replaceState(null, "", `/#/${pathRoute[1]}`);

// The skip link must not go through the hash router.
document.querySelector(".skip")?.addEventListener("click", (e) => {
  e.preventDefault();
  (root.querySelector(".board [tabindex='0'], .board") || root).focus();
});

const TITLES = { r: "Race", daily: "Daily challenge", practice: "Practice", stats: "Statistics", rules: "Rules", devices: "Use on another device", replay: "Replay", history: "Your history", quick: "Race anyone now" };

window.addEventListener("hashchange", route);
applyTheme();
refreshWho();
route();
