// The replay page (/r/<code>/<match>) and a table's statistics (/r/<code>). Everything comes from the
// server's replay, built from the table's log for this viewer: a spectator's, or, when this browser
// holds a seat token of the table, the player's (the token goes in a POST body, never in the URL).

import { cardFace } from "./deck.js";
import { clear, h, svg } from "./dom.js";
import { verifyReveal } from "./fairness.js";
import { callName, cardName, getLang, setLang, t } from "./i18n.js";
import { REASON_KEYS } from "./overlays.js";

const root = document.getElementById("app");
const state = { replay: null, hand: 0, step: 0, code: null, match: null, stats: null, error: null };

function savedToken(code) {
  try { return JSON.parse(localStorage.getItem(`truco.seat.${code}`) || "null")?.token || null; } catch (_) { return null; }
}

async function load() {
  const m = /^\/r\/([A-Za-z0-9]+)(?:\/(\d+))?\/?$/.exec(location.pathname);
  if (!m) { state.error = t("replay_missing"); return; }
  state.code = m[1].toUpperCase();
  state.match = m[2] ? Number(m[2]) : null;
  if (state.match === null) {
    const r = await fetch(`/api/replays/${state.code}/stats`);
    state.stats = r.ok ? await r.json() : null;
    if (!r.ok) state.error = t("stats_none");
    return;
  }
  const token = savedToken(state.code);
  const url = `/api/replays/${state.code}/${state.match}`;
  const r = token
    ? await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ token }) })
    : await fetch(url);
  if (!r.ok) { state.error = t("replay_missing"); return; }
  state.replay = await r.json();
  state.hand = 0;
  state.step = 0;
}

// ------------------------------------------------------------------ words

function seatName(seat) {
  const s = state.replay.seats[seat];
  if (!s) return `#${seat + 1}`;
  return s.name || `bot ${seat + 1}`;
}

function teamName(team) {
  const r = state.replay;
  if (r.viewer_seat !== null && r.viewer_seat !== undefined) return team === r.viewer_seat % 2 ? t("team_us") : t("team_them");
  return t("team", { n: team + 1 });
}

function eventText(e) {
  switch (e.type) {
    case "card_played": return t("ev_played", { name: seatName(e.seat), card: cardName(e.card) });
    case "called": return t("ev_called", { name: seatName(e.seat), call: callName(e.call) });
    case "answered": return t("ev_called", { name: seatName(e.seat), call: callName(e.answer) });
    case "went_to_mazo": return t("ev_mazo", { name: seatName(e.seat) });
    case "tanto_sung": return t(e.flor ? "ev_flor" : "ev_tanto", { name: seatName(e.seat), tanto: e.tanto });
    case "son_buenas": return t("ev_son_buenas", { name: seatName(e.seat) });
    case "round_ended": return t("ev_round", { n: e.round + 1, who: e.team === -1 ? t("trick_parda") : seatName(e.seat) });
    case "points_awarded": return t("ev_points", { points: e.points, team: teamName(e.team), why: t(REASON_KEYS[e.reason] || "reason_other") });
    case "cards_shown": return t("ev_shown", { name: seatName(e.seat), cards: e.cards.map(cardName).join(", ") });
    case "hand_ended": return t("ev_hand_ended", { team: teamName(e.winner) });
    case "vote_opened": return t("ev_vote_opened", { team: teamName(e.team) });
    case "vote_cast": return t("ev_vote_cast", { name: seatName(e.seat), vote: callName(e.vote) });
    case "vote_split": return t("ev_vote_split", { team: teamName(e.team) });
    case "vote_decided": return t("ev_vote_decided", { team: teamName(e.team), answer: callName(e.answer) });
    case "vote_expired": return t("ev_vote_expired");
    case "sena": return t("ev_sena", { name: seatName(e.seat), sena: t(`sena_${e.sena}`) });
    case "turn_expired": return t("ev_turn_expired", { name: seatName(e.seat) });
    case "deal_revealed": return t("ev_revealed", { seed: e.seed.slice(0, 8) });
    case "match_over": return t("ev_match_over");
    case "match_cancelled": return t("ev_cancelled");
    case "duel_started": return t("ev_duel_started", { n: e.duel + 1, a: seatName(e.mano), b: seatName(e.rival) });
    case "duel_ended": return t("ev_duel_ended", { n: e.duel + 1, team: teamName(e.team) });
    case "hand_started": return null;
    default: return null;
  }
}

