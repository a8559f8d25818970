// Hand summary, match end and cancelled: what the table shows between and after hands.

import { cardFace } from "./deck.js";
import { h, svg } from "./dom.js";
import { cardName, t } from "./i18n.js";
import { teamOf } from "./seating.js";
import { seatName, teamLabel } from "./parts.js";
import { fairMark, handWinnerText, shownCards, sungTantos } from "./table.js";

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

/** The names of ``seats``, joined: "Beto", "Beto y Dani". */
function names(model, seats) {
  const list = seats.map((x) => seatName(model, x));
  return list.length > 1 ? `${list.slice(0, -1).join(", ")} ${t("and")} ${list.at(-1)}` : list.join("");
}

/** Each trick of the hand: who played what, in order, and who took it (or parda). A pica-pica lists
 * its duels, each with its tricks and the team that took it. */
function tricks(model, s) {
  if (s.pica && s.duels?.length) {
    return h("div", { class: "tricks duels", "aria-label": t("tricks_title") }, s.duels.map((d, i) => {
      const a = seatName(model, d.mano), b = seatName(model, d.rival);
      const title = d.winner === 0 || d.winner === 1
        ? t("pica_duel_won", { n: i + 1, a, b, team: teamLabel(model, d.winner) }) : t("pica_duel_cut", { n: i + 1, a, b });
      return h("div", { class: "duel", dataset: { testid: "summary-duel" } }, trickList(model, d.rounds, d.results, title));
    }));
  }
  if (!s.rounds?.length) return null;
  return h("div", { class: "tricks", "aria-label": t("tricks_title") }, trickList(model, s.rounds, s.results, t("tricks_title")));
}

function trickList(model, roundsPlayed, results, title) {
  return [
    h("div", { class: "sung-title" }, title),
    h("ol", null, roundsPlayed.filter((round) => round.length).map((round, r) => {
      const res = results[r];
      // the server says which team took the trick (``results``); mano a mano that names the player
      const takers = round.filter((p) => teamOf(p.seat) === res).map((p) => p.seat);
      const who = res === -1 ? t("trick_parda")
        : res === 0 || res === 1 ? (takers.length === 1 ? t("trick_won_by", { name: seatName(model, takers[0]) })
          : t("trick_won_team", { team: teamLabel(model, res) }))
          : "";
      return h("li", { class: `trick ${res === teamOf(model.me) ? "us" : res === -1 || res === undefined ? "" : "them"}` },
        h("span", { class: "trick-n" }, t("round_n", { n: r + 1 })),
        h("span", { class: "trick-cards" }, round.map((p) => h("span", { class: "trick-play", title: `${seatName(model, p.seat)}: ${cardName(p.card)}` },
          h("span", { class: "card small", role: "img", "aria-label": `${seatName(model, p.seat)}: ${cardName(p.card)}` }, svg(cardFace(p.card))),
          h("span", { class: "trick-who" }, seatName(model, p.seat))))),
        h("span", { class: "trick-result" }, who));
    }))];
}

/**
 * ``model.summary`` = {hand_no, winner, points: [{team, points, reason}], score: [a, b], rounds, results,
 * mazo, sung, shown, casual, final}: the server's ``last_hand``.
 */
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
      // the mazo line names who went (last_hand.mazo), the others are worded by their code
      const words = reason === "mazo" && s.mazo.length
        ? t(s.mazo.length > 1 ? "went_to_mazo_many" : "went_to_mazo", { names: names(model, s.mazo) })
        : t(REASON_KEYS[reason] || "reason_other");
      rows.push(h("tr", { class: team === mine ? "us" : "them", dataset: { reason } },
        h("th", { scope: "row" }, teamLabel(model, team)), h("td", null, words),
        h("td", { class: "pts" }, pts > 0 ? `+${pts}` : `${pts}`)));
    }
  }
  const score = s.score || [0, 0];
  // who took the hand; in casual mode the host scores it by hand ("anotá")
  const won = s.winner === 0 || s.winner === 1;
  const winner = won ? (s.casual && model.is_host
    ? t("hand_won_by_score", { team: teamLabel(model, s.winner) }) : handWinnerText(model, s.winner)) : null;
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-label": t("hand_summary", { n: s.hand_no }), dataset: { screen: "summary" } },
    h("div", { class: "card-sheet" },
      h("h2", null, t("hand_summary", { n: s.hand_no })),
      winner ? h("p", { class: `hand-winner ${s.winner === mine ? "us" : "them"}`, dataset: { testid: "hand-winner" } }, winner)
        : s.ended_early ? h("p", { class: "hand-winner" }, t("hand_ended_early")) : null,
      rows.length ? h("table", { class: "summary-table" }, h("tbody", null, rows))
        : s.casual ? null : h("p", null, t("no_points")),
      h("p", { class: "summary-score" },
        h("span", { class: "us" }, `${teamLabel(model, mine)} ${score[mine]}`), " · ",
        h("span", { class: "them" }, `${teamLabel(model, 1 - mine)} ${score[1 - mine]}`)),
      tricks(model, s),
      sungTantos(model, s.sung), shownCards(model, s.shown),
      h("button", { class: "btn primary wide", type: "button", "data-testid": "summary-close",
        onclick: () => send({ type: "dismiss_summary" }) }, s.final ? t("see_result") : t("next_hand"))));
}

