// Everything this page knows, in one ``store``, and the small functions that change it without
// drawing: the server's clock, the connection, one command in flight per button, one game action per
// view, the name typed last. app.js owns the routes, the socket and the taps that use them.

const NAME_KEY = "truco.name";
const ACT_LOCK_MS = 3000;
const INFLIGHT_MIN_MS = 600;  // one tap per button: a repeat this soon is a double tap, even if answered
const INFLIGHT_MAX_MS = 5000; // a command never answered frees its button after this

/** Everything this page knows. ``render`` reads ``lobby``, ``table``, ``ui`` and ``clockOffset``. */
export const store = {
  lobby: { tables: [] },
  table: null,             // the model drawn (toModel of tv and extra), or null at home
  ui: { form: { players: 4, target: 30, flor: false, mode: "full", senas: true, private: false, chicos: 1,
    falta: "leader", turn_seconds: null, pica_pica: false }, bots: { level: "normal", target: 30 }, name: loadName(), flash: null },
  clockOffset: 0,          // server clock - this phone's clock, from the last server_now_ms
  code: null,              // the table of this page (/m/<code>)
  joinInfo: null,          // GET /api/tables/<code>, for the join screen
  socket: null,
  tv: null,                // the last table view from the server
  lastVersion: 0,
  extra: {},               // what the page adds to the view: link, connection, summary on show, señas
  hellos: 0,               // how many times the server greeted this page (1 + reconnections)
  seenHand: null,          // {key, score}: the server's last_hand this page knows of
  actLock: 0,              // when the last game action was sent; cleared by the next view or error
  inflight: new Map(),     // button key -> {id, at, answered}: one command in flight per button
  leaving: null,           // {flash, to}: a ``leave`` was sent; where to go when the server lets us go
  summaryTimer: null,
  holdTimer: null,
  lobbyTimer: null,
};

function loadName() { try { return localStorage.getItem(NAME_KEY) || ""; } catch (_) { return ""; } }
export function keepName(name) { try { localStorage.setItem(NAME_KEY, name); } catch (_) { /* ignore */ } }

export function setClock(serverNowMs) { store.clockOffset = serverNowMs - Date.now(); }

export function setConnection(s) { store.extra.connection = s; }

export function lockAct() {
  if (store.actLock && Date.now() - store.actLock < ACT_LOCK_MS) return false;
  store.actLock = Date.now();
  return true;
}
export function unlockAct() { store.actLock = 0; }

/** The server answered command ``id`` (ack or error): its button may be tapped again. */
export function answeredCommand(id) {
  for (const f of store.inflight.values()) if (f.id === id) f.answered = true;
}

/** One command in flight per button: ``key`` names the button (the command and its fields). */
export function claimButton(key) {
  const now = Date.now();
  for (const [k, f] of store.inflight) {
    // answered and old enough, or answered and another button is tapped now: not a double tap
    if (now - f.at > INFLIGHT_MAX_MS || (f.answered && (now - f.at > INFLIGHT_MIN_MS || k !== key))) store.inflight.delete(k);
  }
  if (store.inflight.has(key)) return false;
  store.inflight.set(key, { id: null, at: now, answered: false });
  return true;
}
