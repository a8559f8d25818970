// The table screen: score, seats around the felt, your hand and your calls; the vote, señas and casual
// panels come from panels.js. It renders a model (see docs/client.md) and calls ``send`` with what the
// player taps. No rules here: the buttons are exactly the server's ``legal`` list.

import { h, svg } from "./dom.js";
import { cardBack } from "./deck.js";
import { fosforosSVG } from "./fosforos.js";
import { callName, cardName, getLang, t } from "./i18n.js";
import { areaFor, duelState, playedBy, roles, teamOf } from "./seating.js";
import { ANSWERS, CALL_ORDER, cardEl, envidoStake, seatName, teamLabel } from "./parts.js";
import { casualPanel, senasButton, senasPanel, senaToasts, votePanel } from "./panels.js";

const seen = new Set(); // played cards already drawn, so only new ones animate
let seenPrimed = false;

function backs(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(h("div", { class: "card back tiny", "aria-hidden": "true" }, svg(cardBack())));
  return h("div", { class: "backs", role: "img", "aria-label": t("cards_left", { n }) }, out);
}

// ------------------------------------------------------------------ score

export function scoreBoard(model) {
  const game = model.game;
  const target = model.settings.target || game?.rules?.target || 30;
  const score = model.score || game?.score || [0, 0];
  const mine = teamOf(model.me);
  const rows = [mine, 1 - mine].map((team) => {
    const f = fosforosSVG(score[team], target);
    const label = teamLabel(model, team);
    const spoken = `${label}: ${score[team]} — ${f.malas} ${t("malas")}, ${f.buenas} ${t("buenas")}`;
    return h("div", { class: `score-row team-${team === mine ? "us" : "them"}`, role: "group", "aria-label": spoken },
      h("span", { class: "score-team" }, label),
      h("span", { class: "score-half malas", title: t("malas") }, svg(f.malasSvg)),
      h("span", { class: "score-half buenas", title: t("buenas") }, svg(f.buenasSvg)),
      h("span", { class: "score-num", dataset: { testid: `score-${team === mine ? "us" : "them"}` } }, String(score[team])));
  });
  const chicos = game && game.rules?.chicos > 1
    ? h("div", { class: "chicos" }, t("chicos", { a: game.chicos[mine], b: game.chicos[1 - mine] })) : null;
  return h("header", { class: "scoreboard", "aria-label": t("score") },
    h("div", { class: "score-legend", "aria-hidden": "true" },
      h("span", null, ""), h("span", null, t("malas")), h("span", null, t("buenas")), h("span", null, "")),
    rows, chicos);
}

// ------------------------------------------------------------------ info strip

function langButton(send) {
  return h("button", { class: "btn ghost lang small", type: "button", "aria-label": t("lang_toggle_label"),
    onclick: () => send({ type: "lang" }) }, getLang() === "es" ? "EN" : "ES");
}

/** The turn clock (``deadlines`` of kind ``turn``, when the table has one): whose turn, how long left. */
function turnClock(model) {
  const c = model.turn_clock;
  if (!c) return null;
  const mine = c.seat === model.me && !model.spectator;
  return h("span", { class: "chip chip-clock", role: "timer", dataset: { testid: "turn-clock" } },
    "⏱ ", h("span", { class: "countdown", dataset: { deadline: c.at, fmt: mine ? "turn_clock_mine" : "turn_clock_left",
      name: seatName(model, c.seat) } }, ""));
}

function infoStrip(model, send) {
  const game = model.game;
  if (!game) return null;
  const mine = teamOf(model.me);
  const results = [0, 1, 2].map((r) => {
    const res = game.results[r];
    let cls = "pending", text = "·";
    if (res === mine) { cls = "won"; text = "✓"; } else if (res === -1) { cls = "parda"; text = "="; }
    else if (res !== undefined) { cls = "lost"; text = "✗"; }
    const word = res === undefined ? "" : res === -1 ? t("parda") : res === mine ? t("won") : t("lost");
    return h("span", { class: `baza ${cls}`, title: `${t("round_n", { n: r + 1 })} ${word}`,
      "aria-label": `${t("round_n", { n: r + 1 })} ${word}` }, text);
  });
  const turnSeat = game.hand_over ? null : (game.to_act?.length ? game.to_act : [game.turn]);
  let turnText = "";
  if (game.held) {
    turnText = ""; // the hand is over: who took it is said where the cards were
  } else if (turnSeat && !game.pending) {
    turnText = turnSeat.includes(model.me) && !model.spectator ? t("your_turn")
      : t("waiting_turn", { name: seatName(model, turnSeat[0]) });
  }
  return h("div", { class: "info-strip" },
    h("span", { class: "hand-no" }, t("hand_no", { n: game.hand_no })),
    h("span", { class: "bazas" }, results),
    model.settings.mode !== "casual" ? h("span", { class: "truco-value", title: t("truco_value", { n: game.truco_value }) },
      t("truco_value_short", { n: game.truco_value }))
      : h("span", { class: "chip chip-casual", title: t("casual_badge") }, t("casual_short")),
    h("span", { class: `turn-text ${turnSeat?.includes(model.me) && !model.spectator ? "mine" : ""}`, role: "status", "aria-live": "polite" }, turnText),
    fairMark(model, send),
    langButton(send));
}

