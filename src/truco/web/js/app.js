// The client's controller: routes (/ and /m/<code>), the lobby calls, the table socket, and the
// bookkeeping the screens need (hand summary, señas toasts, cancellation). No rules are decided here.

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

const state = {
  lobby: { tables: [] },
  table: null,
  ui: { form: { players: 4, target: 30, flor: false, mode: "full", senas: true }, name: loadName() },
  clockOffset: 0,
};
let tv = null;               // the last table view from the server
let extra = {};              // what the client adds to it
let socket = null;
let code = null;
let lastVersion = 0;
let joinInfo = null;
let pendingBots = 0;         // "Jugar contra bots": fill the empty seats with bots, then start
let hand = freshHand();
let summaryTimer = null;
let actLock = 0;             // when the last game action was sent; cleared by the next view or error
let lobbyTimer = null;
let hellos = 0;               // how many times the server greeted this page (1 + reconnections)

function freshHand() { return { awards: [], sung: [], shown: [] }; }

function loadName() { try { return localStorage.getItem(NAME_KEY) || ""; } catch (_) { return ""; } }
function keepName(name) { try { localStorage.setItem(NAME_KEY, name); } catch (_) { /* ignore */ } }

function redraw() {
  state.table = tv ? toModel(tv, extra) : null;
  if (!tv && code) {
    clear(root).appendChild(joinScreen(code, joinInfo, state.ui, intent));
    root.dataset.screen = "join";
    return;
  }
  render(root, state, intent);
}

function toast(text) {
  state.ui.toast = text;
  redraw();
  setTimeout(() => { if (state.ui.toast === text) { state.ui.toast = null; redraw(); } }, 3500);
}

// ------------------------------------------------------------------ routes

async function route() {
  const m = /^\/m\/([A-Za-z0-9]+)\/?$/.exec(location.pathname);
  if (m) {
    code = m[1].toUpperCase();
    const seat = savedSeat(code);
    if (seat?.token) { connect(seat.token); return; }
    if (new URLSearchParams(location.search).has("mirar")) { connect(null); return; }
    try { joinInfo = await api.lookup(code); } catch (e) { joinInfo = null; state.ui.error = e.status === 404 ? t("not_found") : e.message; }
    redraw();
    return;
  }
  code = null;
  tv = null;
  redraw();
  refreshLobby();
  clearInterval(lobbyTimer);
  lobbyTimer = setInterval(() => { if (!code) refreshLobby(); else clearInterval(lobbyTimer); }, 5000);
}

async function refreshLobby() {
  try {
    const data = await api.openTables();
    const list = Array.isArray(data) ? data : data?.tables || [];
    state.lobby.tables = list.map((x) => ({
      code: x.code || x.table_id, players: x.settings?.players ?? x.players, target: x.settings?.target ?? x.target,
      mode: x.settings?.mode ?? x.mode, free: x.free_seats ?? x.free, host_name: x.host_name || x.host,
    }));
    if (!code) redraw();
  } catch (_) { /* the lobby list is a nicety */ }
}

function go(path) {
  history.pushState(null, "", path);
  route();
}
window.addEventListener("popstate", () => { leaveSocket(); route(); });

// ------------------------------------------------------------------ the socket

function connect(token) {
  leaveSocket();
  extra = { code, link: location.origin + PATHS.link(code), qr_url: PATHS.qr(code), connection: "open", senas: [] };
  socket = new TableSocket(code, token, { onMessage, onState });
}

function leaveSocket() {
  socket?.close();
  socket = null;
  tv = null;
  extra = {};
  lastVersion = 0;
  hand = freshHand();
}

function onState(s, closeCode) {
  if (s === "closed" && closeCode === 4002) {
    extra.connection = "replaced";
    if (tv) redraw();
    return;
  }
  if (s === "closed" && (closeCode === 4001 || closeCode === 4003)) {
    forgetSeat(code);
    leaveSocket();
    state.ui.error = t("not_found");
    go("/");
    return;
  }
  extra.connection = s === "open" ? "open" : "reconnecting";
  if (tv) redraw();
}

