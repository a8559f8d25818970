// The Spanish 40-card deck, drawn by the project as SVG strings (no image files, no fonts).
// Each suit has its own shape AND colour: espadas blue swords, bastos brown clubs with green leaves,
// oros gold coins, copas red cups. The number sits large in two corners so it reads at phone size.

const INK = { e: "#17397d", b: "#3e2a0c", o: "#7a4d00", c: "#a31515" };

const SUIT_ART = {
  // A straight sword pointing up: steel blade, blue guard, grip and pommel.
  e: `<path d="M10 .4 11.7 3v11H8.3V3Z" fill="#e3eaf3" stroke="#17397d" stroke-width=".8"/>
      <path d="M10 2.2v11.2" stroke="#9fb2cc" stroke-width=".5"/>
      <rect x="4.3" y="13.5" width="11.4" height="1.9" rx=".95" fill="#2360c4" stroke="#17397d" stroke-width=".5"/>
      <rect x="9" y="15.4" width="2" height="2.7" fill="#2360c4" stroke="#17397d" stroke-width=".4"/>
      <circle cx="10" cy="18.8" r="1.15" fill="#2360c4" stroke="#17397d" stroke-width=".4"/>`,
  // A knotty wooden club, thick at the top, with two green leaves.
  b: `<path d="M8.7 19.3 6.9 4.6Q6.7 .8 10 .8t3.1 3.8l-1.8 14.7Z" fill="#9a6431" stroke="#3e2a0c" stroke-width=".8"/>
      <ellipse cx="8.6" cy="5.6" rx=".9" ry=".7" fill="#5a3813"/>
      <ellipse cx="11.7" cy="8.8" rx=".9" ry=".7" fill="#5a3813"/>
      <ellipse cx="9.3" cy="12.6" rx=".8" ry=".6" fill="#5a3813"/>
      <path d="M12.6 6.2q3.2-2.2 4.6.2-2.4 1.9-4.6-.2Z" fill="#2e7d32" stroke="#1b4d1f" stroke-width=".4"/>
      <path d="M7.6 10.4q-3.2-2.2-4.6.2 2.4 1.9 4.6-.2Z" fill="#2e7d32" stroke="#1b4d1f" stroke-width=".4"/>`,
  // A gold coin with a ring and a red centre.
  o: `<circle cx="10" cy="10" r="8.9" fill="#f4c21b" stroke="#7a4d00" stroke-width="1.1"/>
      <circle cx="10" cy="10" r="5.6" fill="#ffd95a" stroke="#7a4d00" stroke-width=".8"/>
      <circle cx="10" cy="10" r="2.1" fill="#c0392b" stroke="#7a4d00" stroke-width=".5"/>`,
  // A red chalice with a gold rim and stem.
  c: `<path d="M3 3.2h14q0 7.4-7 8.6-7-1.2-7-8.6Z" fill="#d32f2f" stroke="#7f1010" stroke-width=".8"/>
      <rect x="2.4" y="1.8" width="15.2" height="2.2" rx="1.1" fill="#f4c21b" stroke="#7f1010" stroke-width=".6"/>
      <rect x="8.9" y="11.6" width="2.2" height="4.6" fill="#f4c21b" stroke="#7f1010" stroke-width=".5"/>
      <path d="M4.6 19.4q5.4-4.6 10.8 0Z" fill="#d32f2f" stroke="#7f1010" stroke-width=".7"/>`,
};

// Pip positions (centre x, centre y) inside the 60×90 card, and the pip size, for 1–7.
const PIPS = {
  1: { size: 34, at: [[30, 47]] },
  2: { size: 20, at: [[30, 31], [30, 61]] },
  3: { size: 18, at: [[30, 25], [30, 46], [30, 67]] },
  4: { size: 17, at: [[20, 32], [40, 32], [20, 60], [40, 60]] },
  5: { size: 16, at: [[20, 28], [40, 28], [30, 46], [20, 64], [40, 64]] },
  6: { size: 15, at: [[20, 26], [40, 26], [20, 46], [40, 46], [20, 66], [40, 66]] },
  7: { size: 13, at: [[20, 24], [40, 24], [15, 46], [30, 46], [45, 46], [20, 68], [40, 68]] },
};

