// Turns the server's per-player table view (TableView.to_dict(), see docs/runtime-api.md) into the
// model the screens draw. Pure data in, data out: no rules are decided here.

const PHASE_STATUS = { lobby: "waiting", playing: "playing", over: "finished", closed: "cancelled" };

/**
 * ``tv``: the table view from the server. ``extra``: what the client adds (code, link, QR, which
 * hand summary is on show, connection state, señas toasts, a notice).
 */
export function toModel(tv, extra = {}) {
  const settings = tv.settings || {};
  const hostSeat = (tv.seats || []).find((s) => s.player === tv.host)?.seat ?? -1;
  const seats = (tv.seats || []).map((s) => ({
    seat: s.seat,
    team: s.team,
    name: s.kind === "empty" ? null : s.kind === "bot" ? botName(s) : s.name,
    bot: s.kind === "bot" ? (s.level || "random") : null,
    player: s.player,
    connected: s.kind === "bot" ? true : s.kind === "empty" ? null : !!s.connected,
    away_until: s.held_until_ms ?? null,
  }));
  const casual = settings.mode === "casual" && tv.casual
    ? { score: tv.casual.score, last_award: tv.casual.awards?.at(-1) || null,
      can_undo: (tv.commands || []).includes("undo_award") }
    : null;
  let status = PHASE_STATUS[tv.phase] || "waiting";
  let cancel = null;
  const result = tv.result || null;
  // the cancelled screen comes from the server's result alone (a newcomer is never sent the last
  // match's); "Quedarme en la mesa" hides the one already read (extra.cancelSeen), nothing shows one
  if (result?.cancelled && tv.phase === "lobby" && extra.cancelSeen !== cancelKey(tv)) {
    // back in the lobby after a cancelled match: the server says why, and who did not come back
    status = "cancelled";
    cancel = { reason: result.reason, seat: result.seat ?? null, name: result.name ?? null };
  }
  if (tv.phase === "closed") cancel = { reason: result?.reason === "abandoned" ? "abandoned" : "host" };
  const vote = tv.vote ? {
    team: tv.vote.team,
    call: tv.vote.call,
    mine: tv.vote.mine,
    options: tv.vote.options || [],
    votes: Object.fromEntries((tv.vote.votes || []).map((v) => [v.seat, v.vote])),
    forced: Object.fromEntries((tv.vote.votes || []).map((v) => [v.seat, !!v.forced])),
    my_vote: tv.vote.my_vote,
    hint: tv.vote.hint ? { seat: tv.vote.hint.seat, answer: tv.vote.hint.vote } : null,
    window_until: tv.vote.window_ends_ms ?? null,
    deadline: tv.vote.answer_ends_ms ?? null,
  } : null;
  // no seat while a match is on (a late arrival, a seat given away): drawn as a spectator, never as a
  // player without cards
  const spectator = !tv.me || (tv.me.seat === null && tv.phase !== "lobby");
  // the last hand's tricks stay on the felt for a moment before the new deal shows (extra.hold)
  const hold = extra.hold && tv.last_hand ? heldGame(tv.last_hand, tv.game, settings) : null;
  const game = hold || tv.game || null;
  if (hold && status === "finished") status = "playing";
  const turnDeadline = (tv.deadlines || []).find((d) => d.kind === "turn") || null;
  return {
    code: extra.code || tv.table_id,
    link: extra.link || null,
    qr_svg: extra.qr_svg || null,
    qr_url: extra.qr_url || null,
    status,
    version: tv.version,
    settings,
    // a spectator sees the table from seat 0's chair, without a hand
    me: spectator ? 0 : tv.me.seat ?? -1,
    seated: !spectator && tv.me.seat !== null,
    spectator,
    my_name: tv.me?.name,
    me_player: tv.me?.player ?? null,
    is_host: !!tv.me?.host,
    host: hostSeat,
    seats,
    people: tv.players || [],
    commands: tv.commands || [],
    legal: hold || spectator ? [] : tv.legal || [],
    game,
    holding: !!hold,
    turn_clock: turnDeadline && !hold ? { seat: turnDeadline.seat, at: turnDeadline.at_ms } : null,
    players_n: settings.players || (tv.seats || []).length,
    score: casual ? casual.score : game?.score || tv.result?.score || null,
    vote,
    casual,
    senas: extra.senas || (tv.senas || []),
    last_hand: tv.last_hand,
    result: tv.result,
    summary: extra.summary ? summaryModel(extra.summary, settings.mode === "casual") : null,
    cancel,
    connection: extra.connection || "open",
    notice: extra.notice || null,
    match_no: tv.match_no,
    // the check of the last deal of this match (docs/fairness.md), and whether its details are open
    fair: extra.fair && extra.fair.match_no === tv.match_no ? extra.fair : null,
    fair_open: !!extra.fairOpen,
  };
}

/** Which cancelled result this is (so the one already read is not shown again). */
export function cancelKey(tv) {
  const r = tv.result;
  return r ? `${tv.match_no}:${r.reason}:${r.seat}` : null;
}

/**
 * The hand just over, drawn as a game: its tricks on the felt, nobody's cards in hand, nothing to do.
 * ``next`` (the new deal, when there is one) lends the rules and the score.
 */
function heldGame(hand, next, settings) {
  const players = settings.players || next?.players || 2;
  return {
    players, hand_no: hand.hand_no, rounds: hand.rounds || [], results: hand.results || [],
    mano: hand.mano, dealer: hand.dealer, pies: [], hand_over: true, match_over: false,
    cards: [], dealt: [], cards_left: Array(players).fill(0), history: [], pending: null,
    pending_call: null, to_act: [], turn: null, folded: hand.mazo || [], sung: hand.sung || [], shown: [],
    truco_value: next?.truco_value ?? 1, rules: next?.rules || { target: settings.target, chicos: settings.chicos },
    chicos: next?.chicos || [0, 0], score: hand.score || next?.score || [0, 0], envido_stake: null,
    hand_winner: hand.winner, held: true,
    // a pica-pica: every duel's cards stay on the felt (the last duel is among them)
    pica: !!hand.pica, duels: hand.duels || [], duel: (hand.duels || []).length - 1, idle: [],
  };
}

function botName(s) {
  return s.name && !/^bot \d+$/.test(s.name) ? s.name : `Bot ${s.seat + 1}`;
}

/**
 * The hand summary on show: ``shown.hand`` is the server's ``last_hand`` record. In casual mode the
 * server pays no points (``points`` is empty: the host scores by hand), so each team's line is what
 * the casual score moved since the summary before (``shown.before``, the score it showed).
 */
function summaryModel(shown, casual) {
  const hand = shown.hand;
  const score = hand.score || [0, 0];
  const before = shown.before || [0, 0];
  const points = casual
    ? [0, 1].filter((team) => score[team] !== before[team])
      .map((team) => ({ team, points: score[team] - before[team], reason: "casual" }))
    : hand.points || [];
  return { hand_no: hand.hand_no, winner: hand.winner, score, points, sung: hand.sung || [],
    shown: hand.shown || [], ended_early: !!hand.ended_early, rounds: hand.rounds || [],
    results: hand.results || [], mazo: hand.mazo || [], casual, final: !!shown.final,
    pica: !!hand.pica, duels: hand.duels || [] };
}
