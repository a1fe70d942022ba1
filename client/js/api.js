// The HTTP API (docs/http-api.md). The player's token lives in localStorage and travels only
// in the Authorization header (and in the websocket hello), never in a URL.

const TOKEN_KEY = "scorpion.token";
const PLAYER_KEY = "scorpion.player";
// This browser's device id: random, made once, kept when the player is forgotten. It goes in
// the body when a player is made or moved here; the server keeps only a keyed hash of it, to
// link the players made on one device (docs/http-api.md "Device ids").
const DEVICE_KEY = "scorpion.device";

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message || code || `HTTP ${status}`);
    this.status = status;
    this.code = code;
  }
}

export function token() {
  return localStorage.getItem(TOKEN_KEY);
}

/** {id, name} of this browser's player, or null. */
export function player() {
  try {
    return JSON.parse(localStorage.getItem(PLAYER_KEY) || "null");
  } catch {
    return null;
  }
}

function remember(data) {
  if (data.token) localStorage.setItem(TOKEN_KEY, data.token);
  const me = { id: data.id ?? data.player?.id, name: data.name ?? data.player?.name };
  // The shard of a day's daily holding this player's attempts: the socket's routing hint.
  const shard = data.daily_shard ?? data.player?.daily_shard;
  if (shard !== undefined) me.daily_shard = shard;
  localStorage.setItem(PLAYER_KEY, JSON.stringify(me));
  return me;
}

/** 32 hex digits (128 random bits), made the first time they are asked for. */
export function deviceId() {
  let id = localStorage.getItem(DEVICE_KEY);
  if (!/^[0-9a-f]{32}$/.test(id || "")) {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    id = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
    localStorage.setItem(DEVICE_KEY, id);
  }
  return id;
}

export function forget() {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(PLAYER_KEY);
}

async function request(method, path, body) {
  const headers = { Accept: "application/json" };
  const t = token();
  if (t) headers.Authorization = `Bearer ${t}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  let res;
  try {
    res = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  } catch {
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection.");
  }
  let data = null;
  const text = await res.text();
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = { message: text };
    }
  }
  if (!res.ok) {
    // A token the server no longer knows (a fresh database): forget it, a new one is made.
    if (res.status === 401 && t) forget();
    const err = data?.error && typeof data.error === "object" ? data.error : data || {};
    const error = new ApiError(res.status, err.code || data?.code, err.message || data?.message || data?.detail);
    if (err.opens_at) error.opens_at = err.opens_at; // a replay that opens later (docs/http-api.md)
    throw error;
  }
  return data;
}

/** Make sure this browser has a player; creates one named `name` if not. */
export async function ensurePlayer(name) {
  if (token()) return player();
  const data = await request("POST", "/api/players", { name, device_id: deviceId() });
  return remember(data);
}

export async function rename(name) {
  const data = await request("PATCH", "/api/me", { name });
  const me = { ...player(), name: data.player?.name ?? name };
  localStorage.setItem(PLAYER_KEY, JSON.stringify(me));
  return me;
}

export const createRoom = (settings) => request("POST", "/api/rooms", settings);
// The quick race's queue (docs/http-api.md, "Quick race"): join one rule set's, ask where you
// are (every second or two: that keeps your place), leave.
export const quickJoin = (preset) => request("POST", "/api/quick", { preset });
export const quickStatus = () => request("GET", "/api/quick");
export const quickLeave = () => request("DELETE", "/api/quick");
export const presets = () => request("GET", "/api/presets");
/** A league room's tables: this ISO week's and all time's (docs/http-api.md, "Leagues"). */
export const leagueTables = (room) => request("GET", `/api/rooms/${encodeURIComponent(room)}/league`);
/** The rooms their hosts listed: rule set, racers, state (docs/http-api.md, "Open rooms"). */
export const openRooms = () => request("GET", "/api/rooms");
export const getRoom = (id) => request("GET", `/api/rooms/${encodeURIComponent(id)}`);
export const daily = (date) => request("GET", date ? `/api/daily/${encodeURIComponent(date)}` : "/api/daily");
/** A player's quick-race rating per rule set and its history (docs/http-api.md, "Ratings"). */
export const ratings = (id = player()?.id) => request("GET", `/api/players/${encodeURIComponent(id)}/ratings`);
/** A rule set's rating leaderboard: players with 10 rated races or more (docs/http-api.md). */
export const ratingBoard = (preset) => request("GET", `/api/ratings/${encodeURIComponent(preset)}`);
export const stats = (id = player()?.id) => request("GET", `/api/players/${encodeURIComponent(id)}/stats`);
/** A replay (`path`: /api/replays/...); the token goes along, for your own attempts. */
export const replay = (path) => request("GET", path);
/** A result to share (`path`: /api/share/...): its text, link and image. */
export const share = (path) => request("GET", path);
/** The first `limit` rows (at most 100) of a day's leaderboard. */
export const leaderboard = (day, limit = 100) => request("GET", `/api/daily/${encodeURIComponent(day)}/leaderboard?limit=${limit}`);
/** A ranked daily result's runs and score over time, to race as a ghost. */
export const ghost = (day, player) => request("GET", `/api/ghosts/daily/${encodeURIComponent(day)}/${encodeURIComponent(player)}`);
export const myGames = (limit = 100) => request("GET", `/api/me/games?limit=${limit}`);
export const analysis = (gameId) => request("GET", `/api/games/${encodeURIComponent(gameId)}/analysis`);

/** Your games, newest first (`before`: the `next` of the page before), with their replays. */
export const history = (before = null, limit = 20) =>
  request("GET", `/api/me/history?limit=${limit}${before !== null ? `&before=${before}` : ""}`);
/** Your records per preset and a month of your daily calendar (YYYY-MM). */
export const records = (month) => request("GET", `/api/me/records${month ? `?month=${month}` : ""}`);

// Your player on another device (docs/http-api.md): codes travel in bodies, never in a URL.
export const makeDeviceCode = () => request("POST", "/api/me/device-code");
export const makeRecoveryCode = () => request("POST", "/api/me/recovery-code");
// The devices signed in as this player; signing one (or all the others) out.
export const myDevices = () => request("GET", "/api/me/devices");
export const signOutDevice = (id) => request("DELETE", `/api/me/devices/${encodeURIComponent(id)}`);
export const signOutOthers = () => request("POST", "/api/me/devices/sign-out-others");

/** This browser becomes the player of a one-time code (or a recovery code), with a token of
 * its own; the player this browser had before is forgotten here. */
export async function useCode(code, recovery = false) {
  const data = await request("POST", recovery ? "/api/recover" : "/api/devices/claim", { code, device_id: deviceId() });
  forget();
  return remember(data);
}
