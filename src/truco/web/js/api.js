// Talking to the server: HTTP for the lobby, one WebSocket per player for the table.
// The paths live here only (see docs/protocol.md); nothing else in the client knows a URL.

export const PATHS = {
  tables: "/api/tables",                        // GET: open tables · POST {settings, name, bots?}: create
  table: (code) => `/api/tables/${code}`,       // GET: look a table up by its code
  join: (code) => `/api/tables/${code}/join`,   // POST {name}: a seat token
  qr: (code) => `/api/tables/${code}/qr.svg`,   // the link as a QR code (SVG)
  socket: (code) => `/ws/${code}`,              // the seat token travels in the subprotocol, never the URL
  link: (code) => `/m/${code}`,
};

async function call(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { "content-type": "application/json" } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  let data = null;
  try { data = await res.json(); } catch (_) { /* empty body */ }
  if (!res.ok) {
    const err = new Error(data?.error?.message || data?.message || data?.detail || res.statusText);
    err.status = res.status;
    err.code = data?.error?.code || null;   // the client words refusals from codes, never from ``message``
    throw err;
  }
  return data;
}

export const api = {
  openTables: () => call("GET", PATHS.tables),
  // ``bots``: a level, to fill every other seat with bots of it and start at once ("play against bots")
  create: (settings, name, bots) => call("POST", PATHS.tables, bots ? { settings, name, bots } : { settings, name }),
  lookup: (code) => call("GET", PATHS.table(code)),
  join: (code, name) => call("POST", PATHS.join(code), { name }),
};

// ------------------------------------------------------------------ seat tokens (this browser only)

const KEY = (code) => `truco.seat.${code}`;

export function savedSeat(code) {
  try { return JSON.parse(localStorage.getItem(KEY(code)) || "null"); } catch (_) { return null; }
}
export function saveSeat(code, seat) {
  try { localStorage.setItem(KEY(code), JSON.stringify(seat)); } catch (_) { /* private mode */ }
}
/** What a person types as a table code ("fhk-83u", "FHK 83U") → the code ("FHK83U"). */
export function normalizeCode(raw) {
  return String(raw || "").replace(/[^A-Za-z0-9]/g, "").toUpperCase();
}
export function forgetSeat(code) {
  try { localStorage.removeItem(KEY(code)); } catch (_) { /* ignore */ }
}

// ------------------------------------------------------------------ the table socket

/** How many times one command is sent at most (the first time and the resends after reconnecting). */
const MAX_SENDS = 4;

/**
 * One socket to one table that reconnects by itself (reload, network loss) and resumes the seat.
 * ``onMessage(msg)`` gets every server message; ``onState("open" | "reconnecting" | "closed", code)``.
 * The seat token goes in the WebSocket subprotocol (``truco.token.<token>``), never in the URL.
 *
 * ``send(command)`` gives the command an id (``<tab>-<n>``) and keeps it until the server answers it:
 * an ``ack`` (``duplicate: true`` when it had already been applied) or an ``error`` naming that id.
 * A command still unanswered when the line drops is sent again, with the same id, in order, as soon
 * as the socket is open again; the server applies an id once. A command is sent at most
 * ``MAX_SENDS`` times, then dropped. An ``error`` with code ``unavailable`` (the server restarting:
 * "try again") keeps the command for the next reconnection, unless a later command is acked first.
 */
export class TableSocket {
  constructor(code, token, { onMessage, onState, onAnswer }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    this.onAnswer = onAnswer || (() => {});
    this.left = false;
    this.counter = 0;
    this.prefix = Math.random().toString(36).slice(2, 8);
    this.backoff = 300;
    this.closed = false;
    this.pending = new Map(); // id -> {frame, sends, retry}: sent (or to send) and not answered yet
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const protocols = this.token ? ["truco", `truco.token.${this.token}`] : ["truco"];
    const ws = new WebSocket(`${proto}//${location.host}${PATHS.socket(this.code)}`, protocols);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 300;
      this.onState("open");
      for (const [id, p] of this.pending) {
        if (p.sends >= MAX_SENDS) { this.pending.delete(id); continue; }
        p.sends += 1;
        p.retry = false;
        ws.send(p.frame);
      }
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (_) { return; }
      if (msg.type === "left") this.left = true;
      this.answered(msg);
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      // 4001 unknown token, 4004 token ended (left or removed), 4003 table gone, 4002 replaced by a
      // newer tab: do not fight over the seat. 1000 after a ``left``: the server let us go.
      if (this.closed || e.code === 4001 || e.code === 4003 || e.code === 4002 || e.code === 4004 || this.left) {
        this.closed = true;
        this.pending.clear();
        this.onState("closed", e.code);
        return;
      }
      this.onState("reconnecting");
      setTimeout(() => { if (!this.closed && this.ws === ws) this.open(); }, this.backoff);
      this.backoff = Math.min(this.backoff * 2, 4000);
    };
  }

  /** The server answered a command: forget it (or keep it for the next reconnection: see above). */
  answered(msg) {
    if (!msg.id || (msg.type !== "ack" && msg.type !== "error")) return;
    this.onAnswer(msg.id);
    const p = this.pending.get(msg.id);
    if (msg.type === "error" && msg.code === "unavailable" && p) { p.retry = true; return; }
    this.pending.delete(msg.id);
    if (msg.type === "ack") {
      for (const [id, q] of this.pending) if (q.retry) this.pending.delete(id); // the player moved on
    }
  }

  send(command) {
    const id = `${this.prefix}-${++this.counter}`;
    const p = { frame: JSON.stringify({ ...command, id }), sends: 0, retry: false };
    this.pending.set(id, p);
    if (this.ws?.readyState === WebSocket.OPEN) { p.sends = 1; this.ws.send(p.frame); }
    return id;
  }

  /** Messages that are not commands (``ping``, ``resync``): sent now or never. */
  raw(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  /** Reopen a socket that was closed (the player chose to take this seat back here). */
  reopen() {
    this.closed = false;
    this.left = false;
    this.backoff = 300;
    this.open();
  }

  close() {
    this.closed = true;
    this.pending.clear();
    this.ws?.close(1000);
  }
}
