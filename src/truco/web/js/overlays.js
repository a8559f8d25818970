// Hand summary, match end and cancelled: what the table shows between and after hands.

import { cardFace } from "./deck.js";
import { h, svg } from "./dom.js";
import { t } from "./i18n.js";
import { teamOf } from "./seating.js";
import { shownCards, sungTantos, teamLabel } from "./table.js";

const REASONS = ["envido", "flor", "truco", "mazo", "hand", "casual"];

function reasonKey(reason) {
  const r = String(reason || "").toLowerCase();
  for (const k of REASONS) if (r.includes(k)) return k;
  if (r.includes("falta") || r.includes("tanto")) return "envido";
  if (r.includes("vale") || r.includes("retruco")) return "truco";
  return "hand";
}

/** ``model.summary`` = {hand_no, awards: [{team, points, reason}], score: [a, b]}. */
export function handSummary(model, send) {
  const s = model.summary;
  if (!s) return null;
  const mine = teamOf(model.me);
  const rows = [];
  for (const team of [mine, 1 - mine]) {
    const byReason = new Map();
    for (const a of s.awards.filter((x) => x.team === team)) {
      const k = reasonKey(a.reason);
      byReason.set(k, (byReason.get(k) || 0) + a.points);
    }
    for (const [k, pts] of byReason) {
      rows.push(h("tr", { class: team === mine ? "us" : "them" },
        h("th", { scope: "row" }, teamLabel(model, team)), h("td", null, t(`reason_${k}`)),
        h("td", { class: "pts" }, `+${pts}`)));
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
  if (c.reason === "disconnect" || c.reason === "disconnected" || c.reason === "timeout") {
    const seated = c.seat !== undefined && c.seat !== null ? model.seats.find((x) => x.seat === c.seat)?.name : null;
    why = t("cancelled_disconnect", { name: c.name || seated || t("someone") });
  } else if (c.reason === "host") why = t("cancelled_host");
  return h("main", { class: "screen end-screen cancelled", dataset: { screen: "cancelled" } },
    h("div", { class: "end-emblem stop", "aria-hidden": "true" }, "✋"),
    h("h1", null, t("cancelled_title")),
    h("p", { class: "why" }, why),
    h("button", { class: "btn primary wide", type: "button", onclick: () => send({ type: "back_to_sala" }) }, t("back_to_sala")));
}
