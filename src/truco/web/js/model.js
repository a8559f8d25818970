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
  if (result?.cancelled && tv.phase === "lobby") {
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
    my_vote: tv.vote.my_vote,
    hint: tv.vote.hint ? { seat: tv.vote.hint.seat, answer: tv.vote.hint.vote } : null,
    window_until: tv.vote.window_ends_ms ?? null,
    deadline: tv.vote.answer_ends_ms ?? null,
  } : null;
  const spectator = !tv.me;
  const game = tv.game || null;
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
    spectator,
    my_name: tv.me?.name,
    is_host: !!tv.me?.host,
    host: hostSeat,
    seats,
    people: tv.players || [],
    commands: tv.commands || [],
    legal: tv.legal || [],
    game,
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
    shown: hand.shown || [], ended_early: !!hand.ended_early };
}
