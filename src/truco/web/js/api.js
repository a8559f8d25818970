// Talking to the server: HTTP for the lobby, one WebSocket per player for the table.
// The paths live here only (see docs/protocol.md); nothing else in the client knows a URL.

export const PATHS = {
  tables: "/api/tables",                        // GET: open tables · POST {settings, name}: create
  table: (code) => `/api/tables/${code}`,       // GET: look a table up by its code
  join: (code) => `/api/tables/${code}/join`,   // POST {name}: a seat token
  qr: (code) => `/api/tables/${code}/qr.svg`,   // the link as a QR code (SVG)
  socket: (code, token) => (token ? `/ws/${code}?token=${encodeURIComponent(token)}` : `/ws/${code}`),
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
    throw err;
  }
  return data;
}

export const api = {
  openTables: () => call("GET", PATHS.tables),
  create: (settings, name) => call("POST", PATHS.tables, { settings, name }),
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
export function forgetSeat(code) {
  try { localStorage.removeItem(KEY(code)); } catch (_) { /* ignore */ }
}

// ------------------------------------------------------------------ the table socket

/**
 * One socket to one table that reconnects by itself (reload, network loss) and resumes the seat.
 * ``onMessage(msg)`` gets every server message; ``onState("open" | "reconnecting" | "closed", why)``.
 * ``send(command)`` adds a command id, so a resend or double tap is applied once.
 */
export class TableSocket {
  constructor(code, token, { onMessage, onState }) {
    this.code = code;
    this.token = token;
    this.onMessage = onMessage;
    this.onState = onState;
    this.counter = 0;
    this.prefix = Math.random().toString(36).slice(2, 8);
    this.backoff = 300;
    this.closed = false;
    this.queue = [];
    this.open();
  }

  open() {
    const proto = location.protocol === "https:" ? "wss:" : "ws:";
    const ws = new WebSocket(`${proto}//${location.host}${PATHS.socket(this.code, this.token)}`);
    this.ws = ws;
    ws.onopen = () => {
      this.backoff = 300;
      this.onState("open");
      for (const frame of this.queue.splice(0)) ws.send(frame);
    };
    ws.onmessage = (e) => {
      let msg;
      try { msg = JSON.parse(e.data); } catch (_) { return; }
      this.onMessage(msg);
    };
    ws.onclose = (e) => {
      if (this.ws !== ws) return;
      // 4001 bad token, 4003 table gone, 4002 replaced by a newer tab: do not fight over the seat.
      if (this.closed || e.code === 4001 || e.code === 4003 || e.code === 4002) {
        this.onState("closed", e.code);
        return;
      }
      this.onState("reconnecting");
      setTimeout(() => { if (!this.closed) this.open(); }, this.backoff);
      this.backoff = Math.min(this.backoff * 2, 4000);
    };
  }

  send(command) {
    const frame = JSON.stringify({ ...command, id: `${this.prefix}-${++this.counter}` });
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(frame);
    else this.queue.push(frame);
  }

  raw(message) {
    if (this.ws?.readyState === WebSocket.OPEN) this.ws.send(JSON.stringify(message));
  }

  close() {
    this.closed = true;
    this.ws?.close(1000);
  }
}
