// Home (the sala) and the waiting room.

import { cardFace } from "./deck.js";
import { h, svg } from "./dom.js";
import { getLang, t } from "./i18n.js";
import { teamOf } from "./seating.js";

const LEVELS = ["facil", "normal", "dificil", "maestro", "random"];

function segmented(name, label, options, value, onchange) {
  return h("fieldset", { class: "segmented" },
    h("legend", null, label),
    h("div", { class: "seg-options" }, options.map(([val, text]) => {
      const id = `${name}-${val}`;
      return h("label", { class: "seg", for: id },
        h("input", { type: "radio", id, name, value: String(val), checked: String(value) === String(val),
          onchange: () => onchange(val) }),
        h("span", null, text));
    })));
}

export function langToggle(onToggle) {
  return h("button", { class: "btn ghost lang", type: "button", "aria-label": t("lang_toggle_label"),
    onclick: onToggle }, getLang() === "es" ? "EN" : "ES");
}

/** A passing message (you left, you were removed, your seat is gone) or an error, on top of a page. */
function flashes(ui) {
  return [
    ui.flash ? h("p", { class: "banner info flash", role: "status" }, ui.flash) : null,
    ui.error ? h("p", { class: "error", role: "alert" }, ui.error) : null,
  ];
}

function nameField(ui, onEnter) {
  // no maxlength: it counts UTF-16 units and would cut a joined emoji in half; the page counts
  // characters as the server does (24) when the name is sent
  return h("div", { class: "field" }, h("label", { for: "name" }, t("your_name")),
    h("input", { id: "name", class: "input", type: "text", autocomplete: "nickname", spellcheck: "false",
      placeholder: t("name_placeholder"), value: ui.name || "", oninput: (e) => { ui.name = e.target.value; },
      onkeydown: onEnter ? (e) => { if (e.key === "Enter") onEnter(); } : null }));
}