function onMessage(msg) {
  if (msg.server_now_ms) state.clockOffset = msg.server_now_ms - Date.now();
  if (msg.type === "update" || msg.type === "snapshot" || msg.type === "hello" || msg.type === "error") actLock = 0;
  switch (msg.type) {
    case "hello":
    case "snapshot":
      if (msg.type === "hello") hellos += 1;
      if (msg.view) {
        const first = !tv;
        tv = msg.view;
        lastVersion = msg.version ?? tv.version ?? lastVersion;
        if (first) primeAnimations(toModel(tv, extra));
        afterView();
      }
      break;
    case "update": {
      if (lastVersion && msg.version > lastVersion + 1) {
        socket.raw({ type: "resync", since: lastVersion });
        return;
      }
      if (msg.version <= lastVersion) return;
      lastVersion = msg.version;
      for (const ev of msg.events || []) onEvent(ev);
      tv = msg.view || tv;
      afterView();
      break;
    }
    case "left":
      leaveSocket();
      go("/");
      return;
    case "error":
      toast(t("error_generic", { msg: msg.message || msg.reason || msg.code }));
      return;
    default:
      return;
  }
  redraw();
}

function onEvent(ev) {
  switch (ev.type) {
    case "hand_started": hand = freshHand(); break;
    case "points_awarded":
      // in casual mode only the host's awards count; the engine's own tally is not the score
      if (tv?.settings?.mode !== "casual") hand.awards.push({ team: ev.team, points: ev.points, reason: ev.reason });
      break;
    case "awarded": hand.awards.push({ team: ev.team, points: ev.points, reason: "casual" }); break;
    case "award_undone": {
      const i = hand.awards.findLastIndex((a) => a.reason === "casual" && a.team === ev.team && a.points === ev.points);
      if (i >= 0) hand.awards.splice(i, 1);
      break;
    }
    case "tanto_sung": hand.sung.push({ seat: ev.seat, tanto: ev.tanto, flor: !!ev.flor }); break;
    case "son_buenas": hand.sung.push({ seat: ev.seat, tanto: -1, flor: false }); break;
    case "cards_shown": hand.shown.push({ seat: ev.seat, cards: ev.cards }); break;
    case "hand_ended":
    case "hand_ended_early":
      showSummary({ hand_no: ev.hand_no, awards: hand.awards,
        score: tv?.settings?.mode === "casual" ? tv.casual?.score : ev.score,
        sung: hand.sung.length ? hand.sung : tv?.game?.sung || [], shown: hand.shown });
      break;
    case "match_cancelled": {
      // the seat is freed in the new view: keep the name from the view before it
      const name = tv?.seats?.find((s) => s.seat === ev.seat)?.name;
      extra.cancel = { reason: "disconnect", seat: ev.seat, name };
      extra.cancelSeen = false;
      break;
    }
    case "match_started": extra.cancel = null; extra.cancelSeen = true; extra.summary = null; break;
    case "server_restarted": extra.notice = "server_restart"; setTimeout(() => { extra.notice = null; redraw(); }, 8000); break;
    case "sena": {
      const item = { from: ev.seat, sena: ev.sena, at: Date.now() };
      extra.senas = [...(extra.senas || []), item];
      setTimeout(() => { extra.senas = (extra.senas || []).filter((x) => x !== item); redraw(); }, SENA_MS);
      break;
    }
    default: break;
  }
}

function showSummary(summary) {
  extra.summary = summary;
  clearTimeout(summaryTimer);
  summaryTimer = setTimeout(() => { extra.summary = null; redraw(); }, SUMMARY_MS);
}

