// Deals anyone can verify (docs/fairness.md), the phone's half: the commitment seen before each deal,
// this seat's random contribution, and the check once the hand is over: SHA-256(secret) is the
// commitment, my contribution went in, SHA-256(secret ‖ contributions) is the seed, and the seed deals
// exactly the cards I held and the cards I saw played. SHA-256 is written out here because
// crypto.subtle only exists on https pages, and a table on the LAN is served over plain http.

const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
  0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
  0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
  0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
  0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
  0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);

/** SHA-256 of ``bytes`` (a Uint8Array) → a Uint8Array of 32 bytes (FIPS 180-4). */
export function sha256(bytes) {
  const bitLen = bytes.length * 8;
  const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
  padded.set(bytes);
  padded[bytes.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(padded.length - 8, Math.floor(bitLen / 2 ** 32));
  view.setUint32(padded.length - 4, bitLen >>> 0);
  const hv = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
  const w = new Uint32Array(64);
  const rotr = (x, n) => (x >>> n) | (x << (32 - n));
  for (let off = 0; off < padded.length; off += 64) {
    for (let i = 0; i < 16; i++) w[i] = view.getUint32(off + i * 4);
    for (let i = 16; i < 64; i++) {
      const s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >>> 3);
      const s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >>> 10);
      w[i] = (w[i - 16] + s0 + w[i - 7] + s1) >>> 0;
    }
    let [a, b, c, d, e, f, g, hh] = hv;
    for (let i = 0; i < 64; i++) {
      const t1 = (hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) + K[i] + w[i]) >>> 0;
      const t2 = ((rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
      hh = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
    }
    hv[0] += a; hv[1] += b; hv[2] += c; hv[3] += d; hv[4] += e; hv[5] += f; hv[6] += g; hv[7] += hh;
  }
  const out = new Uint8Array(32);
  const ov = new DataView(out.buffer);
  for (let i = 0; i < 8; i++) ov.setUint32(i * 4, hv[i]);
  return out;
}

export function toHex(bytes) { return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""); }
export function fromHex(hex) {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}
function concat(...parts) {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let k = 0;
  for (const p of parts) { out.set(p, k); k += p.length; }
  return out;
}

const SUITS = ["e", "b", "o", "c"];
const RANKS = [1, 2, 3, 4, 5, 6, 7, 10, 11, 12];
/** The engine's card numbering: suit * 10 + rank index → "1e", "12c". */
export const CARD_NAMES = Array.from({ length: 40 }, (_, c) => `${RANKS[c % 10]}${SUITS[Math.floor(c / 10)]}`);

/** The verifiable shuffle: Fisher–Yates fed by SHA-256(seed ‖ 4-byte counter), without modulo bias. */
export function shuffledDeck(seed) {
  const deck = Array.from({ length: 40 }, (_, i) => i);
  let words = [];
  let block = 0;
  for (let i = 39; i > 0; i--) {
    const bound = i + 1;
    const limit = 2 ** 32 - (2 ** 32 % bound);
    let x;
    for (;;) {
      if (!words.length) {
        const counter = new Uint8Array(4);
        new DataView(counter.buffer).setUint32(0, block++);
        const d = new DataView(sha256(concat(seed, counter)).buffer);
        words = Array.from({ length: 8 }, (_, k) => d.getUint32(k * 4));
      }
      x = words.shift();
      if (x < limit) break;
    }
    const j = x % bound;
    [deck[i], deck[j]] = [deck[j], deck[i]];
  }
  return deck.map((c) => CARD_NAMES[c]);
}

/** Three cards each, one at a time, from the mano (the seat after the dealer) round the table. */
export function dealFromSeed(seed, players, dealer) {
  const deck = shuffledDeck(seed);
  const hands = Array.from({ length: players }, () => []);
  let k = 0;
  for (let r = 0; r < 3; r++) for (let i = 0; i < players; i++) hands[(dealer + 1 + i) % players].push(deck[k++]);
  return hands;
}

/** 16 random bytes for the next deal, as 32 hex digits (never all zero: that means "absent"). */
export function newContribution() {
  const b = new Uint8Array(16);
  do crypto.getRandomValues(b); while (b.every((x) => x === 0));
  return toHex(b);
}

/**
 * Check a hand's reveal against what this phone saw. ``seen`` = {commitment (before the deal), mine
 * (my contribution or null), seat, cards (every card I held this hand)}; ``publicCards`` = [{seat, card}]
 * played or shown. Returns {ok, checks: [{key, ok}], hands}.
 */
