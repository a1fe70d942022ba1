// The websocket conversation of docs/protocol.md, and nothing about cards: hello with the token
// in the first message (never in the URL), a seq on every command, one answer per command,
// resending unanswered commands after a reconnect, the last room version for catch-up, a
// heartbeat, and automatic reconnection with backoff. Status changes go to onStatus, so the
// page can show a banner.

const PING_EVERY = 20000;
const SILENT_LIMIT = 45000;
const CONNECT_TIMEOUT = 10000; // to open the socket
const WELCOME_TIMEOUT = 90000; // from open to welcome
const FATAL_CLOSE = new Set([4000, 4001, 4004]);
// The server's protocol version this client speaks: a welcome with a higher one means the
// page is older than the server, so it asks to be reloaded (docs/protocol.md section 1).
export const PROTOCOL = 2;
// Commands sent and not yet answered, at most: the server keeps the last 16 answers of a
// player for resends after a reconnect (docs/protocol.md section 3), so no more may be in flight.
const MAX_IN_FLIGHT = 16;

export class Connection {
  /**
   * hello(): the fields of the hello message ({token, room} or {token, daily}).
   * place: the URL's routing hint ({room}, {daily} or {practice: player id}; by default the
   * hello's room or daily), never the token: a proxy sends a place's sockets to one process.
   * onWelcome(welcome), onEvent(event), onMessage(other frames), onStatus({state, ...}).
   */
  constructor({ url, hello, place, onWelcome, onEvent, onMessage, onStatus }) {
    this.url = url || defaultUrl(place || placeOf(hello()));
    this.hello = hello;
    this.onWelcome = onWelcome || (() => {});
    this.onEvent = onEvent || (() => {});
    this.onMessage = onMessage || (() => {});
    this.onStatus = onStatus || (() => {});
    this.ws = null;
    this.ready = false; // welcome received on the current socket
    this.closed = false; // closed on purpose: do not reconnect
    this.lastVersion = null;
    this.nextSeq = 1;
    this.pending = []; // [{frame, seq, resolve, reject}] in send order, unanswered
    this.attempt = 0;
    this.timers = {};
    this.lastHeard = 0;
    this.connects = 0;
    // Back online, or a phone's tab shown again: do not wait for the backoff.
    this._online = () => { if (!this.ready) this.reconnectNow(); };
    this._visible = () => { if (document.visibilityState === "visible" && !this.ready) this.reconnectNow(); };
    window.addEventListener("online", this._online);
    document.addEventListener("visibilitychange", this._visible);
  }

  start() {
    this.closed = false;
    this._open();
    return this;
  }

  /** Close for good (leaving the page or the room). Pending commands are rejected. */
  close() {
    this.closed = true;
    window.removeEventListener("online", this._online);
    document.removeEventListener("visibilitychange", this._visible);
    for (const t of Object.values(this.timers)) clearTimeout(t);
    clearInterval(this.timers.ping);
    if (this.ws) this.ws.close(1000);
    for (const p of this.pending) p.reject(Object.assign(new Error("closed"), { code: "closed" }));
    this.pending = [];
  }

  /** Send a command; resolves with its `applied` answer, rejects with its `refused` answer. */
  send(type, fields = {}) {
    return new Promise((resolve, reject) => {
      const entry = { frame: { type, ...fields }, seq: null, resolve, reject };
      this.pending.push(entry);
      this._pump();
    });
  }

  /** Drop the socket and connect again at once (used when a gap in versions is seen). */
  reconnectNow() {
    if (this.closed) return;
    clearTimeout(this.timers.retry);
    if (this.ws && this.ws.readyState <= 1) {
      this.ws.close(4100);
      return;
    }
    this._open();
  }

  _status(state, extra = {}) {
    this.onStatus({ state, attempt: this.attempt, ...extra });
  }

