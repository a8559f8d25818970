// Picks the screen for the current state and keeps countdowns ticking.

import { clear, h } from "./dom.js";
import { t } from "./i18n.js";
import { homeScreen, waitingScreen } from "./lobby.js";
import { cancelledScreen, fairnessSheet, handSummary, matchEnd, replacedScreen } from "./overlays.js";
import { tableScreen } from "./table.js";

/**
 * ``state`` = {lobby, table (the client model, or null), ui, clockOffset}. ``send(intent)`` handles what the
 * player taps. Returns the name of the screen drawn.
 */
export function render(root, state, send) {
  const rerender = () => render(root, state, send);
  const { table, ui } = state;
  let screen;
  let name;
  if (!table) {
    name = "home";
    screen = homeScreen(state.lobby, ui, send, rerender);
  } else if (table.connection === "replaced") {
    name = "replaced";
    screen = replacedScreen(table, send);
  } else if (table.status === "cancelled") {
    name = "cancelled";
    screen = cancelledScreen(table, send);
  } else if (table.status === "waiting") {
    name = "waiting";
    screen = waitingScreen(table, ui, send, rerender);
  } else if (table.status === "finished" || table.game?.match_over) {
    name = "match_end";
    screen = matchEnd(table, send);
  } else {
    name = "table";
    screen = tableScreen(table, ui, send, rerender);
  }
  const active = document.activeElement;
  const focusKey = active?.id;
  clear(root);
  root.appendChild(screen);
  // the hand summary over the table; the one of the hand that ended the match over the result, first
  if ((name === "table" || name === "match_end") && table.summary) root.appendChild(handSummary(table, send));
  if ((name === "table" || name === "match_end") && table.fair_open && table.fair) root.appendChild(fairnessSheet(table, send));
  if (ui.toast) root.appendChild(h("div", { class: "toast", role: "alert" }, ui.toast));
  if (focusKey) document.getElementById(focusKey)?.focus();
  tick(state.clockOffset || 0);
  root.dataset.screen = name;
  return name;
}

/**
 * Update every countdown on the page (``.countdown[data-deadline]``: the vote window and answer
 * timers, a held seat's chip and banner). Deadlines are on the server's clock, in milliseconds;
 * ``offset`` = server - local, from the last message that carried ``server_now_ms``.
 */
export function tick(offset = 0) {
  const now = Date.now() + offset;
  for (const el of document.querySelectorAll(".countdown[data-deadline]")) {
    const s = Math.max(0, Math.ceil((Number(el.dataset.deadline) - now) / 1000));
    const fmt = el.dataset.fmt || "s";
    el.textContent = fmt === "s" ? `${s} s` : t(fmt, { s, name: el.dataset.name || "" });
    el.closest("[role=timer], .chip, .banner")?.classList.toggle("urgent", s <= 5);
  }
}

/** ``getOffset()`` is read on every tick, so a new offset applies at once. */
export function startTicker(getOffset) {
  return setInterval(() => tick(getOffset()), 250);
}