/** ``ui.form`` holds the settings being chosen; ``ui.bots`` the bots' level and points; ``lobby.tables`` the open tables. */
export function homeScreen(lobby, ui, send, rerender) {
  const f = ui.form;
  const b = ui.bots || (ui.bots = { level: "normal", target: 30 });
  const set = (key) => (val) => { f[key] = val; rerender(); };
  const setBots = (key) => (val) => { b[key] = val; rerender(); };
  const codeInput = h("input", { id: "code", class: "input code", type: "text", autocapitalize: "characters",
    autocomplete: "off", spellcheck: "false", maxlength: "12", placeholder: t("code_placeholder"), value: ui.code || "",
    oninput: (e) => { ui.code = e.target.value.toUpperCase(); },
    onkeydown: (e) => { if (e.key === "Enter") send({ type: "join", code: ui.code }); } });
  const tables = lobby?.tables || [];
  return h("main", { class: "screen home-screen", dataset: { screen: "home" } },
    h("header", { class: "home-head" },
      h("h1", null, h("span", { class: "logo", "aria-hidden": "true" }, svg(cardFace("1e"))), " ", t("app_name")),
      langToggle(() => send({ type: "lang" }))),
    h("p", { class: "tagline" }, t("tagline")),
    flashes(ui),
    nameField(ui),
    h("section", { class: "panel bots-panel" },
      h("h2", null, t("play_bots")),
      h("p", { class: "muted" }, t("play_bots_hint")),
      h("label", { class: "field inline" }, t("bots_level"),
        h("select", { id: "bots-level", class: "input", onchange: (e) => { b.level = e.target.value; } },
          LEVELS.map((l) => h("option", { value: l, selected: b.level === l }, t(`level_${l}`))))),
      segmented("bots-target", t("bots_points"), [[15, "15"], [30, "30"]], b.target, setBots("target")),
      h("div", { class: "row" },
        h("button", { class: "btn primary", type: "button", onclick: () => send({ type: "play_bots", players: 2 }) }, t("bots_2")),
        h("button", { class: "btn primary", type: "button", onclick: () => send({ type: "play_bots", players: 4 }) }, t("bots_4")))),
    h("section", { class: "panel make-panel" },
      h("h2", null, t("make_table")),
      segmented("players", t("players"), [[2, "2"], [4, "4"], [6, "6"], [8, "8"]], f.players, set("players")),
      segmented("target", t("target"), [[15, "15"], [30, "30"]], f.target, set("target")),
      segmented("flor", t("flor"), [[false, t("off")], [true, t("on")]], f.flor, set("flor")),
      segmented("mode", t("mode"), [["full", t("mode_full")], ["casual", t("mode_casual")]], f.mode, set("mode")),
      f.players >= 4 ? segmented("senas", t("senas"), [[true, t("on")], [false, t("off")]], f.senas, set("senas")) : null,
      f.players === 6 && f.mode === "full"
        ? segmented("pica_pica", t("pica_pica"), [[false, t("off")], [true, t("on")]], f.pica_pica, set("pica_pica")) : null,
      f.players === 6 && f.mode === "full" && f.pica_pica ? h("p", { class: "muted hint" }, t("pica_hint", { hi: f.target - 5 })) : null,
      segmented("chicos", t("chicos_label"), [[1, t("chicos_1")], [3, t("chicos_3")]], f.chicos, set("chicos")),
      segmented("falta", t("falta_label"), [["leader", t("falta_leader")], ["malas_wins", t("falta_malas_wins")]], f.falta, set("falta")),
      segmented("turn", t("turn_clock"), [[null, t("turn_off")], [30, t("turn_s", { n: 30 })], [60, t("turn_s", { n: 60 })]],
        f.turn_seconds, set("turn_seconds")),
      h("label", { class: "switch", for: "private" },
        h("input", { id: "private", type: "checkbox", checked: f.private ? true : null,
          onchange: (e) => { f.private = e.target.checked; rerender(); } }),
        h("span", { class: "switch-text" }, h("strong", null, t("private_table")), h("span", { class: "muted" }, t("private_hint")))),
      h("button", { class: "btn primary wide", type: "button", onclick: () => send({ type: "create", settings: { ...f, pica_pica: f.players === 6 && f.mode === "full" && f.pica_pica } }) }, t("create"))),
    h("section", { class: "panel" },
      h("h2", null, t("open_tables")),
      tables.length ? h("ul", { class: "open-tables" }, tables.map((tb) => h("li", null,
        h("div", null,
          h("strong", null, tb.code), " · ", h("span", null, `${tb.players} ${t("players").toLowerCase()} · ${t("to_points", { n: tb.target })}`),
          tb.mode === "casual" ? [" ", h("span", { class: "chip" }, t("casual_short"))] : null,
          h("div", { class: "muted" }, [tb.host_name, t("seats_free", { free: tb.free, n: tb.players })].filter(Boolean).join(" · "))),
        h("button", { class: "btn", type: "button", "aria-label": `${t("join")} ${tb.code}`,
          onclick: () => send({ type: "join", code: tb.code }) }, t("join")))))
        : h("p", { class: "muted" }, t("no_open_tables"))),
    h("section", { class: "panel" },
      h("h2", null, h("label", { for: "code" }, t("join_by_code"))),
      h("div", { class: "row code-row" }, codeInput,
        h("button", { class: "btn primary", type: "button", onclick: () => send({ type: "join", code: ui.code }) }, t("go")))));
}

const LOOPBACK = /^(localhost|127\.|\[?::1\]?$)/;

