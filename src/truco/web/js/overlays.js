// Hand summary, match end and cancelled: what the table shows between and after hands.

import { cardFace } from "./deck.js";
import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { teamOf } from "./seating.js";
import { shownCards, sungTantos, teamLabel } from "./table.js";

/**
 * Why points were paid: the engine's reason code (``PointsAwarded.reason``) → the words to show.
 * One entry per code; ``casual`` is the host's award (casual mode). Nothing else is matched.
 */
export const REASON_KEYS = {
  truco: "reason_truco",
  truco_no_querido: "reason_truco_no_querido",
  envido: "reason_envido",
  envido_no_querido: "reason_envido_no_querido",
  flor: "reason_flor",
  contra_flor: "reason_contra_flor",
  contra_flor_al_resto: "reason_contra_flor_al_resto",
  contra_flor_no_querido: "reason_contra_flor_no_querido",
  con_flor_me_achico: "reason_con_flor_me_achico",
  mazo: "reason_mazo",
  casual: "reason_casual",
};

/** ``model.summary`` = {hand_no, points: [{team, points, reason}], score: [a, b], sung, shown}. */
export function handSummary(model, send) {
  const s = model.summary;
  if (!s) return null;
  const mine = teamOf(model.me);
  const rows = [];
  for (const team of [mine, 1 - mine]) {
    const byReason = new Map(); // the same reason twice in a hand is one line
    for (const p of s.points.filter((x) => x.team === team)) {
      byReason.set(p.reason, (byReason.get(p.reason) || 0) + p.points);
    }
    for (const [reason, pts] of byReason) {
      rows.push(h("tr", { class: team === mine ? "us" : "them", dataset: { reason } },
        h("th", { scope: "row" }, teamLabel(model, team)), h("td", null, t(REASON_KEYS[reason] || "reason_other")),
        h("td", { class: "pts" }, pts > 0 ? `+${pts}` : `${pts}`)));
    }
  }
  const score = s.score || [0, 0];
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-label": t("hand_summary", { n: s.hand_no }), dataset: { screen: "summary" } },
    h("div", { class: "card-sheet" },
      h("h2", null, t("hand_summary", { n: s.hand_no })),
      rows.length ? h("table", { class: "summary-table" }, h("tbody", null, rows)) : h("p", null, t("no_points")),
      h("p", { class: "summary-score" },
        h("span", { class: "us" }, `${teamLabel(model, mine)} ${score[mine]}`), " · ",
        h("span", { class: "them" }, `${teamLabel(model, 1 - mine)} ${score[1 - mine]}`)),
      sungTantos(model, s.sung), shownCards(model, s.shown),
      h("button", { class: "btn primary wide", type: "button", "data-testid": "summary-close",
        onclick: () => send({ type: "dismiss_summary" }) }, t("next_hand"))));
}

export function matchEnd(model, send) {
  const result = model.result || {};
  const mine = teamOf(model.me);
  const score = model.score || result.score || [0, 0];
  const won = result.winner === mine;
  return h("main", { class: `screen end-screen ${won ? "won" : "lost"}`, dataset: { screen: "match_end" } },
    // the best card of the deck for a win, the humblest for a loss
    h("div", { class: "end-emblem card", "aria-hidden": "true" }, svg(cardFace(won ? "1e" : "4c"))),
    h("h1", null, model.spectator ? t("team_won", { n: result.winner + 1 }) : won ? t("match_won") : t("match_lost")),
    h("p", { class: "end-score" },
      h("span", { class: "us" }, `${teamLabel(model, mine)} ${score[mine]}`), " – ",
      h("span", { class: "them" }, `${score[1 - mine]} ${teamLabel(model, 1 - mine)}`)),
    h("p", { class: "muted" }, model.seats.filter((s) => teamOf(s.seat) === mine).map((s) => s.name).join(" · ")),
    h("div", { class: "stack" },
      model.commands.includes("rematch")
        ? h("button", { class: "btn primary wide", type: "button", onclick: () => send({ type: "rematch" }) }, t("rematch"))
        : model.spectator ? null : h("p", { class: "muted" }, t("rematch_wait")),
      h("button", { class: "btn wide", type: "button", onclick: () => send({ type: "back_to_sala" }) }, t("back_to_sala"))));
}

export function cancelledScreen(model, send) {
  const c = model.cancel || {};
  let why = t("cancelled_other");
  if (c.reason === "disconnected") {
    // the server names who did not come back (their seat is already free in this view)
    const seated = c.seat !== null && c.seat !== undefined ? model.seats.find((x) => x.seat === c.seat)?.name : null;
    why = t("cancelled_disconnect", { name: c.name || seated || t("someone") });
  } else if (c.reason === "abandoned") why = t("cancelled_abandoned");
  else if (c.reason === "host") why = t("cancelled_host");
  return h("main", { class: "screen end-screen cancelled", dataset: { screen: "cancelled" } },
    h("div", { class: "end-emblem stop", "aria-hidden": "true" }, "✋"),
    h("h1", null, t("cancelled_title")),
    h("p", { class: "why" }, why),
    h("button", { class: "btn primary wide", type: "button", onclick: () => send({ type: "back_to_sala" }) }, t("back_to_sala")));
}

/** This seat was opened in another tab or phone (close code 4002): this page stops, without a fight. */
export function replacedScreen(model, send) {
  return h("main", { class: "screen end-screen replaced", dataset: { screen: "replaced" } },
    h("div", { class: "end-emblem stop", "aria-hidden": "true" }, "📱"),
    h("h1", null, t("replaced_title")),
    h("p", { class: "why", role: "alert" }, t("replaced")),
    h("button", { class: "btn primary wide", type: "button", onclick: () => send({ type: "take_seat_here" }) },
      t("take_seat_here")),
    h("button", { class: "btn wide", type: "button", onclick: () => send({ type: "leave_page" }) }, t("back_to_sala")));
}
