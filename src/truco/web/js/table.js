// The table screen: score, seats around the felt, your hand, legal calls, votes, señas, casual scoring.
// It renders a model (see docs/client.md) and calls ``send`` with what the player taps. No rules here:
// the buttons are exactly the server's ``legal`` list.

import { h, svg } from "./dom.js";
import { cardBack, cardFace } from "./deck.js";
import { fosforosSVG } from "./fosforos.js";
import { callName, cardName, getLang, t } from "./i18n.js";
import { areaFor, duelState, playedBy, roles, teamOf } from "./seating.js";

const CALL_ORDER = ["flor", "contra_flor", "contra_flor_al_resto", "con_flor_me_achico",
  "envido", "real_envido", "falta_envido", "truco", "retruco", "vale_cuatro", "quiero", "no_quiero", "mazo"];
const ANSWERS = new Set(["quiero", "no_quiero", "retruco", "vale_cuatro", "envido", "real_envido",
  "falta_envido", "contra_flor", "contra_flor_al_resto", "con_flor_me_achico", "flor"]);
export const SENAS = ["ancho_espada", "ancho_basto", "siete_espada", "siete_oro", "tres", "dos",
  "ancho_falso", "tengo_envido", "nada"];
// The classic gestures, as a hint next to the words: eyebrows, wink, mouth to one side, ...
const SENA_ICON = { ancho_espada: "🤨", ancho_basto: "😉", siete_espada: "😏", siete_oro: "😬", tres: "😛",
  dos: "😗", ancho_falso: "😮", tengo_envido: "😊", nada: "😑" };

const seen = new Set(); // played cards already drawn, so only new ones animate
let seenPrimed = false;

export function seatName(model, seat) {
  const s = model.seats.find((x) => x.seat === seat);
  if (!s) return `#${seat + 1}`;
  return s.name || t("empty_seat");
}

export function teamLabel(model, team) {
  if (model.spectator) return t("team", { n: team + 1 });
  return team === teamOf(model.me) ? t("team_us") : t("team_them");
}

function cardEl(name, opts = {}) {
  const label = opts.label || cardName(name);
  const cls = `card ${opts.size || ""} ${opts.extra || ""}`.trim();
  if (opts.onclick) {
    return h("button", { class: cls, type: "button", "aria-label": label, onclick: opts.onclick, dataset: { card: name } },
      svg(cardFace(name)));
  }
  return h("div", { class: cls, role: "img", "aria-label": label, dataset: { card: name } }, svg(cardFace(name)));
}

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

