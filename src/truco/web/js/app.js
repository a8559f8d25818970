// The client's controller: routes (/ and /m/<code>), the lobby calls, the table socket, and one store
// of what this page knows. No rules are decided here and no workflow is run: the server's view says
// what to draw, its `legal` list what may be tapped.

import { api, forgetSeat, PATHS, savedSeat, saveSeat, TableSocket } from "./api.js";
import { clear } from "./dom.js";
import { getLang, setLang, t } from "./i18n.js";
import { joinScreen } from "./lobby.js";
import { toModel } from "./model.js";
import { primeAnimations } from "./table.js";
import { render, startTicker } from "./view.js";

const root = document.getElementById("app");
const NAME_KEY = "truco.name";
const SUMMARY_MS = 8000;
const SENA_MS = 8000;
const NOTICE_MS = 8000;
const TOAST_MS = 3500;
const ACT_LOCK_MS = 3000;
const PING_MS = 25000;
const BOT_LEVEL = "normal";   // "Jugar contra bots": the server fills the other seats with these

/** Everything this page knows. ``render`` reads ``lobby``, ``table``, ``ui`` and ``clockOffset``. */
const store = {
  lobby: { tables: [] },
  table: null,             // the model drawn (toModel of tv and extra), or null at home
  ui: { form: { players: 4, target: 30, flor: false, mode: "full", senas: true }, name: loadName() },
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
  summaryTimer: null,
  lobbyTimer: null,
};

function loadName() { try { return localStorage.getItem(NAME_KEY) || ""; } catch (_) { return ""; } }
function keepName(name) { try { localStorage.setItem(NAME_KEY, name); } catch (_) { /* ignore */ } }

// ------------------------------------------------------------------ changing the store

function setClock(serverNowMs) { store.clockOffset = serverNowMs - Date.now(); }

function setConnection(s) { store.extra.connection = s; }

function lockAct() {
  if (store.actLock && Date.now() - store.actLock < ACT_LOCK_MS) return false;
  store.actLock = Date.now();
  return true;
}
function unlockAct() { store.actLock = 0; }

function openTable(code, token) {
  closeTable();
  store.code = code;
  store.extra = { code, link: location.origin + PATHS.link(code), qr_url: PATHS.qr(code), connection: "open", senas: [] };
  const socket = new TableSocket(code, token, {
    onMessage: (msg) => { if (store.socket === socket) onMessage(msg); },
    onState: (s, closeCode) => { if (store.socket === socket) onState(s, closeCode); },
  });
  store.socket = socket;
}

function closeTable() {
  store.socket?.close();
  store.socket = null;
  store.tv = null;
  store.extra = {};
  store.lastVersion = 0;
  store.seenHand = null;
  hideSummary();
}

/** A view from the server (hello, snapshot or update): it replaces the one before, whole. */
function takeView(view, version) {
  const first = !store.tv;
  store.tv = view;
  store.lastVersion = version ?? view.version ?? store.lastVersion;
  if (first) primeAnimations(toModel(view, store.extra));
  noteLastHand(first);
  // a fresh seat: take the first empty chair (the host can move people afterwards)
  if (view.phase === "lobby" && view.me && view.me.seat === null && !store.extra.sitting) {
    const empty = view.seats.find((s) => s.kind === "empty");
    if (empty) { store.extra.sitting = true; store.socket?.send({ type: "sit", seat: empty.seat }); }
  }
  if (view.me?.seat !== null) store.extra.sitting = false;
}

/**
 * The server's ``last_hand`` is the summary of the hand just over. A new one (its ``hand_no`` moved)
 * is shown; the one already there when the page opens is not. ``score`` is kept so casual mode can
 * say what each team was awarded since the summary before.
 */
function noteLastHand(first) {
  const tv = store.tv;
  const hand = tv.last_hand;
  if (!hand) { store.seenHand = null; hideSummary(); return; } // a new match: nothing to summarize
  const key = `${tv.match_no}:${hand.hand_no}`;
  if (store.seenHand?.key === key) return;
  const sameMatch = store.seenHand?.key.startsWith(`${tv.match_no}:`);
  const before = sameMatch ? store.seenHand.score : [0, 0];
  store.seenHand = { key, score: hand.score };
  if (!first) showSummary(hand, before);
}