export function waitingScreen(model, ui, send, rerender) {
  const players = model.settings.players;
  const isHost = model.is_host;
  const link = model.link || `${location.origin}/m/${model.code}`;
  const filled = model.seats.filter((s) => s.name || s.bot).length;
  const away = model.seats.filter((s) => s.name && !s.bot && s.connected === false);
  const copyBtn = h("button", { class: "btn", type: "button", "aria-label": t("copy_label"), onclick: async () => {
    try { await navigator.clipboard.writeText(link); } catch (_) {
      const input = document.getElementById("share-link"); input?.select(); document.execCommand?.("copy");
    }
    ui.copied = true; rerender(); setTimeout(() => { ui.copied = false; rerender(); }, 1500);
  } }, ui.copied ? t("copied") : t("copy"));
  const qr = model.qr_svg ? svg(model.qr_svg)
    : model.qr_url ? h("img", { src: model.qr_url, alt: "", width: "168", height: "168" }) : null;
  // on a loopback address the page cannot know whether the server listens on the network: say so
  const loopback = LOOPBACK.test(location.hostname);
  const teams = [0, 1].map((team) => h("section", { class: `team-box team-${team === teamOf(model.me) ? "us" : "them"}` },
    h("h2", null, t("team", { n: team + 1 })),
    h("ul", { class: "seat-list" }, model.seats.filter((s) => teamOf(s.seat) === team).map((s) => seatRow(model, s, ui, send, rerender)))));
  const seatless = (model.people || []).filter((p) => p.seat === null || p.seat === undefined);
  let status;
  if (filled < players) status = players - filled === 1 ? t("waiting_for_one") : t("waiting_for_players", { n: players - filled });
  else if (away.length === 1) status = t("missing_one", { name: away[0].name });
  else if (away.length > 1) status = t("missing_many", { names: away.map((s) => s.name).join(", ") });
  else status = isHost ? t("ready_to_start") : t("waiting_for_host", { name: model.seats.find((s) => s.seat === model.host)?.name || "" });
  return h("main", { class: "screen waiting-screen", dataset: { screen: "waiting" } },
    h("header", { class: "home-head" }, h("h1", null, t("waiting_title", { code: model.code })),
      langToggle(() => send({ type: "lang" }))),
    h("section", { class: "panel share" },
      h("h2", null, h("label", { for: "share-link" }, t("share_link"))),
      h("div", { class: "row" }, h("input", { id: "share-link", class: "input", type: "text", readonly: true, value: link }), copyBtn),
      qr ? h("figure", { class: "qr", role: "img", "aria-label": t("qr_label") }, qr,
        h("figcaption", { class: `muted ${loopback ? "qr-loopback" : ""}` },
          loopback ? t("qr_loopback", { host: location.hostname }) : t("qr_hint"))) : null),
    h("div", { class: "teams" }, teams),
    seatless.length ? h("section", { class: "panel seatless" }, h("h2", null, t("no_seat_people")),
      h("ul", { class: "seat-list" }, seatless.map((p) => personRow(model, p, send)))) : null,
    isHost ? h("div", { class: "host-tools" },
      filled < players && h("label", { class: "field inline" }, t("bot_level"),
        h("select", { class: "input", onchange: (e) => { ui.botLevel = e.target.value; } },
          LEVELS.map((l) => h("option", { value: l, selected: (ui.botLevel || "normal") === l }, t(`level_${l}`))))),
      players > 2 ? h("button", { class: "btn", type: "button", onclick: () => send({ type: "shuffle_teams" }) }, h("span", { "aria-hidden": "true" }, "🔀"), " ", t("shuffle_teams")) : null)
      : null,
    isHost
      ? h("button", { class: "btn primary wide", type: "button", disabled: model.commands.includes("start") ? null : true,
        onclick: () => send({ type: "start" }) }, t("start"))
      : null,
    h("p", { class: `muted center ${away.length && filled === players ? "missing" : ""}`, role: "status" }, status),
    !model.spectator && model.commands.includes("leave")
      ? h("button", { class: "btn ghost wide", type: "button", "aria-label": t("leave_label"), onclick: () => send({ type: "leave" }) },
        t("leave"))
      : null);
}

function removeButton(model, player, name, send) {
  if (!model.is_host || !model.commands.includes("remove_player") || player === null || player === undefined
    || player === model.me_player) return null;
  return h("button", { class: "btn small danger", type: "button", "aria-label": t("remove_player_label", { name }),
    onclick: () => send({ type: "remove_player", player }) }, t("remove_player"));
}

function personRow(model, p, send) {
  return h("li", { class: "seat-row" },
    h("span", { class: "seat-num", "aria-hidden": "true" }, "·"),
    h("span", { class: "seat-who" }, p.name, " ",
      p.player === model.me_player ? h("span", { class: "chip" }, t("you")) : null,
      p.connected === false ? h("span", { class: "chip chip-away" }, `⚠ ${t("away")}`) : null),
    h("span", { class: "seat-tools" }, removeButton(model, p.player, p.name, send)));
}