/** Pica-pica: the duel being played and who plays it, after a mark (✓ ✗) per duel already played. */
function picaStrip(model) {
  const game = model.game;
  if (!game?.pica || game.duel < 0 || game.hand_over) return null;
  const mine = teamOf(model.me);
  const a = seatName(model, game.mano), b = seatName(model, (game.mano + 3) % 6);
  const done = (game.duels || []).map((d, i) => h("span", {
    class: `baza ${model.spectator ? "" : d.winner === mine ? "won" : "lost"}`,
    title: t("pica_duel_won", { n: i + 1, a: seatName(model, d.mano), b: seatName(model, d.rival), team: teamLabel(model, d.winner) }),
  }, model.spectator ? String(d.winner + 1) : d.winner === mine ? "✓" : "✗"));
  return h("div", { class: "pica-strip", role: "status", "aria-label": t("pica_duel_label", { n: game.duel + 1, a, b }),
    dataset: { testid: "pica-duel" } },
  h("span", { class: "chip chip-pica" }, t("pica_pica")), done,
  h("span", { class: "pica-now" }, t("pica_duel", { n: game.duel + 1, a, b })));
}

/** "✓ reparto verificado" for the last hand over (docs/fairness.md); its details one tap away. */
export function fairMark(model, send) {
  const fair = model.fair;
  if (!fair) return null;
  return h("button", { class: `btn ghost small fair-mark ${fair.result.ok ? "ok" : "bad"}`, type: "button",
    "data-testid": "fair-mark", "aria-label": t("fair_mark_label", { n: fair.hand_no }),
    title: t(fair.result.ok ? "fair_ok" : "fair_bad"), onclick: () => send({ type: "fairness", open: true }) },
  h("span", { "aria-hidden": "true" }, fair.result.ok ? "✓" : "⚠"),
  h("span", { class: "fair-word" }, t(fair.result.ok ? "fair_ok" : "fair_bad")));
}

/** "Ganó la mano: Nosotros" (the server's ``last_hand.winner``), or nothing for a hand without one. */
export function handWinnerText(model, winner) {
  if (winner !== 0 && winner !== 1) return "";
  return t("hand_won_by", { team: teamLabel(model, winner) });
}

/** One line that tells the hand so far: the calls and answers of ``game.history``, latest last. */
function handLog(model) {
  const game = model.game;
  if (!game || game.held) return null;
  const said = (game.history || []).filter((a) => a.do !== "play");
  if (!said.length) return null;
  const parts = said.map((a) => `${seatName(model, a.seat)}: ${callName(a.do)}`);
  const shown = parts.length > 3 ? ["…", ...parts.slice(-3)] : parts;
  return h("p", { class: "hand-log", dataset: { testid: "hand-log" }, title: parts.join(" · ") },
    h("span", { class: "hand-log-title" }, `${t("hand_so_far")}: `), shown.join(" · "));
}

// ------------------------------------------------------------------ seats

function roleChips(seat, game) {
  return roles(seat, game).map((r) => h("span", { class: `chip chip-${r}` }, t(r)));
}

function presence(model, seat) {
  const s = model.seats.find((x) => x.seat === seat);
  if (!s) return null;
  if (s.bot) return h("span", { class: "chip chip-bot" }, `🤖 ${t(`level_${s.bot}`) || s.bot}`);
  if (!s.connected) {
    return h("span", { class: "chip chip-away" }, "⚠ ",
      s.away_until ? h("span", { class: "countdown", dataset: { deadline: s.away_until, fmt: "s" } }, "") : "");
  }
  return null;
}