function showSummary(hand, before) {
  store.extra.summary = { hand, before };
  clearTimeout(store.summaryTimer);
  store.summaryTimer = setTimeout(() => { hideSummary(); redraw(); }, SUMMARY_MS);
}

function hideSummary() {
  clearTimeout(store.summaryTimer);
  store.summaryTimer = null;
  if (store.extra) store.extra.summary = null;
}

function addSena(from, sena) {
  const item = { from, sena, at: Date.now() };
  store.extra.senas = [...(store.extra.senas || []), item];
  setTimeout(() => { store.extra.senas = (store.extra.senas || []).filter((x) => x !== item); redraw(); }, SENA_MS);
}

function setNotice(notice) {
  store.extra.notice = notice;
  setTimeout(() => { if (store.extra.notice === notice) { store.extra.notice = null; redraw(); } }, NOTICE_MS);
}

function toast(text) {
  store.ui.toast = text;
  redraw();
  setTimeout(() => { if (store.ui.toast === text) { store.ui.toast = null; redraw(); } }, TOAST_MS);
}

function redraw() {
  const { tv, code } = store;
  store.table = tv ? toModel(tv, store.extra) : null;
  if (!tv && code) {
    clear(root).appendChild(joinScreen(code, store.joinInfo, store.ui, intent));
    root.dataset.screen = "join";
    return;
  }
  render(root, store, intent);
}

// ------------------------------------------------------------------ routes

async function route() {
  const m = /^\/m\/([A-Za-z0-9]+)\/?$/.exec(location.pathname);
  if (m) {
    const code = m[1].toUpperCase();
    const seat = savedSeat(code);
    if (seat?.token) { openTable(code, seat.token); return; }
    if (new URLSearchParams(location.search).has("mirar")) { openTable(code, null); return; }
    closeTable();
    store.code = code;
    try { store.joinInfo = await api.lookup(code); } catch (e) {
      store.joinInfo = null;
      store.ui.error = e.status === 404 ? t("not_found") : e.message;
    }
    redraw();
    return;
  }
  closeTable();
  store.code = null;
  redraw();
  refreshLobby();
  clearInterval(store.lobbyTimer);
  store.lobbyTimer = setInterval(() => { if (!store.code) refreshLobby(); else clearInterval(store.lobbyTimer); }, 5000);
}

async function refreshLobby() {
  try {
    const data = await api.openTables();
    const list = Array.isArray(data) ? data : data?.tables || [];
    store.lobby.tables = list.map((x) => ({
      code: x.code || x.table_id, players: x.settings?.players ?? x.players, target: x.settings?.target ?? x.target,
      mode: x.settings?.mode ?? x.mode, free: x.free_seats ?? x.free, host_name: x.host_name || x.host,
    }));
    if (!store.code) redraw();
  } catch (_) { /* the lobby list is a nicety */ }
}

function go(path) {
  history.pushState(null, "", path);
  route();
}
window.addEventListener("popstate", () => { closeTable(); route(); });

// ------------------------------------------------------------------ the socket

function onState(s, closeCode) {
  if (s === "closed" && closeCode === 4002) {
    setConnection("replaced"); // a newer tab or phone has this seat now: stop here, do not fight
    redraw();
    return;
  }
  if (s === "closed" && (closeCode === 4001 || closeCode === 4003)) {
    forgetSeat(store.code);
    closeTable();
    store.ui.error = t("not_found");
    go("/");
    return;
  }
  if (s === "closed") return;
  setConnection(s === "open" ? "open" : "reconnecting");
  if (store.tv) redraw();
}

function onMessage(msg) {
  if (typeof msg.server_now_ms === "number") setClock(msg.server_now_ms);
  switch (msg.type) {
    case "hello":
      store.hellos += 1;
      unlockAct();
      if (msg.view) takeView(msg.view, msg.version);
      break;
    case "snapshot":
      unlockAct();
      if (msg.view) takeView(msg.view, msg.version);
      break;
    case "update":
      unlockAct();
      if (store.lastVersion && msg.version > store.lastVersion + 1) {
        store.socket.raw({ type: "resync", since: store.lastVersion });
        return;
      }
      if (msg.version <= store.lastVersion) return;
      for (const ev of msg.events || []) onEvent(ev);
      if (msg.view) takeView(msg.view, msg.version);
      break;
    case "left":
      closeTable();
      go("/");
      return;
    case "error":
      unlockAct();
      toast(t("error_generic", { msg: msg.message || msg.code }));
      return;
    default: // ack (the socket keeps track of commands), pong (the clock, above)
      return;
  }
  redraw();
}