// ------------------------------------------------------------------ the replay

function card(name, label) {
  return h("span", { class: "card small", role: "img", "aria-label": label || cardName(name), dataset: { card: name } }, svg(cardFace(name)));
}

function langButton() {
  return h("button", { class: "btn ghost small lang", type: "button", "aria-label": t("lang_toggle_label"),
    onclick: () => { setLang(getLang() === "es" ? "en" : "es"); draw(); } }, getLang() === "es" ? "EN" : "ES");
}

function go(hand, step) {
  const hands = state.replay.hands;
  state.hand = Math.max(0, Math.min(hands.length - 1, hand));
  const steps = hands[state.hand].steps.length;
  state.step = step === "last" ? steps - 1 : Math.max(0, Math.min(steps - 1, step));
  draw();
}

function next() {
  const hand = state.replay.hands[state.hand];
  if (state.step < hand.steps.length - 1) go(state.hand, state.step + 1);
  else if (state.hand < state.replay.hands.length - 1) go(state.hand + 1, 0);
}
function prev() {
  if (state.step > 0) go(state.hand, state.step - 1);
  else if (state.hand > 0) go(state.hand - 1, "last");
}

function felt(hand, step) {
  const f = step.felt;
  const r = state.replay;
  const score = f.score || [0, 0];
  const lastStep = state.step === hand.steps.length - 1 && hand.end;
  const trickItems = (played, results) => played.filter((round) => round.length).map((round, i) => h("li", { class: "replay-trick" },
    h("span", { class: "trick-n" }, t("round_n", { n: i + 1 })),
    h("span", { class: "trick-cards" }, round.map((p) => h("span", { class: "trick-play" },
      card(p.card, `${seatName(p.seat)}: ${cardName(p.card)}`), h("span", { class: "trick-who" }, seatName(p.seat))))),
    h("span", { class: "trick-result" }, results?.[i] === undefined ? "" : results[i] === -1 ? t("trick_parda") : teamName(results[i]))));
  // a pica-pica: each duel already played, headed by who played it, then the duel on now
  const duelHead = (i, mano) => h("li", { class: "replay-duel sung-title" },
    t("pica_duel_cut", { n: i + 1, a: seatName(mano), b: seatName((mano + 3) % 6) }));
  const duels = f.duels || [];
  const rounds = [];
  duels.forEach((d, i) => rounds.push(duelHead(i, d.mano), ...trickItems(d.rounds, d.results)));
  if (!f.pica || duels.length <= f.duel) {
    if (f.pica) rounds.push(duelHead(f.duel, f.mano));
    rounds.push(...trickItems(f.rounds || [], f.results));
  }
  const mine = hand.mine ? h("div", { class: "replay-mine" }, h("div", { class: "sung-title" }, t("replay_your_cards")),
    h("div", { class: "replay-cards" }, hand.mine.map((c) => card(c)))) : null;
  let all = null;
  if (lastStep && hand.dealt) {
    const check = hand.fairness ? verifyReveal(hand.fairness, {}, []) : null;
    all = h("div", { class: "replay-all", dataset: { testid: "replay-all" } },
      h("div", { class: "sung-title" }, t("replay_all_cards")),
      hand.dealt.map((cards, seat) => h("div", { class: "replay-seat-cards" },
        h("span", { class: "trick-who" }, seatName(seat)), h("span", { class: "replay-cards" }, cards.map((c) => card(c))))),
      check ? h("p", { class: `fair-line ${check.ok ? "ok" : "bad"}`, dataset: { testid: "replay-fair" } },
        `${check.ok ? "✓" : "⚠"} ${t(check.ok ? "fair_ok" : "fair_bad")}`) : null);
  }
  return h("section", { class: "replay-felt" },
    h("p", { class: "replay-score" },
      h("span", { class: "us" }, `${teamName(0)} ${score[0]}`), " · ", h("span", { class: "them" }, `${teamName(1)} ${score[1]}`)),
    rounds.length ? h("ol", { class: "replay-tricks" }, rounds) : h("p", { class: "muted" },
      t("replay_deal", { name: seatName(hand.dealer), mano: seatName(hand.mano) })),
    mine, all);
  // the felt keeps a fixed order: score, tricks, my cards, everyone's cards once revealed
}