function seatBox(model, seat, area) {
  const game = model.game;
  const s = model.seats.find((x) => x.seat === seat) || {};
  const isTurn = game && !game.hand_over && (game.to_act || [game.turn]).includes(seat);
  const duel = duelState(seat, game);
  const folded = game?.folded?.includes(seat) && !duel;
  const team = teamOf(seat) === teamOf(model.me) ? "us" : "them";
  const played = playedBy(seat, game);
  const name = seatName(model, seat);
  const roleWords = roles(seat, game).map((r) => t(r));
  const duelWord = duel ? t(duel === "done" ? "pica_done" : "pica_waits") : null;
  const label = [name, ...roleWords, isTurn ? t("turn") : null, folded ? t("folded") : null, duelWord].filter(Boolean).join(", ");
  return h("section", {
    class: `seat area-${area} team-${team} ${isTurn ? "is-turn" : ""} ${folded ? "is-folded" : ""} ${duel ? "is-idle" : ""} ${s.connected === false ? "is-away" : ""}`,
    "aria-label": label, dataset: { seat },
  },
    h("div", { class: "seat-head" },
      h("span", { class: "seat-name" }, name), roleChips(seat, game), presence(model, seat)),
    h("div", { class: "played", "aria-label": t("played_cards", { name }) },
      game && game.cards_left?.[seat] ? backs(game.cards_left[seat]) : null,
      played.map((p) => playedCard(game, seat, p))),
    folded ? h("div", { class: "folded-note" }, t("folded")) : null,
    duelWord ? h("div", { class: "folded-note" }, duelWord) : null);
}

function playedCard(game, seat, p) {
  const key = `${game.hand_no}:${seat}:${p.card}`;
  const fresh = seenPrimed && !seen.has(key);
  seen.add(key);
  const won = p.won === undefined ? game.results[p.round] : p.won ? teamOf(seat) : -2;
  return cardEl(p.card, { size: "small", extra: `${fresh ? "fly-in" : ""} ${won === teamOf(seat) ? "won-round" : ""}` });
}

// ------------------------------------------------------------------ center: calls and tantos

function announcement(model) {
  const game = model.game;
  if (!game || !game.history.length) return null;
  const last = game.history[game.history.length - 1];
  if (last.do === "play") return null;
  const stake = game.pending ? envidoStake(game) : null;
  return h("div", { class: "announce", role: "status", "aria-live": "assertive" },
    h("span", { class: "announce-who" }, seatName(model, last.seat)),
    h("span", { class: "announce-call" }, `¡${callName(last.do)}!`),
    stake ? h("span", { class: "announce-stake", dataset: { testid: "envido-stake" } }, stake) : null);
}

export function sungTantos(model, sung = model.game?.sung) {
  if (!sung?.length) return null;
  const game = { sung };
  return h("div", { class: "sung", "aria-label": t("sung_title") },
    h("div", { class: "sung-title" }, t("sung_title")),
    h("ol", null, game.sung.map((s) => h("li", { class: teamOf(s.seat) === teamOf(model.me) ? "us" : "them" },
      h("span", { class: "sung-name" }, seatName(model, s.seat)),
      h("span", { class: "sung-value" }, s.tanto < 0 ? t("son_buenas") : s.flor ? t("flor_sung", { n: s.tanto }) : String(s.tanto))))));
}

export function shownCards(model, shown = model.game?.shown) {
  if (!shown?.length) return null;
  const game = { shown };
  return h("div", { class: "shown", "aria-label": t("shown_title") },
    h("div", { class: "sung-title" }, t("shown_title")),
    game.shown.map((s) => h("div", { class: "shown-row" },
      h("span", { class: "sung-name" }, seatName(model, s.seat)),
      h("span", { class: "shown-cards" }, s.cards.map((c) => cardEl(c, { size: "small" }))))));
}

// ------------------------------------------------------------------ my hand and my calls

function myHand(model, send) {
  const game = model.game;
  if (!game) return null;
  if (model.spectator) return h("p", { class: "casual-note", role: "status" }, t("watching"));
  if (game.held) {
    // the hand is over: its last trick stays on the felt a moment, the new deal comes next
    return h("section", { class: "my-hand held", "aria-label": t("your_cards") },
      h("p", { class: "hand-over-note", role: "status" }, handWinnerText(model, game.hand_winner) || t("no_points")));
  }
  const playable = new Map(model.legal.filter((a) => a.do === "play").map((a) => [a.card, a]));
  const cards = game.cards.map((c) => {
    const action = playable.get(c);
    const label = action ? t("play_card", { card: cardName(c) }) : cardName(c);
    return cardEl(c, {
      size: "large", label, extra: action ? "playable" : "",
      onclick: action ? () => send({ type: "act", do: "play", card: c }) : null,
    });
  });
  const tanto = model.settings.mode !== "casual" && game.rules && !game.hand_over
    ? h("span", { class: "my-tanto" }, game.my_flor ? t("your_flor") : t("your_tanto", { n: game.my_tanto })) : null;
  return h("section", { class: "my-hand", "aria-label": t("your_cards") },
    h("div", { class: "hand-cards" }, cards), tanto);
}

