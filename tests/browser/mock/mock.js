// Mock page: ?screen=NAME renders one screen from fixtures.json (made by tests/browser/make_fixtures.py
// from real table sessions). ?lang=en for English. Taps are recorded in window.__sent.

import { clear } from "../js/dom.js";
import { setLang } from "../js/i18n.js";
import { joinScreen } from "../js/lobby.js";
import { toModel } from "../js/model.js";
import { render, startTicker } from "../js/view.js";

const FIXTURE_NOW = 1_000_000; // the fixtures' server clock at the moment they were taken
const params = new URLSearchParams(location.search);
const screen = params.get("screen") || "table";
if (params.get("lang")) setLang(params.get("lang"));
window.__sent = [];

const fx = await (await fetch("./fixtures.json")).json();
const clone = (x) => JSON.parse(JSON.stringify(x));
const extra = { link: fx.link, qr_svg: fx.qr_svg };
const ui = { form: { players: 4, target: 30, flor: false, mode: "full", senas: true }, name: "Ana" };
const state = { lobby: fx.lobby, table: null, ui, clockOffset: FIXTURE_NOW - Date.now() };
// ?names=long: every seat named with the most the server allows (24 characters), to see what a long name does
const LONG_NAMES = ["Maximiliano F. Gutiérrez", "María Guadalupe Echeverr", "Juan Bautista Rodríguez", "Ana Carolina Fernández",
  "Sebastián Ezequiel Pére", "Florencia de los Ángele", "Bartolomé Mitre Sarmien", "Guillermina Aldao Quirog"];
const longNames = params.get("names") === "long";
if (longNames) {
  const rename = (x) => {
    if (Array.isArray(x)) { x.forEach(rename); return; }
    if (!x || typeof x !== "object") return;
    if (typeof x.seat === "number" && typeof x.name === "string" && x.name) x.name = LONG_NAMES[x.seat % LONG_NAMES.length];
    if (typeof x.host_name === "string") x.host_name = LONG_NAMES[7];
    Object.values(x).forEach(rename);
  };
  rename(fx);
  ui.name = LONG_NAMES[0];
}

function withBotPartner(tv) {
  const me = tv.me.seat;
  const partner = (me + 2) % tv.seats.length;
  tv.seats[partner] = { ...tv.seats[partner], kind: "bot", level: "dificil", name: null, player: null };
  tv.vote.votes = tv.vote.votes.filter((v) => v.seat !== partner);
  tv.vote.hint = { seat: partner, vote: "retruco" };
  tv.vote.window_ends_ms = null;
  return tv;
}

function over(tv, winner, score) {
  tv = clone(tv);
  tv.phase = "over"; tv.game = null; tv.commands = tv.me?.host ? ["rematch", "remove_player", "leave"] : ["leave"];
  tv.result = { winner, score, chicos: [0, 0], cancelled: false, reason: "target", seat: null, name: null };
  return tv;
}

// the join page is drawn from GET /api/tables/<code> (phase, free_seats), not from a table view
const lookup = (phase, free) => ({ table_id: "KX7P", code: "KX7P", phase, free_seats: free,
  host: longNames ? LONG_NAMES[7] : "Ana",
  settings: fx.waiting.settings, seats: [], match_no: phase === "lobby" ? 0 : 1 });
const JOIN = {
  join: lookup("lobby", 2),
  join_full: lookup("lobby", 0),
  join_playing: lookup("playing", 0),
  join_missing: { missing: true },
  join_seat_gone: lookup("playing", 0),
};

