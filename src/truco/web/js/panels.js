// The panels beside the table that take a command: the team's vote on a call, the casual host's
// points, and the señas (the button, the sheet, the toasts on the felt). Like the table, they draw a
// model and call ``send``; the buttons are the server's ``legal`` list.

import { h } from "./dom.js";
import { callName, t } from "./i18n.js";
import { teamOf } from "./seating.js";
import { ANSWERS, CALL_ORDER, cardEl, envidoStake, seatName, teamLabel } from "./parts.js";

const SENAS = ["ancho_espada", "ancho_basto", "siete_espada", "siete_oro", "tres", "dos",
  "ancho_falso", "tengo_envido", "nada"];
// The classic gestures, as a hint next to the words: eyebrows, wink, mouth to one side, ...
const SENA_ICON = { ancho_espada: "🤨", ancho_basto: "😉", siete_espada: "😏", siete_oro: "😬", tres: "😛",
  dos: "😗", ancho_falso: "😮", tengo_envido: "😊", nada: "😑" };

export function senaToasts(model) {
  if (!model.senas?.length) return null;
  return h("div", { class: "sena-toasts", role: "log", "aria-live": "polite" },
    model.senas.slice(-2).map((s) => h("div", { class: "sena-toast" },
      h("span", { class: "sena-icon", "aria-hidden": "true" }, SENA_ICON[s.sena] || "👀"),
      t("sena_from", { name: seatName(model, s.from), sena: t(`sena_${s.sena}`) }))));
}

export function senasButton(model, ui, rerender) {
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

/** The call being answered, as the history has it (its seat), or null. */
function callerOfPending(game) {
  if (!game?.pending) return null;
  for (let i = game.history.length - 1; i >= 0; i--) {
    if (game.history[i].do === game.pending_call) return game.history[i];
  }
  return null;
}

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

export function casualPanel(model, send) {
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