function replayScreen() {
  const r = state.replay;
  const hand = r.hands[state.hand];
  const step = hand.steps[state.step];
  const log = hand.steps.slice(0, state.step + 1).flatMap((s, i) => s.events.map((e) => [eventText(e), i === state.step]))
    .filter(([text]) => text);
  const result = r.result;
  const summary = r.cancelled ? t("replay_cancelled")
    : result ? t("replay_result", { team: teamName(result.winner), a: result.score[result.winner], b: result.score[1 - result.winner] }) : "";
  return h("main", { class: "screen replay-screen", dataset: { screen: "replay" } },
    h("header", { class: "replay-head" },
      h("h1", null, t("replay_title", { code: r.table_id, n: r.match_no })), langButton()),
    h("p", { class: "muted" }, summary, " · ", t(r.viewer_seat === null ? "replay_as_spectator" : "replay_as_player")),
    h("nav", { class: "replay-nav", "aria-label": t("replay_hand", { n: state.hand + 1, total: r.hands.length }) },
      h("button", { class: "btn ghost small", type: "button", "aria-label": t("replay_prev_hand"), disabled: state.hand === 0,
        onclick: () => go(state.hand - 1, 0) }, "«"),
      h("span", { class: "replay-where", dataset: { testid: "replay-hand" } }, t("replay_hand", { n: state.hand + 1, total: r.hands.length })),
      h("button", { class: "btn ghost small", type: "button", "aria-label": t("replay_next_hand"), disabled: state.hand === r.hands.length - 1,
        onclick: () => go(state.hand + 1, 0) }, "»")),
    felt(hand, step),
    h("nav", { class: "replay-steps" },
      h("button", { class: "btn small", type: "button", "aria-label": t("replay_prev"), onclick: prev,
        disabled: state.hand === 0 && state.step === 0 }, "◀"),
      h("span", { class: "replay-where", dataset: { testid: "replay-step" } }, t("replay_step", { n: state.step + 1, total: hand.steps.length })),
      h("button", { class: "btn primary small", type: "button", "aria-label": t("replay_next"), "data-testid": "replay-next", onclick: next,
        disabled: state.hand === r.hands.length - 1 && state.step === hand.steps.length - 1 }, "▶")),
    h("ol", { class: "replay-log", "aria-live": "polite", dataset: { testid: "replay-log" } }, log.map(([text, now]) => h("li", { class: now ? "now" : "" }, text))),
    h("div", { class: "stack replay-links" },
      r.settings?.mode === "casual" ? null
        : h("a", { class: "btn wide replay-link", href: `/api/replays/${r.table_id}/${r.match_no}/record.json`, download: "" }, t("replay_download")),
      h("a", { class: "btn ghost wide replay-link", href: `/r/${r.table_id}` }, t("replay_stats"))));
}

// ------------------------------------------------------------------ statistics: a chart, not a table