const SCREENS = {
  home: () => null,
  home_flash: () => { ui.flash = "Quien organiza te sacó de la mesa KX7P."; return null; },
  waiting_away: () => toModel(fx.waiting_away, extra),
  waiting_guest: () => toModel(fx.waiting_guest, extra),
  my_turn: () => toModel(fx.table4_my_turn, extra),
  mazo_confirm: () => { ui.confirmMazo = true; return toModel(fx.table4_my_turn, extra); },
  envido_stake: () => toModel(fx.table4_envido_stake, extra),
  envido_stake_caller: () => toModel(fx.table4_envido_stake_caller, extra),
  vote_forced: () => toModel(fx.table4_vote_forced, extra),
  turn_clock: () => toModel(fx.table4_turn_clock, extra),
  turn_expired: () => toModel(fx.table4_turn_clock, { ...extra, notice: { key: "turn_expired", seat: 1, misses: 1 } }),
  // a hand just ended: its tricks stay on the felt a moment before the new deal shows
  hold: () => toModel(fx.table2_next_hand, { ...extra, hold: { key: "1:1" } }),
  hold4: () => toModel(fx.table4_hand_over, { ...extra, hold: { key: "1:1" } }),
  summary2: () => {
    const tv = fx.table2_next_hand;
    return toModel(tv, { ...extra, summary: { hand: tv.last_hand, before: [0, 0] } });
  },
  // the hand that ended the match: its summary first, over the result
  summary_final: () => {
    const tv = over(fx.table2_next_hand, 0, [15, 9]);
    return toModel(tv, { ...extra, summary: { hand: tv.last_hand, before: [0, 0], final: true } });
  },
  match_end2: () => toModel(over(fx.table2_next_hand, 1, [9, 15]), extra),
  waiting: () => toModel(fx.waiting, extra),
  table: () => toModel(fx.table4_mid, extra),
  start: () => toModel(fx.table4_start, extra),
  vote: () => toModel(fx.table4_vote_split, extra),
  vote_bot: () => toModel(withBotPartner(clone(fx.table4_vote_pending)), extra),
  vote_other: () => toModel(fx.table4_vote_other, extra),
  table2: () => toModel(fx.table2, extra),
  table6: () => toModel(fx.table6, extra),
  table8: () => toModel(fx.table8, extra),
  // pica-pica: the second duel of three, seen by a seat that waits and by one that plays
  pica: () => toModel(fx.table6_pica, extra),
  pica_dueling: () => toModel(fx.table6_pica_dueling, extra),
  summary_pica: () => {
    const tv = fx.table6_pica_over;
    return toModel(tv, { ...extra, summary: { hand: tv.last_hand, before: [0, 0] } });
  },
  // the hand summary is the server's last_hand, as the page shows it when a new one arrives
  summary: () => {
    const tv = fx.table4_hand_over;
    return toModel(tv, { ...extra, summary: { hand: tv.last_hand, before: [0, 0] } });
  },
  summary_casual: () => {
    const tv = fx.casual_hand_over;
    return toModel(tv, { ...extra, summary: { hand: tv.last_hand, before: [0, 0] } });
  },
  match_end: () => {
    const tv = clone(fx.table4_mid);
    tv.phase = "over"; tv.game = null; tv.commands = ["rematch", "leave"];
    tv.result = { winner: 0, score: [30, 22], chicos: [0, 0], cancelled: false, reason: "target", seat: null, name: null };
    return toModel(tv, extra);
  },
  match_lost: () => {
    const tv = clone(fx.table4_mid);
    tv.phase = "over"; tv.game = null; tv.commands = ["leave"]; tv.me.host = false;
    tv.result = { winner: 1, score: [17, 30], chicos: [0, 0], cancelled: false, reason: "target", seat: null, name: null };
    return toModel(tv, extra);
  },
  cancelled: () => {
    // Beto did not come back: his seat is free again, the server's result names him
    const tv = clone(fx.waiting);
    tv.result = { winner: -1, score: [5, 3], chicos: [0, 0], cancelled: true, reason: "disconnected", seat: 1, name: "Beto" };
    tv.seats[1] = { ...tv.seats[1], kind: "empty", name: null, player: null, connected: false };
    return toModel(tv, extra);
  },
  replaced: () => toModel(fx.table4_mid, { ...extra, connection: "replaced" }),
  disconnected: () => toModel(fx.table4_disconnected, extra),
  reconnecting: () => toModel(fx.table4_mid, { ...extra, connection: "reconnecting" }),
  senas: () => { ui.senasOpen = true; return toModel(fx.table4_mid, extra); },
  sena_received: () => toModel(fx.table4_sena, extra),
  spectator: () => toModel(fx.spectator, extra),
  casual_host: () => toModel(fx.casual_host, extra),
  casual_player: () => toModel(fx.casual_player, extra),
};

const root = document.getElementById("app");
function draw() {
  if (JOIN[screen]) {
    clear(root).appendChild(joinScreen("KX7P", JOIN[screen], ui, send));
    root.dataset.screen = "join";
    return;
  }
  render(root, state, send);
}
const send = (intent) => {
  window.__sent.push(intent);
  if (intent.type === "lang") { setLang(document.documentElement.lang === "en" ? "es" : "en"); }
  if (intent.type === "dismiss_summary" && state.table) state.table.summary = null;
  if (intent.type === "take_seat_here" && state.table) state.table.connection = "open";
  if (intent.type === "confirm_mazo") ui.confirmMazo = !!intent.open;
  draw();
};
if (screen === "join_seat_gone") ui.flash = "Ya no tenés lugar en esta mesa (saliste o te sacaron). Podés mirarla o volver a sentarte si hay lugar.";
state.table = JOIN[screen] ? null : SCREENS[screen]();
draw();
startTicker(() => state.clockOffset);
document.body.dataset.ready = "1";
