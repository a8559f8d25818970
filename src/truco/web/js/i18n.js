// Strings: rioplatense Spanish (voseo) first, English available. t("key", {n: 3}).

import { EN } from "./lang/en.js";
import { ES } from "./lang/es.js";

const SUITS = {
  es: { e: "espadas", b: "bastos", o: "oros", c: "copas" },
  en: { e: "swords", b: "clubs", o: "coins", c: "cups" },
};
const NUMBERS = {
  es: { 1: "as", 2: "dos", 3: "tres", 4: "cuatro", 5: "cinco", 6: "seis", 7: "siete", 10: "sota", 11: "caballo", 12: "rey" },
  en: { 1: "ace", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 10: "jack (sota)", 11: "knight (caballo)", 12: "king (rey)" },
};

const TABLES = { es: ES, en: EN };
const STORAGE_KEY = "truco.lang";
let lang = pickLanguage();

function pickLanguage() {
  const asked = new URLSearchParams(location.search).get("lang");
  if (asked && TABLES[asked]) {
    try { localStorage.setItem(STORAGE_KEY, asked); } catch (_) { /* private mode */ }
    return asked;
  }
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved && TABLES[saved]) return saved;
  } catch (_) { /* private mode */ }
  return "es"; // Spanish first, whatever the browser says.
}

export function getLang() { return lang; }

export function setLang(next) {
  if (!TABLES[next]) return;
  lang = next;
  try { localStorage.setItem(STORAGE_KEY, next); } catch (_) { /* ignore */ }
  document.documentElement.lang = next;
}

export function t(key, params) {
  let text = TABLES[lang][key] ?? ES[key] ?? key;
  if (params) text = text.replace(/\{(\w+)\}/g, (_, k) => (params[k] ?? `{${k}}`));
  return text;
}

/**
 * A refusal's ``reason`` code (``error.reason`` on the socket, ``error.code`` over HTTP) in the
 * player's words; an unknown code gets a generic line. The server's English ``message`` is never shown.
 */
export function refusal(reason) {
  const key = `err_${reason}`;
  return TABLES[lang][key] ?? ES[key] ?? TABLES[lang].err_generic;
}

/** "1e" → "ancho de espadas"; "7o" → "siete de oros". */
export function cardName(name) {
  const number = parseInt(name, 10);
  const suit = name.slice(-1);
  if (lang === "es" && number === 1 && (suit === "e" || suit === "b")) return `ancho de ${SUITS.es[suit]}`;
  const joiner = lang === "es" ? " de " : " of ";
  return NUMBERS[lang][number] + joiner + SUITS[lang][suit];
}

export function callName(call) {
  if (call === "retruco" || call === "vale_cuatro") return t(`call_${call}`);
  return t(`do_${call}`);
}