  _open() {
    if (this.closed) return;
    this.ready = false;
    this._status(this.connects ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url);
    } catch (err) {
      this._scheduleRetry();
      return;
    }
    this.ws = ws;
    // A connection that hangs (no welcome) is dropped and tried again.
    clearTimeout(this.timers.connect);
    this.timers.connect = setTimeout(() => { if (ws === this.ws && !this.ready) ws.close(); }, CONNECT_TIMEOUT);
    ws.onopen = () => {
      // Open: now the server may take its time over the welcome (a daily's first deal).
      clearTimeout(this.timers.connect);
      this.timers.connect = setTimeout(() => { if (ws === this.ws && !this.ready) ws.close(); }, WELCOME_TIMEOUT);
      const hello = { type: "hello", client: "web/1", ...this.hello() };
      if (this.lastVersion !== null) hello.last_version = this.lastVersion;
      ws.send(JSON.stringify(hello));
      this.lastHeard = Date.now();
    };
    ws.onmessage = (msg) => {
      if (ws !== this.ws) return;
      this.lastHeard = Date.now();
      let frame;
      try {
        frame = JSON.parse(msg.data);
      } catch {
        return;
      }
      this._receive(frame);
    };
    ws.onclose = (ev) => {
      if (ws !== this.ws) return;
      this.ready = false;
      clearInterval(this.timers.ping);
      // Heartbeats are not worth resending; real commands are.
      this.pending = this.pending.filter((p) => {
        if (p.frame.type !== "ping") return true;
        p.reject(Object.assign(new Error("disconnected"), { code: "closed" }));
        return false;
      });
      if (this.closed) return;
      if (FATAL_CLOSE.has(ev.code) && this.fatal) {
        this._status("failed", { code: this.fatal.code, message: this.fatal.message });
        return;
      }
      this._scheduleRetry();
    };
  }

  _scheduleRetry() {
    this.attempt += 1;
    const base = Math.min(10000, 400 * 2 ** Math.min(this.attempt - 1, 5));
    const delay = Math.round(base * (0.6 + Math.random() * 0.4));
    this._status("reconnecting", { retryAt: Date.now() + delay });
    clearTimeout(this.timers.retry);
    this.timers.retry = setTimeout(() => this._open(), delay);
  }

  _receive(frame) {
    if (frame.type === "welcome") {
      this.ready = true;
      this.attempt = 0;
      this.connects += 1;
      this.fatal = null;
      this.lastVersion = frame.version ?? this.lastVersion;
      if (typeof frame.last_seq === "number") this.nextSeq = Math.max(this.nextSeq, frame.last_seq + 1);
      this.onWelcome(frame);
      this._status("open", { reconnected: this.connects > 1, outdated: (frame.protocol ?? 0) > PROTOCOL });
      this._startHeartbeat();
      // Resend what this socket has not carried yet (unanswered commands keep their seq).
      this._pump();
      return;
    }
    if (frame.type === "event") {
      if (typeof frame.v === "number" && this.lastVersion !== null) {
        if (frame.v <= this.lastVersion) return; // already seen
        if (frame.v > this.lastVersion + 1) { // missed something: catch up from lastVersion
          this.reconnectNow();
          return;
        }
      }
      if (typeof frame.v === "number") this.lastVersion = frame.v;
      this.onEvent(frame);
      return;
    }
    if ((frame.type === "applied" || frame.type === "refused") && frame.seq != null) {
      const i = this.pending.findIndex((p) => p.seq === frame.seq);
      if (i >= 0 && frame.type === "refused" && frame.code === "rate-limited") {
        // Not applied: send it again a little later, as a new command (a new seq).
        const entry = this.pending[i];
        entry.seq = null;
        entry.socket = null;
        entry.held = true;
        clearTimeout(entry.retry);
        entry.retry = setTimeout(() => { entry.held = false; this._pump(); }, 600 + Math.random() * 600);
        return;
      }
      if (i >= 0) {
        const [entry] = this.pending.splice(i, 1);
        if (frame.type === "applied") entry.resolve(frame);
        else entry.reject(Object.assign(new Error(frame.message || frame.code), frame));
        this._pump();
      }
      return;
    }
    if (frame.type === "refused" && !this.ready) {
      this.fatal = frame; // hello refused: the close that follows is final
      this._status("failed", { code: frame.code, message: frame.message });
      return;
    }
    this.onMessage(frame);
  }

  /** Send what waits, in order, keeping at most MAX_IN_FLIGHT unanswered on this socket. */
  _pump() {
    if (!this.ready) return;
    let inFlight = this.pending.filter((p) => p.socket === this.ws).length;
    for (const entry of this.pending) {
      if (inFlight >= MAX_IN_FLIGHT) return;
      if (entry.socket === this.ws || entry.held) continue;
      this._transmit(entry);
      inFlight += 1;
    }
  }

  _transmit(entry) {
    if (entry.seq === null) entry.seq = this.nextSeq++;
    entry.socket = this.ws;
    try {
      this.ws.send(JSON.stringify({ ...entry.frame, seq: entry.seq }));
    } catch {
      // The socket is going away; onclose reconnects and resends.
    }
  }

  _startHeartbeat() {
    clearInterval(this.timers.ping);
    this.timers.ping = setInterval(() => {
      if (!this.ready) return;
      if (Date.now() - this.lastHeard > SILENT_LIMIT) {
        this.reconnectNow();
        return;
      }
      this.send("ping").catch(() => {});
    }, PING_EVERY);
  }
}

function placeOf({ room, daily }) {
  return room ? { room } : daily ? { daily } : {};
}

function defaultUrl(place) {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const query = new URLSearchParams(Object.entries(place).filter(([, v]) => v)).toString();
  return `${scheme}://${location.host}/ws${query ? `?${query}` : ""}`;
}