function callButtons(model, ui, send) {
  const game = model.game;
  if (!game) return [];
  const answering = game.pending && game.answer_team === teamOf(model.me);
  const calls = model.legal.filter((a) => a.do !== "play" && !(answering && ANSWERS.has(a.do)));
  calls.sort((a, b) => CALL_ORDER.indexOf(a.do) - CALL_ORDER.indexOf(b.do));
  if (ui.confirmMazo && calls.some((a) => a.do === "mazo")) {
    // going to the mazo gives the hand away: one more tap to be sure
    return [h("div", { class: "mazo-confirm", role: "group", "aria-label": t("mazo_confirm") },
      h("p", null, t("mazo_confirm")),
      h("button", { class: "btn call call-mazo", type: "button", onclick: () => send({ type: "act", do: "mazo" }) }, t("mazo_yes")),
      h("button", { class: "btn", type: "button", onclick: () => send({ type: "confirm_mazo", open: false }) }, t("mazo_no")))];
  }
  return calls.map((a) => h("button", {
    class: `btn call call-${a.do}`, type: "button",
    onclick: () => send(a.do === "mazo" ? { type: "confirm_mazo", open: true } : { type: "act", do: a.do }),
  }, callName(a.do)));
}

// ------------------------------------------------------------------ banners

export function banners(model) {
  const out = [];
  if (model.connection === "reconnecting") {
    out.push(h("div", { class: "banner warn", role: "alert" }, t("reconnecting")));
  }
  for (const s of model.seats) {
    if (!s.bot && s.name && s.connected === false && s.away_until && s.seat !== model.me) {
      out.push(h("div", { class: "banner away", role: "alert" },
        h("span", { class: "countdown", dataset: { deadline: s.away_until, fmt: "disconnected_banner", name: s.name } }, "")));
    }
  }
  const n = model.notice;
  if (n?.key === "server_restart") out.push(h("div", { class: "banner info", role: "status" }, t("server_restart")));
  if (n?.key === "turn_expired") {
    const key = n.misses >= 2 ? "turn_expired_away" : n.seat === model.me && !model.spectator ? "turn_expired_me" : "turn_expired";
    out.push(h("div", { class: "banner info", role: "status", dataset: { testid: "turn-expired" } },
      t(key, { name: seatName(model, n.seat) })));
  }
  return out.length ? h("div", { class: "banners" }, out) : null;
}

// ------------------------------------------------------------------ the screen

export function tableScreen(model, ui, send, rerender) {
  const game = model.game;
  const players = model.settings.players;
  const others = [];
  for (let i = 1; i < players; i++) {
    const seat = (model.me + i) % players;
    others.push(seatBox(model, seat, areaFor(seat, model.me, players)));
  }
  const myPlayed = game ? playedBy(model.me, game) : [];
  const myTurn = game && !game.hand_over && (game.to_act || [game.turn]).includes(model.me);
  const myDuel = duelState(model.me, game);
  const iFolded = game?.folded?.includes(model.me) && !myDuel;
  const mine = model.spectator ? seatBox(model, model.me, "me") : h("div", {
    class: `seat area-me team-us ${myTurn ? "is-turn" : ""} ${iFolded ? "is-folded" : ""} ${myDuel ? "is-idle" : ""}`,
    "aria-label": t("played_cards", { name: t("you") }),
  },
    h("div", { class: "seat-head" }, h("span", { class: "seat-name", title: seatName(model, model.me) }, t("you_cap")),
      roleChips(model.me, game)),
    h("div", { class: "played" }, myPlayed.map((p) => playedCard(game, model.me, p))),
    iFolded ? h("div", { class: "folded-note" }, t("folded")) : null,
    myDuel ? h("div", { class: "folded-note" }, t(myDuel === "done" ? "pica_done" : "pica_waits")) : null);
  const center = h("div", { class: "felt-center" }, announcement(model), sungTantos(model));
  const casualHost = model.settings.mode === "casual" && model.is_host && !model.spectator;
  const screen = h("main", { class: `screen table-screen players-${players} mode-${model.settings.mode} ${casualHost ? "casual-host" : ""}`, dataset: { screen: "table" } },
    scoreBoard(model),
    banners(model),
    infoStrip(model, send),
    picaStrip(model),
    model.turn_clock ? h("div", { class: "clock-row" }, turnClock(model)) : null,
    handLog(model),
    h("div", { class: `felt felt-${players} ${game?.held ? "held" : ""}` }, others, center, mine, senaToasts(model)),
    myHand(model, send),
    h("div", { class: "actions" }, callButtons(model, ui, send), senasButton(model, ui, rerender)),
    casualPanel(model, send),
    votePanel(model, send),
    senasPanel(model, ui, send, rerender));
  seenPrimed = true;
  return screen;
}

/** Forget which cards were drawn (a fresh page load should not animate the whole table). */
export function primeAnimations(model) {
  const game = model?.game;
  if (!game) return;
  for (const seat of [...Array(game.players).keys()]) {
    for (const p of playedBy(seat, game)) seen.add(`${game.hand_no}:${seat}:${p.card}`);
  }
  seenPrimed = true;
}