/** Bars for two teams per group: ``groups`` = [[label key, [team 0, team 1]], ...]. */
function chart(groups, testid) {
  const max = Math.max(1, ...groups.flatMap(([, v]) => v));
  const W = 340, H = 220, top = 24, base = 180, gw = W / 3;
  const left = (W - gw * groups.length) / 2; // one group stands in the middle
  const bars = groups.map(([key, v], i) => {
    const x0 = left + i * gw + gw * 0.14;
    const bw = gw * 0.34;
    const bar = (team) => {
      const hgt = Math.round(((base - top) * v[team]) / max);
      const x = x0 + team * (bw + 2);
      return `<rect x="${x.toFixed(1)}" y="${base - hgt}" width="${bw.toFixed(1)}" height="${hgt}" rx="3" class="bar team-${team}"/>` +
        `<text x="${(x + bw / 2).toFixed(1)}" y="${base - hgt - 5}" text-anchor="middle" class="bar-n">${v[team]}</text>`;
    };
    return bar(0) + bar(1) + `<text x="${(left + i * gw + gw / 2).toFixed(1)}" y="${base + 20}" text-anchor="middle" class="bar-label">${t(key)}</text>`;
  }).join("");
  const markup = `<svg viewBox="0 0 ${W} ${H}" role="img" xmlns="http://www.w3.org/2000/svg" class="stats-chart" data-testid="${testid}">` +
    `<line x1="0" y1="${base}" x2="${W}" y2="${base}" class="axis"/>${bars}</svg>`;
  const el = svg(markup);
  el.setAttribute("aria-label", groups.map(([key, v]) => `${t(key)}: ${t("team", { n: 1 })} ${v[0]}, ${t("team", { n: 2 })} ${v[1]}`).join("; "));
  return el;
}

function statsScreen() {
  const s = state.stats;
  // each team with the names of its last match, so the colours mean people
  const last = s?.matches?.at(-1)?.seats || [];
  const who = (team) => last.map((x, i) => [x, i]).filter(([, i]) => i % 2 === team).map(([x, i]) => x.name || `bot ${i + 1}`).join(", ");
  // one line a team: a swatch never ends a line with its team's name on the next
  const legend = h("p", { class: "stats-legend" }, [0, 1].map((team) => h("span", null,
    h("span", { class: "swatch team-" + team }), ` ${t("team", { n: team + 1 })} (${who(team)})`)));
  const matches = (s?.matches || []).map((m) => {
    const names = (m.seats || []).map((x, i) => x.name || `bot ${i + 1}`).join(" · ");
    return h("li", null, h("a", { class: "btn ghost wide replay-link", href: `/r/${s.code}/${m.match_no}` },
      `${t("stats_match", { n: m.match_no })}${m.result?.cancelled ? ` · ${t("replay_cancelled")}` : ""}`),
    h("span", { class: "muted" }, names));
  });
  return h("main", { class: "screen replay-screen", dataset: { screen: "stats" } },
    h("header", { class: "replay-head" }, h("h1", null, t("stats_title", { code: state.code })), langButton()),
    !s || !s.matches.length ? h("p", { class: "muted" }, t("stats_none")) : [
      legend,
      h("h2", null, t("stats_points")),
      chart([["kind_envido", s.points.envido], ["kind_truco", s.points.truco], ["kind_flor", s.points.flor]], "chart-points"),
      h("h2", null, t("stats_hands")), chart([["stats_hands", s.hands_won]], "chart-hands"),
      h("h2", null, t("stats_matches")), h("ul", { class: "stats-matches" }, matches)]);
}

function draw() {
  clear(root);
  document.documentElement.lang = getLang();
  if (state.error && !state.stats) {
    root.appendChild(h("main", { class: "screen end-screen", dataset: { screen: "replay_missing" } },
      h("h1", null, t("replay_missing")), h("a", { class: "btn primary wide replay-link", href: "/" }, t("back_to_sala"))));
    root.dataset.screen = "replay_missing";
    return;
  }
  const screen = state.stats !== null || state.match === null ? statsScreen() : replayScreen();
  root.appendChild(screen);
  root.dataset.screen = screen.dataset.screen;
  const log = root.querySelector(".replay-log");
  if (log) log.scrollTop = log.scrollHeight; // the step just taken is the last line
}

document.addEventListener("keydown", (e) => {
  if (!state.replay) return;
  if (e.key === "ArrowRight") next();
  else if (e.key === "ArrowLeft") prev();
});

root.appendChild(h("p", { class: "muted center" }, t("replay_loading")));
load().catch(() => { state.error = t("replay_missing"); }).finally(draw);