/** Events only feed what a view cannot say: a seña toast, a notice. The view is the state. */
function onEvent(ev) {
  if (ev.type === "sena") addSena(ev.seat, ev.sena);
  else if (ev.type === "server_restarted") setNotice("server_restart");
}

// ------------------------------------------------------------------ what the player taps

const TABLE_COMMANDS = new Set(["act", "vote", "sena", "sit", "place", "shuffle_teams", "add_bot", "remove_bot",
  "start", "award", "undo_award", "end_hand", "rematch"]);

async function intent(it) {
  const { socket, tv, code } = store;
  if (TABLE_COMMANDS.has(it.type)) {
    // one game action per view: a double tap must not send a second (then illegal) command
    if ((it.type === "act" || it.type === "vote") && !lockAct()) return;
    if (it.type === "vote") socket?.send({ type: "act", do: it.answer });
    else socket?.send(it);
    return;
  }
  switch (it.type) {
    case "lang": setLang(getLang() === "es" ? "en" : "es"); redraw(); return;
    case "dismiss_summary": hideSummary(); redraw(); return;
    case "back_to_sala": {
      if (socket && tv && tv.phase !== "playing") socket.send({ type: "leave" });
      if (code) forgetSeat(code);
      store.ui.error = null;
      setTimeout(() => { closeTable(); go("/"); }, 150);
      return;
    }
    case "take_seat_here": // after a 4002: this tab takes the seat back (the other one is told so)
      setConnection("reconnecting");
      socket?.reopen();
      redraw();
      return;
    case "leave_page": // after a 4002: to the sala, the seat stays with the other tab
      closeTable();
      go("/");
      return;
    case "create":
    case "play_bots": {
      const name = (store.ui.name || "").trim();
      if (!name) { store.ui.error = t("name_required"); redraw(); document.getElementById("name")?.focus(); return; }
      keepName(name);
      const settings = it.type === "create" ? { ...it.settings }
        : { players: it.players, target: 30, mode: "full", senas: false };
      if (settings.players < 4) settings.senas = false;
      try {
        // one request: against bots, the server seats them and starts the match
        const res = await api.create(settings, name, it.type === "play_bots" ? BOT_LEVEL : null);
        const newCode = res.code || res.table_id;
        saveSeat(newCode, { token: res.token, name });
        store.ui.error = null;
        go(PATHS.link(newCode));
      } catch (e) { store.ui.error = t("error_generic", { msg: e.message }); redraw(); }
      return;
    }
    case "watch": history.replaceState(null, "", `${PATHS.link(it.code)}?mirar`); openTable(it.code, null); return;
    case "join": {
      const c = (it.code || "").trim().toUpperCase();
      if (c) go(PATHS.link(c));
      return;
    }
    case "join_here": {
      const name = (store.ui.name || "").trim();
      if (!name) { store.ui.error = t("name_required"); redraw(); return; }
      keepName(name);
      try {
        const res = await api.join(it.code, name);
        saveSeat(it.code, { token: res.token, name });
        store.ui.error = null;
        openTable(it.code, res.token);
      } catch (e) { store.ui.error = e.status === 404 ? t("not_found") : t("error_generic", { msg: e.message }); redraw(); }
      return;
    }
    default: return;
  }
}

// ------------------------------------------------------------------ start

document.documentElement.lang = getLang();
startTicker(() => store.clockOffset);
setInterval(() => { if (store.socket && store.tv) store.socket.raw({ type: "ping" }); }, PING_MS);
route();
// for tests and debugging: what the server said last, and a way to cut the line like a lost network
window.__truco = {
  state: () => ({ tv: store.tv, extra: store.extra, code: store.code, lastVersion: store.lastVersion,
    hellos: store.hellos, clockOffset: store.clockOffset, unanswered: store.socket ? store.socket.pending.size : 0 }),
  dropConnection: () => store.socket?.ws?.close(4000, "test: network lost"),
};
