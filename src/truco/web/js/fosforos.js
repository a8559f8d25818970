// The score as fósforos: groups of five (a square and its diagonal), malas then buenas.

const SIDES = [
  [3, 3, 21, 3], [21, 3, 21, 21], [21, 21, 3, 21], [3, 21, 3, 3], [4, 4, 20, 20],
];

function group(count, x) {
  let out = "";
  SIDES.forEach(([x1, y1, x2, y2], i) => {
    if (i < count) {
      out += `<line x1="${x + x1}" y1="${y1}" x2="${x + x2}" y2="${y2}" stroke="#f0d49a" stroke-width="2.8" stroke-linecap="round"/>`;
      out += `<circle cx="${x + x2}" cy="${y2}" r="2.3" fill="#e53935"/>`;
    } else {
      out += `<line x1="${x + x1}" y1="${y1}" x2="${x + x2}" y2="${y2}" stroke="rgba(255,255,255,.22)" stroke-width="1" stroke-dasharray="2 2"/>`;
    }
  });
  return out;
}

/** One half (malas or buenas) holding ``points`` out of ``size``. */
function half(points, size) {
  const groups = Math.ceil(size / 5);
  let out = "";
  for (let g = 0; g < groups; g++) {
    out += group(Math.max(0, Math.min(5, points - g * 5)), g * 26);
  }
  return `<svg viewBox="0 0 ${groups * 26 - 2} 24" class="fosforos" aria-hidden="true" focusable="false">${out}</svg>`;
}

/** Malas are the first half of the target (15 of 30, 7 of 15), buenas the rest. */
export function splitScore(points, target) {
  const malasSize = Math.floor(target / 2);
  return {
    malasSize,
    buenasSize: target - malasSize,
    malas: Math.min(points, malasSize),
    buenas: Math.max(0, points - malasSize),
  };
}

export function fosforosSVG(points, target) {
  const s = splitScore(points, target);
  return { ...s, malasSvg: half(s.malas, s.malasSize), buenasSvg: half(s.buenas, s.buenasSize) };
}