function afterView() {
  if (!tv) return;
  if (tv.casual) extra.casual = tv.casual;
  // a fresh seat: take the first empty chair (the host can move people afterwards)
  if (tv.phase === "lobby" && tv.me && tv.me.seat === null && !extra.sitting) {
    const empty = tv.seats.find((s) => s.kind === "empty");
    if (empty) { extra.sitting = true; socket.send({ type: "sit", seat: empty.seat }); }
  }
  if (tv.me?.seat !== null) extra.sitting = false;
  if (pendingBots && tv.phase === "lobby" && tv.me?.host) {
    const empty = tv.seats.filter((s) => s.kind === "empty");
    if (empty.length) {
      if (pendingBots === 1) { pendingBots = 2; for (const s of empty) socket.send({ type: "add_bot", seat: s.seat, level: "normal" }); }
    } else {
      pendingBots = 0;
      socket.send({ type: "start" });
    }
  }
  if (tv.phase === "playing") extra.cancelSeen = true;
}

// ------------------------------------------------------------------ what the player taps

const TABLE_COMMANDS = new Set(["act", "vote", "sena", "sit", "place", "shuffle_teams", "add_bot", "remove_bot",
  "start", "award", "undo_award", "end_hand", "rematch"]);

async function intent(it) {
  if (TABLE_COMMANDS.has(it.type)) {
    // one game action per view: a double tap must not send a second (then illegal) command
    if (it.type === "act" || it.type === "vote") {
      if (actLock && Date.now() - actLock < 3000) return;
      actLock = Date.now();
    }
    if (it.type === "vote") socket?.send({ type: "act", do: it.answer });
    else socket?.send(it);
    return;
  }
  switch (it.type) {
    case "lang": setLang(getLang() === "es" ? "en" : "es"); redraw(); return;
    case "dismiss_summary": extra.summary = null; redraw(); return;
    case "back_to_sala": {
      if (socket && tv && tv.phase !== "playing") socket.send({ type: "leave" });
      if (code) forgetSeat(code);
      state.ui.error = null;
      setTimeout(() => { leaveSocket(); go("/"); }, 150);
      return;
    }
    case "create":
    case "play_bots": {
      const name = (state.ui.name || "").trim();
      if (!name) { state.ui.error = t("name_required"); redraw(); document.getElementById("name")?.focus(); return; }
      keepName(name);
      const settings = it.type === "create" ? { ...it.settings }
        : { players: it.players, target: 30, mode: "full", senas: false };
      if (settings.players < 4) settings.senas = false;
      try {
        const res = await api.create(settings, name);
        const newCode = res.code || res.table_id;
        saveSeat(newCode, { token: res.token, name });
        pendingBots = it.type === "play_bots" ? 1 : 0;
        state.ui.error = null;
        go(PATHS.link(newCode));
      } catch (e) { state.ui.error = t("error_generic", { msg: e.message }); redraw(); }
      return;
    }
    case "watch": history.replaceState(null, "", `${PATHS.link(it.code)}?mirar`); connect(null); return;
    case "join": {
      const c = (it.code || "").trim().toUpperCase();
      if (c) go(PATHS.link(c));
      return;
    }
    case "join_here": {
      const name = (state.ui.name || "").trim();
      if (!name) { state.ui.error = t("name_required"); redraw(); return; }
      keepName(name);
      try {
        const res = await api.join(it.code, name);
        saveSeat(it.code, { token: res.token, name });
        state.ui.error = null;
        connect(res.token);
      } catch (e) { state.ui.error = e.status === 404 ? t("not_found") : t("error_generic", { msg: e.message }); redraw(); }
      return;
    }
    default: return;
  }
}

// ------------------------------------------------------------------ start

document.documentElement.lang = getLang();
startTicker(() => state.clockOffset);
setInterval(() => { if (socket && tv) socket.raw({ type: "ping" }); }, 25000);
route();
// for tests and debugging: what the server said last, and a way to cut the line like a lost network
window.__truco = {
  state: () => ({ tv, extra, code, lastVersion, hellos }),
  dropConnection: () => socket?.ws?.close(4000, "test: network lost"),
};