export function verifyReveal(reveal, seen, publicCards) {
  const secret = fromHex(reveal.secret);
  const checks = [];
  checks.push({ key: "fair_commit", ok: toHex(sha256(secret)) === reveal.commitment });
  if (seen.commitment) checks.push({ key: "fair_commit_before", ok: seen.commitment === reveal.commitment });
  if (seen.mine && seen.seat !== null && seen.seat !== undefined) {
    checks.push({ key: "fair_mine_in", ok: reveal.contributions[seen.seat] === seen.mine });
  }
  const parts = reveal.contributions.map((c) => (c ? fromHex(c) : new Uint8Array(16)));
  const seed = sha256(concat(secret, ...parts));
  checks.push({ key: "fair_seed", ok: toHex(seed) === reveal.seed });
  const hands = dealFromSeed(seed, reveal.contributions.length, reveal.dealer);
  let cardsOk = publicCards.every((p) => hands[p.seat]?.includes(p.card));
  if (seen.seat !== null && seen.seat !== undefined && seen.cards?.length) {
    cardsOk = cardsOk && seen.cards.every((c) => hands[seen.seat].includes(c));
  }
  checks.push({ key: "fair_cards", ok: cardsOk });
  return { ok: checks.every((c) => c.ok), checks, hands };
}

// ------------------------------------------------------------------ what this phone remembers

const KEY = (code, match, hand) => `truco.fair.${code}.${match}.${hand}`;

export function recall(code, match, hand) {
  try { return JSON.parse(localStorage.getItem(KEY(code, match, hand)) || "null") || {}; } catch (_) { return {}; }
}
export function forget(code, match, hand) {
  try { localStorage.removeItem(KEY(code, match, hand)); } catch (_) { /* private mode */ }
}
export function remember(code, match, hand, patch) {
  const now = { ...recall(code, match, hand), ...patch };
  try { localStorage.setItem(KEY(code, match, hand), JSON.stringify(now)); } catch (_) { /* private mode */ }
  return now;
}

// ------------------------------------------------------------------ what a seat does with each view

/**
 * Verifiable deals (docs/fairness.md): remember each hand's commitment before it is dealt and the
 * cards this seat held, contribute 16 random bytes to the next deal once its commitment is shown,
 * and check each reveal when a hand is over. What is remembered survives a reload (localStorage).
 * ``store`` is the page's (store.js): its table ``code``, its ``socket``, and ``extra.fair`` set here.
 */
export function noteFairness(view, store) {
  const f = view.fairness;
  const code = store.code;
  if (!f || !code) return;
  const seat = view.me?.seat ?? null;
  if (f.next) {
    const { match_no: m, hand_no: n } = f.next;
    const mem = recall(code, m, n);
    if (!mem.commitment) remember(code, m, n, { commitment: f.next.commitment });
    if (seat !== null && !f.next.mine && !mem.sent && store.socket) {
      const value = mem.mine || newContribution();
      remember(code, m, n, { mine: value, sent: true });
      store.socket.send({ type: "contribute", match_no: m, hand_no: n, value });
    }
  }
  if (f.current && seat !== null && view.phase === "playing") {
    const { match_no: m, hand_no: n } = f.current;
    const mem = recall(code, m, n);
    const cards = [...new Set([...(mem.cards || []), ...(view.game?.cards || [])])];
    remember(code, m, n, { commitment: mem.commitment || f.current.commitment, seat, cards });
  }
  const r = f.revealed;
  if (r && store.extra.fair?.key !== `${r.match_no}:${r.hand_no}`) {
    const mem = recall(code, r.match_no, r.hand_no);
    const summary = view.last_hand?.hand_no === r.hand_no ? view.last_hand : null;
    const publicCards = summary ? [...summary.rounds.flat(),
      ...summary.shown.flatMap((s) => s.cards.map((card) => ({ seat: s.seat, card })))] : [];
    const mySeat = mem.seat ?? null;
    const result = verifyReveal(r, { commitment: mem.commitment, mine: mem.mine, seat: mySeat, cards: mem.cards },
      publicCards);
    // a contribution that arrived after the deal is not a cheat: the deal simply did not use it
    for (const c of result.checks) {
      if (c.key === "fair_mine_in" && !c.ok && r.contributions[mySeat] === null) { c.ok = true; c.late = true; }
    }
    result.ok = result.checks.every((c) => c.ok);
    store.extra.fair = { key: `${r.match_no}:${r.hand_no}`, ...r, result };
    forget(code, r.match_no, r.hand_no - 1); // what the phone kept of a hand checked before
  }
}
