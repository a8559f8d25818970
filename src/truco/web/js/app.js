// The client's controller: routes (/ and /m/<code>), the lobby calls, the table socket and the taps,
// over the one store of what this page knows (store.js). No rules are decided here and no workflow is
// run: the server's view says what to draw, its `legal` list what may be tapped.

import { api, forgetSeat, normalizeCode, PATHS, savedSeat, saveSeat, TableSocket } from "./api.js";
import { clear, h } from "./dom.js";
import { getLang, refusal, setLang, t } from "./i18n.js";
import { joinScreen } from "./lobby.js";
import { noteFairness } from "./fairness.js";
import { cancelKey, toModel } from "./model.js";
import { answeredCommand, claimButton, keepName, lockAct, setClock, setConnection, store, unlockAct } from "./store.js";
import { primeAnimations } from "./table.js";
import { render, startTicker } from "./view.js";

const root = document.getElementById("app");
const SUMMARY_MS = 8000;
const SENA_MS = 8000;
const NOTICE_MS = 8000;
const TOAST_MS = 3500;
const PING_MS = 25000;
const LEAVE_WAIT_MS = 2000;   // a ``leave`` whose ``left`` never comes: go anyway
const HOLD_MS = window.__trucoTiming?.holdMs ?? 2500;  // the last trick stays on the felt this long
const MAX_NAME = 24;          // the server's limit, in characters (code points: emoji joined with ZWJ count as typed)

// ------------------------------------------------------------------ the table this page shows