/** The details of the last deal's check: each step, ✓ or ✗, the fingerprint, seed and contributions. */
export function fairnessSheet(model, send) {
  const fair = model.fair;
  if (!fair) return null;
  const short = (hex) => `${hex.slice(0, 16)}…`;
  const rows = fair.result.checks.map((c) => {
    const late = c.key === "fair_mine_in" && c.late;
    return h("li", { class: `fair-check ${c.ok ? "ok" : late ? "late" : "bad"}`, dataset: { check: c.key } },
      h("span", { "aria-hidden": "true" }, c.ok ? "✓" : late ? "–" : "✗"), " ", t(late ? "fair_mine_late" : c.key));
  });
  const contributions = fair.contributions.map((c, seat) => h("li", null,
    `${seatName(model, seat)}: `, h("span", { class: c ? "mono" : "muted" }, c ? `${t("fair_gave")} ${c.slice(0, 8)}…` : t("fair_absent"))));
  return h("div", { class: "overlay", role: "dialog", "aria-modal": "true", "aria-label": t("fair_title", { n: fair.hand_no }), dataset: { screen: "fairness" } },
    h("div", { class: "card-sheet fair-sheet" },
      h("h2", null, `${fair.result.ok ? "✓" : "⚠"} ${t("fair_title", { n: fair.hand_no })}`),
      h("p", { class: "muted" }, t("fair_intro")),
      h("ul", { class: "fair-checks" }, rows),
      h("p", { class: "fair-hex" }, `${t("fair_commitment")}: `, h("span", { class: "mono" }, short(fair.commitment))),
      h("p", { class: "fair-hex" }, `${t("fair_seed_word")}: `, h("span", { class: "mono" }, short(fair.seed))),
      h("div", { class: "sung-title" }, t("fair_contributions")),
      h("ul", { class: "fair-contributions" }, contributions),
      h("button", { class: "btn primary wide", type: "button", "data-testid": "fair-close",
        onclick: () => send({ type: "fairness", open: false }) }, t("close"))));
}

/** The link to watch a match again, given to the players at its end. */
export function replayLink(model) {
  const n = model.match_no;
  if (!n || !model.code) return null;
  return h("a", { class: "btn wide replay-link", href: `/r/${model.code}/${n}`, "data-testid": "replay-link" }, t("replay_link"));
}

export function matchEnd(model, send) {
  const result = model.result || {};
  const mine = teamOf(model.me);
  const score = model.score || result.score || [0, 0];
  const won = result.winner === mine;
  // mano a mano it is you, not "you all"
  const solo = (model.settings.players || model.seats.length) === 2;
  const title = won ? t(solo ? "match_won_1" : "match_won") : t(solo ? "match_lost_1" : "match_lost");
  return h("main", { class: `screen end-screen ${won ? "won" : "lost"}`, dataset: { screen: "match_end" } },
    // the best card of the deck for a win, the humblest for a loss
    h("div", { class: "end-emblem card", "aria-hidden": "true" }, svg(cardFace(won ? "1e" : "4c"))),
    h("h1", null, model.spectator ? t("team_won", { n: result.winner + 1 }) : title),
    h("p", { class: "end-score" },
      h("span", { class: "us" }, `${teamLabel(model, mine)} ${score[mine]}`), " – ",
      h("span", { class: "them" }, `${score[1 - mine]} ${teamLabel(model, 1 - mine)}`)),
    h("p", { class: "muted" }, model.seats.filter((s) => teamOf(s.seat) === mine).map((s) => s.name).join(" · ")),
    fairMark(model, send),
    h("div", { class: "stack" },
      model.commands.includes("rematch")
        ? h("button", { class: "btn primary wide", type: "button", onclick: () => send({ type: "rematch" }) }, t("rematch"))
        : model.spectator ? null : h("p", { class: "muted" }, t("rematch_wait")),
      replayLink(model),
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
    c.reason === "disconnected" && !model.spectator
      ? h("button", { class: "btn primary wide", type: "button", onclick: () => send({ type: "stay_after_cancel" }) }, t("stay_here"))
      : null,
    replayLink(model),
    h("button", { class: `btn wide ${c.reason === "disconnected" && !model.spectator ? "" : "primary"}`, type: "button",
      onclick: () => send({ type: "back_to_sala" }) }, t("back_to_sala")));
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