function seatRow(model, s, ui, send, rerender) {
  const isHost = model.is_host;
  const taken = s.name || s.bot;
  const moving = ui.moving;
  const tags = [];
  if (s.seat === model.me) tags.push(h("span", { class: "chip" }, t("you")));
  if (s.seat === model.host) tags.push(h("span", { class: "chip chip-host" }, t("host")));
  if (s.bot) tags.push(h("span", { class: "chip chip-bot" }, `🤖 ${t(`level_${s.bot}`)}`));
  if (taken && !s.bot && s.connected === false) tags.push(h("span", { class: "chip chip-away" }, `⚠ ${t("away")}`));
  const tools = [];
  if (isHost && moving !== undefined && moving !== null && moving !== s.seat) {
    tools.push(h("button", { class: "btn small", type: "button", onclick: () => {
      send({ type: "place", player: model.seats[moving].player, seat: s.seat }); ui.moving = null; rerender();
    } }, h("span", { "aria-hidden": "true" }, "⇄"), " ", t("place_here")));
  } else if (!taken && !model.spectator) {
    if (isHost) {
      tools.push(h("button", { class: "btn small", type: "button", "aria-label": `${t("add_bot")} (#${s.seat + 1})`,
        onclick: () => send({ type: "add_bot", seat: s.seat, level: ui.botLevel || "normal" }) }, `🤖 ${t("add_bot")}`));
    }
    tools.push(h("button", { class: "btn small", type: "button", onclick: () => send({ type: "sit", seat: s.seat }) }, t("sit_here")));
  } else if (isHost) {
    if (s.bot) {
      tools.push(h("button", { class: "btn small", type: "button", "aria-label": `${t("remove_bot")} (#${s.seat + 1})`,
        onclick: () => send({ type: "remove_bot", seat: s.seat }) }, "✕"));
    }
    if (model.settings.players > 2 && !s.bot) {
      tools.push(h("button", { class: "btn small", type: "button", "aria-label": `${t("move_player")}: ${s.name || t("bot")}`,
        "aria-pressed": moving === s.seat ? "true" : "false",
        onclick: () => { ui.moving = moving === s.seat ? null : s.seat; rerender(); } }, "⇄"));
    }
    if (!s.bot && s.seat !== model.me) tools.push(removeButton(model, s.player, s.name, send));
  }
  return h("li", { class: `seat-row ${taken ? "" : "empty"} ${moving === s.seat ? "moving" : ""} ${taken && !s.bot && s.connected === false ? "away" : ""}` },
    h("span", { class: "seat-num" }, `${s.seat + 1}`),
    h("span", { class: "seat-who" }, s.name || (s.bot ? t("bot") : t("empty_seat")), " ", tags),
    h("span", { class: "seat-tools" }, tools));
}

/**
 * Someone opened a table's link without a seat here. ``info`` is ``GET /api/tables/<code>``
 * (``phase``, ``free_seats``), or ``{missing}`` (no such table) or ``{offline}``. A seat is offered
 * only in the lobby with a free seat; otherwise the page says why and offers to watch.
 */
export function joinScreen(code, info, ui, send) {
  const settings = info?.settings || {};
  const missing = !!info?.missing;
  const phase = info?.phase;
  const canSit = !!info && !missing && !info.offline && phase === "lobby" && (info.free_seats ?? 1) > 0;
  let why = null;
  if (info && !missing && !info.offline && !canSit) {
    why = phase === "playing" ? t("match_on_watch") : phase === "over" ? t("match_over_watch")
      : phase === "closed" ? t("err_table_closed") : t("table_full_watch");
  }
  const canWatch = !!info && !missing && phase !== "closed";
  return h("main", { class: "screen join-screen", dataset: { screen: "join" } },
    h("header", { class: "home-head" }, h("h1", null, t("waiting_title", { code })), langToggle(() => send({ type: "lang" }))),
    flashes(ui),
    missing ? h("p", { class: "error", role: "alert" }, t("not_found_code", { code })) : null,
    info?.offline ? h("p", { class: "error", role: "alert" }, t("err_offline")) : null,
    info && !missing && !info.offline ? h("p", { class: "muted" }, [
      info.host ? t("host_is", { name: info.host }) : null,
      settings.players ? `${settings.players} ${t("players").toLowerCase()}` : null,
      settings.target ? t("to_points", { n: settings.target }) : null,
      settings.mode === "casual" ? t("mode_casual") : null,
      settings.pica_pica ? t("pica_pica") : null,
    ].filter(Boolean).join(" · ")) : null,
    why ? h("p", { class: "banner info", role: "status", dataset: { testid: "no-seat" } }, why) : null,
    canSit ? h("section", { class: "panel" },
      nameField(ui, () => send({ type: "join_here", code })),
      h("button", { class: "btn primary wide", type: "button", onclick: () => send({ type: "join_here", code }) }, t("join"))) : null,
    canWatch ? h("button", { class: `btn wide ${canSit ? "" : "primary"}`, type: "button", onclick: () => send({ type: "watch", code }) },
      h("span", { "aria-hidden": "true" }, "👀"), " ", t("watch")) : null,
    h("button", { class: "btn ghost wide", type: "button", onclick: () => send({ type: "back_to_sala" }) }, t("back_to_sala")));
}