const FIGURE = { 10: "SOTA", 11: "CABALLO", 12: "REY" };

export function parseCard(name) {
  return { number: parseInt(name, 10), suit: name.slice(-1) };
}

function pip(suit, cx, cy, size) {
  const s = size / 20;
  return `<g transform="translate(${cx - size / 2} ${cy - size / 2}) scale(${s})">${SUIT_ART[suit]}</g>`;
}

/** The face of a card as an SVG string. ``name`` is the engine's card name, e.g. "1e" or "12c". */
export function cardFace(name) {
  const { number, suit } = parseCard(name);
  const ink = INK[suit];
  let art = "";
  if (PIPS[number]) {
    const { size, at } = PIPS[number];
    art = at.map(([x, y]) => pip(suit, x, y, size)).join("");
    // the two anchos, the strongest cards of the game, get a gold halo
    if (number === 1 && (suit === "e" || suit === "b")) {
      art = `<circle cx="30" cy="47" r="21" fill="#fff4cf" stroke="#f4c21b" stroke-width="1.4"/>${art}`;
    }
  } else {
    // Figures: a framed panel with a large emblem and the figure's name.
    art = `<rect x="13" y="20" width="34" height="52" rx="3" fill="${suit === "o" ? "#fff4cf" : "#f3efe4"}" stroke="${ink}" stroke-width=".8"/>
      ${number === 12 ? `<path d="M22 27l3 4 5-6 5 6 3-4v7H22Z" fill="#f4c21b" stroke="${ink}" stroke-width=".6"/>` : ""}
      ${number === 11 ? `<path d="M24 33q3-8 10-6l3 3-3 1 1 4h-4l-2-2-2 2Z" fill="#a1887f" stroke="${ink}" stroke-width=".6"/>` : ""}
      ${number === 10 ? `<circle cx="30" cy="29.5" r="4" fill="#f1d3b3" stroke="${ink}" stroke-width=".6"/>` : ""}
      ${pip(suit, 30, 50, 22)}
      <text x="30" y="68" text-anchor="middle" font-size="${number === 11 ? 5.4 : 6.4}" font-weight="700" fill="${ink}"
        font-family="system-ui, sans-serif" letter-spacing=".3">${FIGURE[number]}</text>`;
  }
  const num = String(number);
  const fs = num.length > 1 ? 15 : 17;
  return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">
    <rect x=".8" y=".8" width="58.4" height="88.4" rx="5.5" fill="#fffdf6" stroke="#555" stroke-width="1.2"/>
    <rect x="3.4" y="3.4" width="53.2" height="83.2" rx="3.5" fill="none" stroke="${ink}" stroke-width=".7"
      stroke-dasharray="${DASH[suit]}"/>
    <text x="5" y="${fs + 2}" font-size="${fs}" font-weight="800" fill="${ink}"
      font-family="system-ui, sans-serif">${num}</text>
    <g transform="rotate(180 30 45)"><text x="5" y="${fs + 2}" font-size="${fs}" font-weight="800" fill="${ink}"
      font-family="system-ui, sans-serif">${num}</text></g>
    ${art}
  </svg>`;
}

// The Spanish deck's "pausas": breaks in the frame tell the suit (none for oros, 1 copas, 2 espadas,
// 3 bastos). Drawn as dashes along the inner frame's perimeter (≈ 268 units).
const DASH = { o: "none", c: "126 8", e: "58 8 58 8", b: "36 8 36 8 36 8" };

/** The back of a card: every face-down card looks the same. */
export function cardBack() {
  return `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">
    <rect x=".8" y=".8" width="58.4" height="88.4" rx="5.5" fill="#1d3f73" stroke="#0e2344" stroke-width="1.2"/>
    <rect x="5" y="5" width="50" height="80" rx="3" fill="none" stroke="#e8d9a8" stroke-width="1.2"/>
    <path d="M30 12 50 45 30 78 10 45Z" fill="#2b5797" stroke="#e8d9a8" stroke-width="1"/>
    <circle cx="30" cy="45" r="8" fill="#e8d9a8"/>
    <circle cx="30" cy="45" r="4.5" fill="#b3261e"/>
  </svg>`;
}