/** The envido called so far and what it pays (``game.envido_stake``): "Envido, real envido: 5 / 2". */
export function envidoStake(game) {
  const stake = game?.envido_stake;
  // only while the envido is being answered (the chain stays in the view after it is settled)
  if (!stake || !game.envido_chain?.length || game.pending !== "envido") return null;
  const chain = game.envido_chain.map((c, i) => (i ? callName(c).toLowerCase() : callName(c))).join(", ");
  const querido = stake.querido === "falta" ? t("falta_word") : stake.querido;
  return t("envido_stake", { chain, querido, no_querido: stake.no_querido });
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

function callerOfPending(game) {
  if (!game?.pending) return null;
  for (let i = game.history.length - 1; i >= 0; i--) {
    if (game.history[i].do === game.pending_call) return game.history[i];
  }
  return null;
}

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

function senaToasts(model) {
  if (!model.senas?.length) return null;
  return h("div", { class: "sena-toasts", role: "log", "aria-live": "polite" },
    model.senas.slice(-2).map((s) => h("div", { class: "sena-toast" },
      h("span", { class: "sena-icon", "aria-hidden": "true" }, SENA_ICON[s.sena] || "👀"),
      t("sena_from", { name: seatName(model, s.from), sena: t(`sena_${s.sena}`) }))));
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

function senasButton(model, ui, rerender) {
  if (!model.settings.senas || model.settings.players < 4 || !model.game || model.game.hand_over
    || !model.commands.includes("sena")) return null;
  return h("button", { class: "btn ghost senas-btn", type: "button", "aria-expanded": ui.senasOpen ? "true" : "false",
    onclick: () => { ui.senasOpen = !ui.senasOpen; rerender(); } }, h("span", { "aria-hidden": "true" }, "🤫"), " ", t("senas_open"));
}

export function senasPanel(model, ui, send, rerender) {
  if (!ui.senasOpen) return null;
  return h("div", { class: "sheet senas-sheet", role: "dialog", "aria-label": t("senas_title") },
    h("div", { class: "sheet-head" },
      h("h2", null, t("senas_title")),
      h("button", { class: "btn icon", type: "button", "aria-label": t("senas_close"),
        onclick: () => { ui.senasOpen = false; rerender(); } }, "✕")),
    h("p", { class: "muted" }, t("senas_private")),
    h("div", { class: "senas-grid" }, SENAS.map((key) => h("button", {
      class: "btn sena", type: "button",
      onclick: () => { send({ type: "sena", sena: key }); ui.senasOpen = false; rerender(); },
    }, h("span", { "aria-hidden": "true" }, SENA_ICON[key]), " ", t(`sena_${key}`)))));
}

// ------------------------------------------------------------------ votes

export function votePanel(model, send) {
  const game = model.game;
  if (!game?.pending) return null;
  const caller = callerOfPending(game);
  const callText = `¡${callName(game.pending_call)}!`;
  const who = caller ? seatName(model, caller.seat) : "";
  const mine = teamOf(model.me);
  const vote = model.vote;
  const title = h("h2", { class: "vote-title" }, t("vote_title", { name: who, call: callText }));
  const stake = envidoStake(game);
  const stakeLine = stake ? h("p", { class: "vote-stake", dataset: { testid: "envido-stake" } }, stake) : null;
  if (game.answer_team !== mine || model.spectator) {
    // the callers see who must answer and the answer's clock, never whether the others agree
    return h("section", { class: "vote-panel waiting", role: "region", "aria-label": t("vote_answer") },
      title, stakeLine, h("p", null, t("vote_waiting", { team: teamLabel(model, game.answer_team) })),
      voteTimer(vote, false));
  }
  const timer = voteTimer(vote, true);
  const answers = model.legal.filter((a) => ANSWERS.has(a.do));
  answers.sort((a, b) => CALL_ORDER.indexOf(a.do) - CALL_ORDER.indexOf(b.do));
  const myVote = vote?.my_vote;
  const partners = model.seats.filter((s) => teamOf(s.seat) === mine && s.seat !== model.me && !s.bot);
  const hint = vote?.hint;
  // the panel covers the hand: show it here, small, with the tanto, to decide with the cards in view
  const hand = game.cards?.length ? h("div", { class: "vote-hand", "aria-label": t("your_cards") },
    game.cards.map((c) => cardEl(c, { size: "small" })),
    model.settings.mode !== "casual" ? h("span", { class: "muted" },
      game.my_flor ? t("your_flor") : t("your_tanto", { n: game.my_tanto })) : null) : null;
  return h("section", { class: "vote-panel", role: "region", "aria-label": t("vote_answer") },
    title,
    stakeLine,
    hand,
    h("p", { class: "vote-question" }, t("vote_answer")),
    partners.length ? h("ul", { class: "votes" }, partners.map((p) => {
      const v = vote?.votes?.[p.seat];
      // a "no quiero" the table cast for a partner who dropped (or whose clock ran out)
      const forced = v && vote?.forced?.[p.seat];
      return h("li", { class: `${v ? "voted" : ""} ${forced ? "forced" : ""}` }, h("span", null, p.name || ""),
        h("strong", null, v ? callName(v) : t("vote_none"),
          forced ? h("span", { class: "forced-note" }, ` (${t(p.connected === false ? "forced_disconnect" : "forced_clock")})`) : null));
    })) : null,
    hint ? h("p", { class: "bot-hint" }, "🤖 ", t("bot_hint", { name: seatName(model, hint.seat), answer: callName(hint.answer) })) : null,
    timer,
    h("div", { class: "vote-buttons" }, answers.map((a) => h("button", {
      class: `btn answer answer-${a.do} ${myVote === a.do ? "selected" : ""}`, type: "button",
      "aria-pressed": myVote === a.do ? "true" : "false",
      onclick: () => send(vote?.mine ? { type: "vote", answer: a.do } : { type: "act", do: a.do }),
    }, callName(a.do)))));
}

function voteTimer(vote, answering) {
  if (!vote) return null;
  if (answering && vote.window_until) {
    return h("p", { class: "vote-timer urgent", role: "timer" },
      h("span", { class: "countdown", dataset: { deadline: vote.window_until, fmt: "vote_countdown" } }, ""));
  }
  if (vote.deadline) {
    return h("p", { class: "vote-timer", role: "timer" },
      h("span", { class: "countdown", dataset: { deadline: vote.deadline, fmt: "vote_deadline" } }, ""));
  }
  return null;
}

// ------------------------------------------------------------------ casual mode

function casualPanel(model, send) {
  if (model.settings.mode !== "casual") return null;
  if (!model.is_host || model.spectator) {
    return h("p", { class: "casual-note" }, t("casual_badge"));
  }
  const mine = teamOf(model.me);
  const last = model.casual?.last_award;
  const canUndo = model.casual?.can_undo;
  return h("section", { class: "casual-panel", "aria-label": t("casual_badge") },
    [mine, 1 - mine].map((team) => h("div", { class: `casual-row team-${team === mine ? "us" : "them"}` },
      h("span", { class: "casual-team" }, teamLabel(model, team)),
      [1, 2, 3, 4].map((n) => h("button", {
        class: "btn plus", type: "button", "aria-label": t("casual_plus", { n, team: teamLabel(model, team) }),
        onclick: () => send({ type: "award", team, points: n }),
      }, `+${n}`)))),
    h("div", { class: "casual-tools" },
      h("button", { class: "btn ghost", type: "button", "aria-label": t("undo_label"),
        disabled: canUndo ? null : true,
        onclick: () => send({ type: "undo_award" }) }, `↶ ${t("undo")}`,
        last ? h("span", { class: "last-award" }, ` ${t("last_award_short", { n: last.points, team: teamLabel(model, last.team) })}`) : null),
      h("button", { class: "btn ghost", type: "button", "aria-label": t("end_hand_label"),
        disabled: model.game?.hand_over ? true : null,
        onclick: () => send({ type: "end_hand" }) }, t("end_hand"))),
  );
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
