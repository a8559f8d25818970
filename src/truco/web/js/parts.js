// Small pieces the table's screens share: who a seat is, what a team is called, a card drawn, the
// order calls are listed in, and what the envido being answered stakes. No state, no commands.

import { h, svg } from "./dom.js";
import { cardFace } from "./deck.js";
import { callName, cardName, t } from "./i18n.js";
import { teamOf } from "./seating.js";

export const CALL_ORDER = ["flor", "contra_flor", "contra_flor_al_resto", "con_flor_me_achico",
  "envido", "real_envido", "falta_envido", "truco", "retruco", "vale_cuatro", "quiero", "no_quiero", "mazo"];
export const ANSWERS = new Set(["quiero", "no_quiero", "retruco", "vale_cuatro", "envido", "real_envido",
  "falta_envido", "contra_flor", "contra_flor_al_resto", "con_flor_me_achico", "flor"]);

export function seatName(model, seat) {
  const s = model.seats.find((x) => x.seat === seat);
  if (!s) return `#${seat + 1}`;
  return s.name || t("empty_seat");
}

export function teamLabel(model, team) {
  if (model.spectator) return t("team", { n: team + 1 });
  return team === teamOf(model.me) ? t("team_us") : t("team_them");
}

export function cardEl(name, opts = {}) {
  const label = opts.label || cardName(name);
  const cls = `card ${opts.size || ""} ${opts.extra || ""}`.trim();
  if (opts.onclick) {
    return h("button", { class: cls, type: "button", "aria-label": label, onclick: opts.onclick, dataset: { card: name } },
      svg(cardFace(name)));
  }
  return h("div", { class: cls, role: "img", "aria-label": label, dataset: { card: name } }, svg(cardFace(name)));
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
