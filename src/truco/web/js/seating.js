// Where each seat sits on a phone screen, and the table roles shown next to names.
// Display only: mano, pies, dealer, turn and cards come from the server's view.

// Play goes counter-clockwise: the next seat sits to your right. Offsets from your seat → grid area.
const AREAS = {
  2: ["me", "top"],
  4: ["me", "right", "top", "left"],
  6: ["me", "bottom-right", "top-right", "top", "top-left", "bottom-left"],
  8: ["me", "bottom-right", "right", "top-right", "top", "top-left", "left", "bottom-left"],
};

export function areaFor(seat, me, players) {
  return AREAS[players][(seat - me + players) % players];
}

export const teamOf = (seat) => seat & 1;

/** "mano", "pie", "reparte": the roles of a seat in the current hand (the server names the pies). */
export function roles(seat, game) {
  if (!game) return [];
  const out = [];
  if (seat === game.mano) out.push("mano");
  if ((game.pies || []).includes(seat)) out.push("pie");
  if (seat === game.dealer) out.push("dealer");
  return out;
}

/** The cards a seat has played this hand, round by round (a pica-pica's finished duels first:
 * ``won`` then says whether the card took its trick). */
export function playedBy(seat, game) {
  const cards = [];
  for (const d of game?.duels || []) {
    if (d.mano !== seat && d.rival !== seat) continue;
    d.rounds.forEach((round, r) => {
      for (const p of round) if (p.seat === seat) cards.push({ card: p.card, round: r, won: d.results[r] === teamOf(seat) });
    });
  }
  if (game?.duels?.length && game.duels.length > game.duel) return cards; // the last duel is over: listed above
  (game?.rounds || []).forEach((round, r) => {
    for (const p of round) if (p.seat === seat) cards.push({ card: p.card, round: r });
  });
  return cards;
}

/** Pica-pica: whether ``seat`` waits out the current duel, and whether it has played its own. */
export function duelState(seat, game) {
  if (!game?.pica || !(game.idle || []).includes(seat)) return null;
  return (game.duels || []).some((d) => d.mano === seat || d.rival === seat) ? "done" : "waits";
}

/** The last call or answer of this hand, for the announcement bubble. */
export function lastCall(game) {
  const history = game?.history || [];
  for (let i = history.length - 1; i >= 0; i--) {
    const a = history[i];
    if (a.do !== "play") return a;
    break;
  }
  return null;
}