function openTable(code, token) {
  closeTable();
  store.code = code;
  store.extra = { code, link: location.origin + PATHS.link(code), qr_url: PATHS.qr(code), connection: "open", senas: [] };
  const socket = new TableSocket(code, token, {
    onMessage: (msg) => { if (store.socket === socket) onMessage(msg); },
    onState: (s, closeCode) => { if (store.socket === socket) onState(s, closeCode); },
    onAnswer: (id) => { if (store.socket === socket) answeredCommand(id); },
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
  store.inflight.clear();
  clearTimeout(store.holdTimer);
  hideSummary();
}

/** A view from the server (hello, snapshot or update): it replaces the one before, whole. */
function takeView(view, version) {
  const first = !store.tv;
  store.tv = view;
  store.lastVersion = version ?? view.version ?? store.lastVersion;
  for (const f of store.inflight.values()) f.answered = true; // a new view answers every button
  if (first) primeAnimations(toModel(view, store.extra));
  noteLastHand(first);
  noteFairness(view, store);
  // a fresh seat: take the first empty chair (the host can move people afterwards)
  if (view.phase === "lobby" && view.me && view.me.seat === null && !store.extra.sitting) {
    const empty = view.seats.find((s) => s.kind === "empty");
    if (empty) { store.extra.sitting = true; store.socket?.send({ type: "sit", seat: empty.seat }); }
  }
  if (view.me?.seat !== null) store.extra.sitting = false;
  // a token with no seat while a match is on (it started without us): never a player without cards;
  // give the place up and offer to watch
  if (first && view.me && view.me.seat === null && view.phase !== "lobby" && !store.leaving) {
    leaveTable({ flash: t(view.phase === "over" ? "match_over_watch" : "no_seat_left"), to: "join" });
  }
}

/**
 * Leave this table: ``leave`` is acked, then ``left`` comes and the socket closes (1000). ``to``:
 * "home" or "join" (the join/watch page of this table), with ``flash`` said there.
 */
function leaveTable({ flash, to }) {
  const code = store.code;
  if (!store.socket || store.leaving) return;
  store.leaving = { flash, to, code };
  store.socket.send({ type: "leave" });
  setTimeout(() => { if (store.leaving?.code === code && store.code === code) finishLeave(); }, LEAVE_WAIT_MS);
}

function finishLeave(removed = false) {
  const code = store.code;
  const leaving = store.leaving;
  store.leaving = null;
  forgetSeat(code);
  closeTable();
  if (removed) { store.ui.flash = t("removed_by_host", { code }); go("/"); return; }
  store.ui.flash = leaving?.flash || null;
  if (leaving?.to === "join") showJoin(code, leaving.flash);
  else go("/");
}

/**
 * The server's ``last_hand`` is the summary of the hand just over. A new one (its ``hand_no`` moved)
 * is shown; the one already there when the page opens is not. ``score`` is kept so casual mode can
 * say what each team was awarded since the summary before.
 */
function noteLastHand(first) {
  const tv = store.tv;
  const hand = tv.last_hand;
  if (!hand) { // a new match: nothing to summarize
    store.seenHand = null;
    if (store.extra) store.extra.hold = null;
    hideSummary();
    return;
  }
  const key = `${tv.match_no}:${hand.hand_no}`;
  if (store.seenHand?.key === key) return;
  const sameMatch = store.seenHand?.key.startsWith(`${tv.match_no}:`);
  const before = sameMatch ? store.seenHand.score : [0, 0];
  store.seenHand = { key, score: hand.score };
  if (first) return;
  // the last trick stays on the felt a moment (the new deal is already in the view), then the sheet
  const final = tv.phase === "over";
  store.extra.hold = { key };
  clearTimeout(store.holdTimer);
  store.holdTimer = setTimeout(() => {
    if (store.extra?.hold?.key !== key) return;
    store.extra.hold = null;
    showSummary(hand, before, final);
    redraw();
  }, HOLD_MS);
}

function showSummary(hand, before, final = false) {
  store.extra.summary = { hand, before, final };
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

/** A passing line on the table (``{key, params}``) that no view can say: a restart, a clock that ran out. */
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
  try {
    store.table = tv ? toModel(tv, store.extra) : null;
    if (!tv && code) {
      clear(root).appendChild(joinScreen(code, store.joinInfo, store.ui, intent));
      root.dataset.screen = "join";
      return;
    }
    render(root, store, intent);
  } catch (e) {
    // never a blank page: say so, and offer to watch or to go back
    console.error(e);
    clear(root).appendChild(h("main", { class: "screen end-screen", dataset: { screen: "failed" } },
      h("h1", null, t("render_failed")),
      code ? h("button", { class: "btn primary wide", type: "button", onclick: () => intent({ type: "watch", code, forget: true }) },
        t("watch")) : null,
      h("button", { class: "btn wide", type: "button", onclick: () => intent({ type: "back_to_sala" }) }, t("back_to_sala"))));
    root.dataset.screen = "failed";
  }
}

/** The join/watch page of ``code``, looked up anew (phase, free seats), with ``flash`` said on it. */
async function showJoin(code, flash) {
  closeTable();
  store.code = code;
  store.ui.flash = flash || null;
  store.joinInfo = null;
  if (location.pathname !== PATHS.link(code) || location.search) history.replaceState(null, "", PATHS.link(code));
  try { store.joinInfo = await api.lookup(code); } catch (e) {
    store.joinInfo = e.status === 404 ? { missing: true } : { offline: true };
  }
  if (store.code === code && !store.tv) redraw();
}

// ------------------------------------------------------------------ routes

async function route() {
  const m = /^\/m\/([^/]+)\/?$/.exec(location.pathname);
  if (m) {
    const code = normalizeCode(decodeURIComponent(m[1]));
    const seat = savedSeat(code);
    if (seat?.token) { openTable(code, seat.token); return; }
    if (new URLSearchParams(location.search).has("mirar")) { openTable(code, null); return; }
    await showJoin(code, store.ui.flash);
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

/** A refusal from the server, in the player's words (the English ``message`` is never shown). */
function refused(msg) {
  // a contribution to a deal that was already dealt is no news to the player (docs/fairness.md)
  if (["contribution_late", "already_contributed", "bad_contribution"].includes(msg.reason)) return;
  toast(refusal(msg.reason || msg.code));
}
window.addEventListener("popstate", () => { closeTable(); route(); });

// ------------------------------------------------------------------ the socket

function onState(s, closeCode) {
  if (s === "closed" && closeCode === 4002) {
    setConnection("replaced"); // a newer tab or phone has this seat now: stop here, do not fight
    redraw();
    return;
  }
  if (s === "closed" && store.leaving) { finishLeave(); return; }
  if (s === "closed" && (closeCode === 4001 || closeCode === 4004)) {
    // the stored seat is unknown here, or ended (we left, or the host removed us): watch or sit again
    const code = store.code;
    forgetSeat(code);
    showJoin(code, t(closeCode === 4004 ? "seat_gone" : "seat_unknown"));
    return;
  }
  if (s === "closed" && closeCode === 4003) {
    forgetSeat(store.code);
    closeTable();
    store.ui.flash = null;
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
    case "left": // we left, or the host removed us: this token is ended
      finishLeave(!store.leaving);
      return;
    case "error":
      unlockAct();
      if (store.leaving) { finishLeave(); return; }
      refused(msg);
      return;
    default: // ack (the socket keeps track of commands), pong (the clock, above)
      return;
  }
  redraw();
}

/** Events only feed what a view cannot say: a seña toast, a notice. The view is the state. */
function onEvent(ev) {
  if (ev.type === "sena") addSena(ev.seat, ev.sena);
  else if (ev.type === "server_restarted") setNotice({ key: "server_restart" });
  else if (ev.type === "turn_expired") setNotice({ key: "turn_expired", seat: ev.seat, misses: ev.misses });
}

// ------------------------------------------------------------------ what the player taps

const TABLE_COMMANDS = new Set(["act", "vote", "sena", "sit", "place", "shuffle_teams", "add_bot", "remove_bot",
  "remove_player", "start", "award", "undo_award", "end_hand", "rematch"]);

async function intent(it) {
  const { socket, tv, code } = store;
  if (TABLE_COMMANDS.has(it.type)) {
    if (!socket) return;
    // one command in flight per button: a double tap must not act twice ("+4" twice, a hand skipped)
    const key = JSON.stringify(it);
    if (!claimButton(key)) return;
    // one game action per view: a double tap must not send a second (then illegal) command
    if ((it.type === "act" || it.type === "vote") && !lockAct()) return;
    const id = it.type === "vote" ? socket.send({ type: "act", do: it.answer }) : socket.send(it);
    const f = store.inflight.get(key);
    if (f) f.id = id;
    if (it.type === "act" && it.do === "mazo") store.ui.confirmMazo = false;
    return;
  }
  switch (it.type) {
    case "lang": setLang(getLang() === "es" ? "en" : "es"); redraw(); return;
    case "dismiss_summary": hideSummary(); redraw(); return;
    case "fairness": store.extra.fairOpen = !!it.open; redraw(); return;
    case "confirm_mazo": store.ui.confirmMazo = !!it.open; redraw(); return;
    case "stay_after_cancel": store.extra.cancelSeen = cancelKey(tv); redraw(); return;
    case "leave": leaveTable({ flash: t("you_left", { code }), to: "home" }); return;
    case "back_to_sala": {
      store.ui.error = null;
      store.ui.flash = null;
      if (socket && tv && tv.me && tv.phase !== "playing") { leaveTable({ flash: null, to: "home" }); return; }
      if (code && tv?.me && tv.phase !== "playing") forgetSeat(code);
      closeTable();
      go("/");
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
      const name = checkedName();
      if (!name) return;
      if (store.ui.busy) return;
      const bots = store.ui.bots;
      const settings = it.type === "create" ? { ...it.settings }
        : { players: it.players, target: bots.target, mode: "full", senas: false };
      if (settings.players < 4) settings.senas = false;
      if (settings.turn_seconds === null) delete settings.turn_seconds;
      store.ui.busy = true;
      try {
        // one request: against bots, the server seats them and starts the match
        const res = await api.create(settings, name, it.type === "play_bots" ? bots.level : null);
        const newCode = res.code || res.table_id;
        saveSeat(newCode, { token: res.token, name });
        store.ui.error = null;
        store.ui.flash = null;
        go(PATHS.link(newCode));
      } catch (e) { store.ui.error = httpRefusal(e); redraw(); } finally { store.ui.busy = false; }
      return;
    }
    case "watch":
      if (it.forget) forgetSeat(it.code);
      store.ui.flash = null;
      history.replaceState(null, "", `${PATHS.link(it.code)}?mirar`);
      openTable(it.code, null);
      return;
    case "join": {
      // a code as people type it: "fhk-83u", "FHK 83U"
      const c = normalizeCode(it.code);
      if (!c) return;
      store.ui.code = c;
      try { await api.lookup(c); } catch (e) {
        store.ui.error = e.status === 404 ? t("not_found_code", { code: c }) : httpRefusal(e);
        redraw();
        return;
      }
      store.ui.error = null;
      store.ui.flash = null;
      go(PATHS.link(c));
      return;
    }
    case "join_here": {
      const name = checkedName();
      if (!name || store.ui.busy) return;
      store.ui.busy = true;
      try {
        const res = await api.join(it.code, name);
        saveSeat(it.code, { token: res.token, name });
        store.ui.error = null;
        store.ui.flash = null;
        openTable(it.code, res.token);
      } catch (e) { store.ui.error = e.status === 404 ? t("not_found") : httpRefusal(e); redraw(); } finally {
        store.ui.busy = false;
      }
      return;
    }
    default: return;
  }
}

/** The name typed, checked as the server counts it (characters, not UTF-16 units); null when refused. */
function checkedName() {
  const name = (store.ui.name || "").trim().replace(/\s+/g, " ");
  let error = null;
  if (!name) error = t("name_required");
  else if ([...name].length > MAX_NAME) error = t("name_too_long");
  if (error) { store.ui.error = error; redraw(); document.getElementById("name")?.focus(); return null; }
  keepName(name);
  return name;
}

function httpRefusal(e) {
  if (!e.status) return refusal("offline");
  if (e.code === "bad_message" && /name/i.test(e.message || "")) return refusal("name_unshowable");
  return refusal(e.code);
}

// ------------------------------------------------------------------ start

document.documentElement.lang = getLang();
startTicker(() => store.clockOffset);
setInterval(() => { if (store.socket && store.tv) store.socket.raw({ type: "ping" }); }, PING_MS);
route();
// for tests and debugging: what the server said last, and a way to cut the line like a lost network
window.__truco = {
  state: () => ({ tv: store.tv, extra: store.extra, code: store.code, lastVersion: store.lastVersion, screen: root.dataset.screen,
    hellos: store.hellos, clockOffset: store.clockOffset, unanswered: store.socket ? store.socket.pending.size : 0 }),
  dropConnection: () => store.socket?.ws?.close(4000, "test: network lost"),
  send: (command) => store.socket?.send(command), // a raw command, as a misbehaving client would
};
