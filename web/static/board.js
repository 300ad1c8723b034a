// The live board: plain JavaScript and SVG. Every rule is the server's: the page draws the state it is sent and
// offers only the actions the server lists for the viewer's turn. All URLs are relative (the board may live under
// a prefix, as inside a Discord Activity).
"use strict";
(() => {
  const TERRAIN = { // colours replaced at start by the pictures' palette (api/me); letters for colour-blind readers
    wheat: ["#e9c13e", "W"], forest: ["#24683a", "F"], lake: ["#327cc4", "L"], grassland: ["#86c254", "G"],
    swamp: ["#837150", "S"], mine: ["#4a464e", "M"], town: ["#a06eac", "T"],
  };
  const DIRS = { up: [-1, 0], right: [0, 1], down: [1, 0], left: [0, -1] };
  const SVGNS = "http://www.w3.org/2000/svg";
  let S = {}; // the page's words in the reader's language
  let ME = null; // api/me
  let state = null; // the game as last sent
  let gid = null;
  let source = null;
  let SESSION = null; // inside Discord: the board session the bot gave (a header; cookies are a third party's there)
  let pick = null; // the placement being chosen: {row, col, options: [...], i}
  let buildSlot = null; // the building chosen, waiting for its town square
  let dragonSlot = null;
  let busy = false;
  let zoom = 1;
  let lastLog = [];
  let lastLine = "";
  let top0 = 0, left0 = 0; // the frame's corner of the kingdom being drawn (for the squares' names)

  const $ = (id) => document.getElementById(id);
  const fmt = (text, values) => String(text).replace(/\{(\w+)\}/g, (m, k) => (k in values ? values[k] : m));
  const cellName = (r, c) => String.fromCharCode(65 + c) + (r + 1);
  function el(tag, attrs, ...kids) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
      else if (k === "text") node.textContent = v;
      else if (k === "style") node.style.cssText = v; // the CSSOM: the CSP forbids style attributes
      else node.setAttribute(k, v === true ? "" : v);
    }
    for (const kid of kids.flat()) if (kid !== null && kid !== undefined) node.append(kid);
    return node;
  }
  function sv(tag, attrs, ...kids) {
    const node = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const kid of kids.flat()) if (kid) node.append(kid);
    return node;
  }
  async function api(path, body) {
    const headers = SESSION ? { "X-Board-Session": SESSION } : {};
    const options = body === undefined ? { credentials: "same-origin", headers } : {
      method: "POST", credentials: "same-origin", headers: Object.assign({ "Content-Type": "application/json" }, headers),
      body: JSON.stringify(body),
    };
    const response = await fetch(path, options);
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: response.statusText }; }
    if (!response.ok || data.ok === false) throw new Error(data.error || response.statusText);
    return data;
  }
  function toast(text, info) {
    const t = $("toast");
    t.textContent = text;
    t.className = info ? "toast info" : "toast";
    t.hidden = !text;
  }
  function announce(text) {
    if (!text) return;
    const a = $("announce");
    a.append(el("p", { text }));
    while (a.childNodes.length > 30) a.firstChild.remove();
  }

  // -- start ---------------------------------------------------------------------------------------------------
  async function boot() {
    ME = await api("api/me");
    S = ME.strings;
    for (const [terrain, colour] of Object.entries(ME.terrains || {})) if (TERRAIN[terrain]) TERRAIN[terrain][0] = colour; // render/palette.py
    document.documentElement.lang = ME.lang;
    $("lang-label").textContent = S.language;
    const sel = $("lang");
    for (const code of ME.languages) sel.append(el("option", { value: code, selected: code === ME.lang, text: S.languages[code] || code }));
    sel.addEventListener("change", async () => { await api("api/lang", { lang: sel.value }); location.reload(); });
    $("home").setAttribute("aria-label", S.back);
    $("home").title = S.back;
    const params = new URLSearchParams(location.search);
    const g = params.get("game");
    if (params.get("frame_id")) await inDiscord();
    else if (g && /^\d+$/.test(g)) openBoard(Number(g));
    else home();
  }

  // -- inside Discord: the Embedded App SDK (served by the bot), sign-in through Discord, the channel's game -----
  async function inDiscord() {
    document.body.classList.add("in-discord");
    $("main").replaceChildren(el("p", { class: "panel", id: "activity-status", text: S.activity_connecting }));
    try {
      if (!ME.activity) throw new Error(S.activity_off);
      const { DiscordSDK } = await import("./sdk/index.mjs");
      const sdk = new DiscordSDK(ME.activity, { disableConsoleLogOverride: true });
      await sdk.ready();
      const { code } = await sdk.commands.authorize({
        client_id: ME.activity, response_type: "code", state: "", prompt: "none", scope: ["identify"],
      });
      const signed = await api("api/token", { code, instance_id: sdk.instanceId, channel_id: sdk.channelId });
      await sdk.commands.authenticate({ access_token: signed.access_token });
      if (!signed.game) { $("activity-status").textContent = S.activity_no_game; return; }
      SESSION = signed.session;
      openBoard(signed.game);
    } catch (err) {
      $("activity-status").textContent = fmt(S.activity_failed, { error: (err && err.message) || String(err) });
    }
  }

  // -- the list of games and a new table (local play) ---------------------------------------------------------
  async function home() {
    $("title").textContent = S.app_title;
    document.title = S.app_title;
    const main = $("main");
    main.replaceChildren();
    if (!ME.local) { main.append(el("p", { class: "panel", text: S.discord_tables })); return; }
    main.append(newGameForm());
    const list = el("ul", { class: "games" });
    main.append(el("section", { class: "panel", "aria-labelledby": "games-h" }, el("h2", { id: "games-h", text: S.your_games }), list));
    const { games } = await api("api/games");
    if (!games.length) list.append(el("li", { text: S.no_games }));
    for (const g of games) {
      const status = g.status === "lobby" ? fmt(S.waiting, { free: "…", size: g.seats.length }) : "";
      list.append(el("li", {}, el("a", { href: `?game=${g.id}`, text: `#${g.id} ${g.title} — ${g.seats.join(", ")} ${g.mine ? "" : status}` })));
    }
  }
  function newGameForm() {
    const kind = el("select", { name: "kind", id: "kind" });
    for (const [k, m] of Object.entries(ME.modes)) kind.append(el("option", { value: k, text: m.name }));
    const players = el("input", { type: "number", name: "players", id: "players", min: 2, max: 4, value: 2, inputmode: "numeric" });
    const computers = el("input", { type: "number", name: "computers", id: "computers", min: 0, max: 1, value: 1, inputmode: "numeric" });
    const level = el("select", { name: "level", id: "level" });
    for (const l of ME.levels) level.append(el("option", { value: l, selected: l === "easy", text: S.levels[l] || l }));
    const variants = el("fieldset", {}, el("legend", { text: S.variants }));
    for (const v of ME.variants) variants.append(el("label", {}, el("input", { type: "checkbox", name: "variant", value: v }), " ", S.variant_names[v] || v));
    variants.append(el("label", {}, el("input", { type: "checkbox", name: "teams", id: "teams" }), " ", S.teams));
    const fit = () => {
      const [lo, hi] = ME.modes[kind.value].players;
      players.min = lo; players.max = hi;
      if (+players.value < lo) players.value = lo;
      if (+players.value > hi) players.value = hi;
      computers.max = +players.value - 1;
      if (+computers.value > +computers.max) computers.value = computers.max;
    };
    kind.addEventListener("change", fit); players.addEventListener("input", fit);
    fit();
    const form = el("form", { class: "newgame panel", "aria-labelledby": "new-h" },
      el("h2", { id: "new-h", text: S.new_game, style: "grid-column: 1 / -1" }),
      el("label", { for: "kind" }, S.game, kind), el("label", { for: "players" }, S.players, players),
      el("label", { for: "computers" }, S.computers, computers), el("label", { for: "level" }, S.level, level),
      variants, el("button", { class: "btn primary", type: "submit", id: "create", text: S.create }));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const body = {
        kind: kind.value, players: +players.value, computers: +computers.value, level: level.value,
        variants: [...form.querySelectorAll("input[name=variant]:checked")].map((i) => i.value),
        teams: form.querySelector("#teams").checked, language: ME.lang,
      };
      try {
        const { id } = await api("api/games", body);
        history.pushState(null, "", `?game=${id}`);
        openBoard(id);
      } catch (err) { toast(err.message); }
    });
    return form;
  }

  // -- the live connection -------------------------------------------------------------------------------------
  async function openBoard(id) {
    gid = id;
    toast("");
    if (source) source.close();
    source = null;
    let query = "";
    try {
      // Refused (and said why) unless this board is open to the reader; else the newest state, shown at once: when
      // the live connection is refused (a very busy board), these reads every few seconds keep the page current.
      show(await api(`api/games/${id}`));
      if (SESSION) query = "&s=" + encodeURIComponent((await api(`api/games/${id}/stream`)).token);
    } catch (err) {
      $("main").replaceChildren(el("p", { class: "panel", text: err.message }));
      toast(err.message);
      return;
    }
    source = new EventSource(`api/games/${id}/events?v=${state && state.id === id ? state.version : -1}${query}`);
    source.onmessage = (e) => {
      setLive(true);
      show(JSON.parse(e.data));
    };
    const opened = source;
    source.onerror = () => {
      setLive(false);
      // Closed for good (a stream token is short-lived, or the board was too busy for one more): ask again.
      if (opened.readyState === 2 && source === opened) setTimeout(() => { if (source === opened) openBoard(id); }, 4000);
    };
  }
  function show(next) {
    if (state && state.id === next.id && state.version === next.version && !state.settling === !next.settling) return;
    if (state && next.version !== state.version) { pick = null; buildSlot = null; dragonSlot = null; }
    const first = !state || state.id !== next.id;
    state = next;
    render();
    if (!first) speak();
    else { lastLog = state.log || []; lastLine = state.status_line || ""; }
  }
  function setLive(on) {
    const live = $("live");
    live.className = on ? "live on" : "live off";
    live.textContent = on ? S.live : S.reconnecting;
  }
  function speak() {
    const log = state.log || [];
    let start = 0;
    for (let n = Math.min(lastLog.length, log.length); n > 0; n--) {
      if (lastLog.slice(-n).join("\n") === log.slice(0, n).join("\n")) { start = n; break; }
    }
    for (const line of log.slice(start)) announce(line);
    if (state.status_line && state.status_line !== lastLine) announce(state.status_line);
    lastLog = log;
    lastLine = state.status_line || "";
  }

  async function act(action, through) {
    if (busy) return;
    busy = true;
    toast("");
    try {
      const body = { version: state.version, action };
      if (through !== undefined) body.through = through;
      const r = await api(`api/games/${gid}/act`, body);
      if (r.warning) toast(r.warning);
    } catch (err) {
      toast(err.message);
    } finally { busy = false; }
  }
  async function post(what, body) {
    toast("");
    try {
      await api(`api/games/${gid}/${what}`, Object.assign({ version: state.version }, body || {}));
      if (what === "join") openBoard(gid); // the live view is per person: connect again as the seated one
    } catch (err) { toast(err.message); }
  }

  // -- drawing -------------------------------------------------------------------------------------------------
  const seatOf = (player) => state.seats.find((s) => s.player === player);
  const nameOf = (player) => { const s = seatOf(player); return s ? s.name : player; };
  function kingBadge(player) {
    const s = seatOf(player);
    if (!s) return null;
    return el("span", { class: "king", style: `background:${s.colour}`, "aria-hidden": "true", text: String(s.seat + 1) });
  }
  function render() {
    const main = $("main");
    const focusId = document.activeElement && document.activeElement.id;
    $("title").textContent = `${state.title} #${state.id}`;
    document.title = `${state.title} #${state.id}`;
    main.replaceChildren();
    if (state.status === "lobby") main.append(renderLobby());
    else if (state.status === "cancelled") main.append(el("p", { class: "panel", text: state.status }));
    else {
      main.append(renderStatus());
      if (state.status === "finished") { wantReview(); const r = renderReview(); if (r) main.append(r); }
      const [mainK, others] = renderKingdoms();
      const right = el("div", { class: "side" }, renderLines(), state.queendomino ? renderBuilders() : null, renderScores(), renderLog());
      main.append(el("div", { class: "layout" }, right, el("div", { class: "realm" }, mainK, others)));
    }
    main.dataset.version = state.version;
    main.dataset.turn = state.status === "lobby" ? "lobby" : !state.turn ? "over" : state.turn.you && !state.settling ? state.turn.kind : "wait";
    if (focusId && $(focusId)) $(focusId).focus();
  }

  function renderLobby() {
    const lob = state.lobby;
    const seats = el("ol", { class: "seats" });
    for (const s of state.seats) seats.append(el("li", {}, kingBadge(s.player), " ", s.name, s.computer ? ` (${S.computer}, ${S.levels[s.computer] || s.computer})` : "", s.you ? ` — ${S.you}` : ""));
    for (let i = 0; i < lob.free; i++) seats.append(el("li", { text: S.seat_free }));
    const bar = el("div", { class: "bar" });
    if (lob.free > 0) bar.append(el("button", { class: "btn primary", id: "take-seat", text: S.take_seat, on: { click: () => post("join") } }));
    if (lob.host) bar.append(el("button", { class: "btn", id: "start", text: S.start, on: { click: () => post("start") } }));
    return el("section", { class: "panel" }, el("h2", { text: fmt(S.waiting, { free: lob.free, size: lob.size }) }), seats, bar);
  }

  function tipFor(a) {
    if (!a) return "";
    return { place: S.place_tip, claim: S.claim_tip, first_claim: S.first_claim_tip, tax: S.tax_tip, build: S.build_tip, dragon: S.dragon_tip }[a.kind] || "";
  }
  function renderStatus() {
    const a = state.actions;
    const line = el("p", { class: "line" + (state.turn && state.turn.you ? " mine" : ""), id: "status-line", text: state.status_line || "" });
    const round = state.round ? fmt(S.round, { round: state.round, rounds: state.rounds }) : S.first_line;
    const bar = el("div", { class: "bar" });
    if (pick) {
      const option = pick.options[pick.i];
      bar.append(el("button", { class: "btn", id: "rotate", text: S.rotate, disabled: pick.options.length < 2, on: { click: rotate } }));
      bar.append(el("button", { class: "btn primary", id: "confirm", text: `${S.confirm} (${option.words})`, on: { click: confirmPlace } }));
      bar.append(el("button", { class: "btn", id: "cancel", text: S.cancel, on: { click: () => { pick = null; render(); } } }));
    }
    if (dragonSlot !== null) {
      bar.append(el("button", { class: "btn primary", id: "confirm", text: `${S.confirm}: ${fmt(S.burn, { building: state.builders[dragonSlot].name })}`, on: { click: () => act({ type: "dragon", slot: dragonSlot }) } }));
      bar.append(el("button", { class: "btn", id: "cancel", text: S.cancel, on: { click: () => { dragonSlot = null; render(); } } }));
    }
    if (a && a.skip && a.kind !== "place" && !pick) {
      bar.append(el("button", { class: "btn", id: "skip", text: S.skip, on: { click: () => act({ type: "skip" }, false) } }));
    }
    if (a && a.tax) {
      const both = a.tax.find((t) => t.cells.length === 2);
      if (both) bar.append(el("button", { class: "btn", id: "tax-both", text: fmt(S.both_squares, { coins: both.words }), on: { click: () => act({ type: "tax", cells: both.cells }) } }));
    }
    if (state.seats.some((s) => s.you) && state.turn !== null) {
      bar.append(el("button", { class: "btn", id: "undo", text: S.undo, on: { click: () => post("undo") } }));
    }
    const zoomBar = el("span", { class: "zoom" },
      el("button", { class: "btn", id: "zoom-out", "aria-label": S.zoom_out, title: S.zoom_out, text: "−", on: { click: () => setZoom(zoom / 1.25) } }),
      el("button", { class: "btn", id: "zoom-in", "aria-label": S.zoom_in, title: S.zoom_in, text: "+", on: { click: () => setZoom(zoom * 1.25) } }));
    bar.append(zoomBar);
    const box = el("section", { class: "panel status", "aria-label": state.title },
      el("span", { class: "tip", text: round }), line);
    if (state.turn && state.turn.you) box.append(el("span", { class: "tip", text: tipFor(a) }));
    else if (state.turn && !state.seats.some((s) => s.you)) box.append(el("span", { class: "tip", text: S.watching }));
    box.append(bar);
    if (state.final) box.append(el("h2", { text: S.final }), el("p", { class: "final", id: "final", text: state.final }));
    return box;
  }
  function setZoom(z) {
    zoom = Math.max(0.6, Math.min(3, z));
    document.documentElement.style.setProperty("--zoom", zoom);
  }

  function dominoSvg(squares) {
    const svg = sv("svg", { viewBox: "0 0 80 40", "aria-hidden": "true", focusable: "false" });
    squares.forEach(([terrain, crowns], i) => {
      const [fill, letter] = TERRAIN[terrain];
      svg.append(sv("rect", { x: i * 40 + 1, y: 1, width: 38, height: 38, rx: 3, fill, stroke: "#101218", "stroke-width": 2 }));
      svg.append(sv("text", { x: i * 40 + 7, y: 16, "font-size": 13, "font-weight": 700, fill: terrain === "wheat" || terrain === "grassland" ? "#14161c" : "#fff", text: letter }));
      if (crowns) svg.append(sv("text", { x: i * 40 + 20, y: 35, "font-size": 13, fill: "#f6c440", stroke: "#101218", "stroke-width": 0.6, text: "♛".repeat(crowns) }));
    });
    return svg;
  }
  function dominoWords(d) { return (state.domino_words && state.domino_words[d.domino]) || String(d.number); }
  function renderLine(list, heading, claimable, id) {
    const box = el("div", { class: "line-list", role: "list", "aria-labelledby": id });
    const acting = state.turn && state.turn.domino;
    for (const d of list) {
      const legal = claimable.includes(d.domino);
      const who = d.player ? nameOf(d.player) : "";
      const label = legal ? fmt(S.claim, { domino: dominoWords(d) }) : `${dominoWords(d)}${who ? " — " + who : ""}`;
      const node = el(legal ? "button" : "div", {
        class: "dom" + (legal ? " legal" : "") + (acting === d.domino ? " acting" : ""), role: legal ? null : "listitem",
        id: `dom-${d.domino}`, "aria-label": label, "data-domino": d.domino,
        on: legal ? { click: () => act({ type: "claim", domino: d.domino }) } : null,
      }, dominoSvg(d.squares), el("span", { class: "num", text: state.kind === "royal-wedding" ? d.domino : String(d.number) }), d.player ? kingBadge(d.player) : null,
      el("span", { class: "who", text: who }));
      box.append(legal ? el("div", { role: "listitem" }, node) : node);
    }
    return el("div", {}, el("h2", { id, text: heading }), box);
  }
  function renderLines() {
    const a = state.actions || {};
    const claims = a.claim || [];
    const firstRound = state.round === 0;
    const current = renderLine(state.current, firstRound ? S.first_line : S.current_line, firstRound ? claims : [], "line-current");
    const next = state.next.length ? renderLine(state.next, S.next_line, firstRound ? [] : claims, "line-next") : null;
    if (!state.current.length && !next) return null; // the game is over: no line is left to show
    return el("section", { class: "panel lines" }, current, next);
  }
  function renderBuilders() {
    const a = state.actions || {};
    const buildable = new Set((a.build || []).map((b) => b.slot));
    const burnable = new Set(a.dragon || []);
    const box = el("div", { class: "builders" });
    state.builders.forEach((b, slot) => {
      if (!b) { box.append(el("div", { class: "slot", text: "—" })); return; }
      const canBuild = buildable.has(slot);
      const canBurn = burnable.has(slot) && !canBuild;
      const legal = canBuild || canBurn;
      const chosen = buildSlot === slot || dragonSlot === slot;
      const label = canBuild ? fmt(S.build, { building: b.name, coins: b.cost }) : canBurn ? fmt(S.burn, { building: b.name }) : `${b.name}, ${fmt(S.cost, { coins: b.cost })}`;
      const node = el(legal ? "button" : "div", {
        class: "slot" + (legal ? " legal" : "") + (chosen ? " chosen" : "") + (state.dragon === slot ? " dragon" : ""),
        id: `slot-${slot}`, "aria-label": label + ". " + b.effect, "aria-pressed": legal ? String(chosen) : null,
        on: legal ? { click: () => chooseSlot(slot, canBuild) } : null,
      }, el("span", { class: "cost", text: `${b.cost}¤ ` }), b.name, el("small", { text: b.effect }));
      box.append(node);
    });
    return el("section", { class: "panel builders-panel" }, el("h2", { text: S.builders }), box);
  }
  function chooseSlot(slot, build) {
    pick = null;
    if (build) { buildSlot = buildSlot === slot ? null : slot; dragonSlot = null; }
    else { dragonSlot = dragonSlot === slot ? null : slot; buildSlot = null; }
    render();
    if (buildSlot !== null) { const cell = document.querySelector(".cell-legal"); if (cell) cell.focus(); }
  }

  function renderKingdoms() {
    const box = el("div", { class: "kingdoms others" });
    const you = state.seats.filter((s) => s.you).map((s) => s.player);
    const acting = state.turn ? state.turn.kingdom : null;
    let mainK = acting !== null && state.turn.you ? acting : state.kingdoms.findIndex((k) => k.players.some((p) => you.includes(p)));
    if (mainK < 0) mainK = acting !== null ? acting : 0;
    const mine = (i) => i === acting && state.turn && state.turn.you;
    for (const i of state.kingdoms.map((k, i) => i).filter((i) => i !== mainK)) box.append(renderKingdom(state.kingdoms[i], false, mine(i)));
    return [renderKingdom(state.kingdoms[mainK], true, mine(mainK)), box];
  }
  function kingdomTitle(k) { return k.players.map(nameOf).join(" & "); }
  function renderKingdom(k, isMain, mine) {
    const facts = [`${S.score} ${k.score}`];
    if (state.queendomino) facts.push(`${S.coins} ${k.coins}`, `${S.knights} ${k.reserve}+${k.knights.length}`, `${S.towers} ${k.towers}`);
    if (k.queen) facts.push(S.queen);
    const h = el("h3", {}, ...k.players.map(kingBadge), el("span", { text: kingdomTitle(k) }), el("span", { class: "facts", text: facts.join(" · ") }));
    return el("section", { class: "panel kingdom" + (isMain ? " main-k" : ""), id: `kingdom-${k.index}`, "aria-label": fmt(S.kingdom_of, { name: kingdomTitle(k) }) },
      h, el("div", { class: "grid-wrap" }, kingdomSvg(k, mine)), buildingLegend(k));
  }
  // What the codes on a kingdom's buildings stand for, each building once ("TC Training Camp · Ba Bakery").
  function buildingLegend(k) {
    const named = new Map(k.buildings.map((b) => [b.code, b.name]));
    if (!named.size) return null;
    return el("p", { class: "legend" }, ...[...named].sort().map(([code, name]) => el("span", {}, el("b", { text: code }), " " + name)));
  }

  function kingdomSvg(k, mine) {
    const [top, left, bottom, right] = k.frame;
    const rows = bottom - top + 1, cols = right - left + 1, C = 40;
    const svg = sv("svg", { class: "grid", viewBox: `-14 -14 ${cols * C + 16} ${rows * C + 16}`, role: "group", "aria-label": fmt(S.kingdom_of, { name: kingdomTitle(k) }) });
    const x = (c) => (c - left) * C, y = (r) => (r - top) * C;
    top0 = top; left0 = left;
    for (let c = left; c <= right; c++) svg.append(sv("text", { x: x(c) + C / 2 - 4, y: -4, "font-size": 10, fill: "#98a2b4", text: String.fromCharCode(65 + c) }));
    for (let r = top; r <= bottom; r++) svg.append(sv("text", { x: -13, y: y(r) + C / 2 + 4, "font-size": 10, fill: "#98a2b4", text: String(r + 1) }));
    const filled = new Map(k.cells.map(([r, c, t, n]) => [`${r},${c}`, [t, n]]));
    for (let r = top; r <= bottom; r++) for (let c = left; c <= right; c++) {
      if (!filled.has(`${r},${c}`) && !(r === k.castle[0] && c === k.castle[1])) {
        svg.append(sv("rect", { x: x(c) + 1, y: y(r) + 1, width: C - 2, height: C - 2, rx: 3, fill: "#2b323e", stroke: "#363e4c" }));
      }
    }
    for (const [r, c, terrain, crowns] of k.cells) svg.append(square(x(c), y(r), C, terrain, crowns));
    const [cr, cc] = k.castle;
    svg.append(sv("g", { "aria-label": S.castle, role: "img" },
      sv("rect", { x: x(cc) + 1, y: y(cr) + 1, width: C - 2, height: C - 2, rx: 3, fill: "#d8dce4", stroke: "#101218", "stroke-width": 2 }),
      sv("text", { x: x(cc) + 9, y: y(cr) + 27, "font-size": 20, fill: "#3a3f4a", text: "♜" })));
    for (const b of k.buildings) {
      const [r, c] = b.cell;
      svg.append(sv("g", { class: "building" }, sv("rect", { x: x(c) + 4, y: y(r) + 4, width: C - 8, height: 16, rx: 2, fill: "#ecdec4", stroke: "#462820" }),
        // its code (the picture's: TC Training Camp), the name in the kingdom's legend and the label's title
        sv("text", { x: x(c) + C / 2, y: y(r) + 16, "font-size": 11, "font-weight": 700, "text-anchor": "middle", fill: "#462820", text: b.code }),
        b.towers ? sv("text", { x: x(c) + 24, y: y(r) + 34, "font-size": 11, fill: "#fff", text: "▲" + b.towers }) : null,
        sv("title", { text: `${b.name} (${cellName(r, c)})` })));
    }
    // A knight on a building stands below its label (bottom left: a building's square has no crown, its towers are
    // bottom right); elsewhere in the top right corner.
    const built = new Set(k.buildings.map((b) => `${b.cell[0]},${b.cell[1]}`));
    for (const [r, c] of k.knights) {
      const [kx, ky] = built.has(`${r},${c}`) ? [x(c) + 11, y(r) + 29] : [x(c) + 32, y(r) + 9];
      svg.append(sv("g", { class: "knight" }, sv("circle", { cx: kx, cy: ky, r: 6, fill: "#f0f2f6", stroke: "#101218" }),
        sv("text", { x: kx - 3.5, y: ky + 3.5, "font-size": 9, fill: "#101218", text: "♞" }), sv("title", { text: `${S.knights}: ${cellName(r, c)}` })));
    }
    if (mine) addTargets(svg, k, x, y, C);
    return svg;
  }
  function square(px, py, C, terrain, crowns) {
    const [fill, letter] = TERRAIN[terrain];
    const ink = terrain === "wheat" || terrain === "grassland" ? "#14161c" : "#ffffff";
    return sv("g", {},
      sv("rect", { x: px + 1, y: py + 1, width: C - 2, height: C - 2, rx: 3, fill, stroke: "#101218", "stroke-width": 1.5 }),
      sv("text", { x: px + 4, y: py + 13, "font-size": 11, "font-weight": 700, fill: ink, text: letter }),
      crowns ? sv("text", { x: px + 6, y: py + 34, "font-size": 12, fill: "#f6c440", stroke: "#101218", "stroke-width": 0.5, text: "♛".repeat(crowns) }) : null,
      sv("title", { text: fmt(S.cell, { cell: cellName(py / C + top0, px / C + left0), terrain: S.terrains[terrain], crowns }) }));
  }
  function target(svg, px, py, C, label, text, onPick, id, extraClass) {
    const g = sv("g", { class: "cell-legal " + (extraClass || ""), role: "button", tabindex: "0", "aria-label": label, id });
    g.append(sv("rect", { class: "hit", x: px + 2, y: py + 2, width: C - 4, height: C - 4, rx: 4, fill: "rgba(120,240,200,0.18)", stroke: "#78f0c8", "stroke-width": 2.5, "stroke-dasharray": "5 3" }));
    if (text) g.append(sv("text", { x: px + C / 2 - 10, y: py + C / 2 + 5, "font-size": 13, "font-weight": 700, fill: "#78f0c8", stroke: "#101218", "stroke-width": 0.6, text }));
    g.addEventListener("click", onPick);
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(); } });
    svg.append(g);
  }
  function addTargets(svg, k, x, y, C) {
    const a = state.actions;
    if (!a) return;
    if (a.place) {
      const anchors = new Map();
      for (const p of a.place) {
        const key = `${p.row},${p.col}`;
        if (!anchors.has(key)) anchors.set(key, []);
        anchors.get(key).push(p);
      }
      if (pick) drawPreview(svg, x, y, C);
      for (const [key, options] of anchors) {
        const [r, c] = key.split(",").map(Number);
        options.sort((p, q) => q.gain - p.gain);
        const best = options[0];
        const chosen = pick && pick.row === r && pick.col === c;
        if (chosen) continue;
        target(svg, x(c), y(r), C, fmt(S.place_at, { cell: cellName(r, c), gain: best.words }), (best.gain > 0 ? "+" : "") + best.gain,
          () => { pick = { row: r, col: c, options, i: 0 }; render(); const b = $("confirm"); if (b) b.focus(); }, `cell-${cellName(r, c)}`);
      }
    }
    if (a.tax) {
      for (const t of a.tax.filter((t) => t.cells.length === 1)) {
        const [r, c] = t.cells[0];
        target(svg, x(c), y(r), C, `${S.knights} → ${cellName(r, c)}: ${t.words}`, "♞" + t.coins, () => act({ type: "tax", cells: t.cells }), `tax-${cellName(r, c)}`);
      }
    }
    if (buildSlot !== null && a.build) {
      for (const b of a.build.filter((b) => b.slot === buildSlot)) {
        const name = state.builders[buildSlot].name;
        target(svg, x(b.col), y(b.row), C, `${fmt(S.build, { building: name, coins: state.builders[buildSlot].cost })}: ${cellName(b.row, b.col)}`, "⌂",
          () => act({ type: "build", slot: b.slot, cell: [b.row, b.col] }), `build-${cellName(b.row, b.col)}`);
      }
    }
  }
  function drawPreview(svg, x, y, C) {
    const option = pick.options[pick.i];
    const d = state.current.find((d) => d.domino === state.actions.domino);
    const [dr, dc] = DIRS[option.dir];
    const cells = [[option.row, option.col], [option.row + dr, option.col + dc]];
    const g = sv("g", { id: "preview", role: "button", tabindex: "0", class: "cell-legal", "aria-label": fmt(S.preview, { domino: dominoWords(d), cell: cellName(option.row, option.col), direction: S.directions[option.dir], gain: option.words }) });
    cells.forEach(([r, c], i) => g.append(square(x(c), y(r), C, d.squares[i][0], d.squares[i][1])));
    const [r0, c0] = cells[0], [r1, c1] = cells[1];
    g.append(sv("rect", { x: x(Math.min(c0, c1)) - 1, y: y(Math.min(r0, r1)) - 1, width: (Math.abs(c1 - c0) + 1) * C + 2, height: (Math.abs(r1 - r0) + 1) * C + 2, fill: "none", stroke: "#ffec78", "stroke-width": 3 }));
    g.append(sv("text", { x: x(c0) + 2, y: y(r0) - 3 + C, "font-size": 12, "font-weight": 700, fill: "#ffec78", stroke: "#101218", "stroke-width": 0.6, text: (option.gain > 0 ? "+" : "") + option.gain }));
    g.addEventListener("click", rotate);
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); rotate(); } });
    svg.append(g);
  }
  function rotate() {
    if (!pick) return;
    pick.i = (pick.i + 1) % pick.options.length;
    render();
    announce(fmt(S.preview, { domino: "", cell: cellName(pick.row, pick.col), direction: S.directions[pick.options[pick.i].dir], gain: pick.options[pick.i].words }));
  }
  function confirmPlace() {
    if (!pick) return;
    const o = pick.options[pick.i];
    act({ type: "place", cell: [o.row, o.col], direction: o.dir });
  }

  function renderScores() {
    const table = el("table", { class: "scores" });
    const head = [S.players, S.score];
    if (state.queendomino) head.push(S.coins, S.knights, S.towers);
    table.append(el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    state.kingdoms.forEach((k, i) => {
      const row = [kingdomTitle(k) + (k.queen ? " ♛" : ""), k.score];
      if (state.queendomino) row.push(k.coins, k.reserve + k.knights.length, k.towers);
      body.append(el("tr", { class: state.turn && state.turn.kingdom === i ? "acting" : "" }, ...row.map((v, j) => el(j ? "td" : "th", { scope: j ? null : "row", text: String(v) }))));
    });
    table.append(body);
    return el("section", { class: "panel scores-panel" }, el("h2", { text: S.score }), table);
  }
  function renderLog() {
    const list = el("ol", { class: "log", id: "log" });
    for (const line of state.log || []) list.append(el("li", { text: line }));
    return el("section", { class: "panel log-panel" }, el("h2", { text: S.log }), list);
  }

  // -- the post-game review (issue #31): worked out after the end at low priority, so asked for again, each time a
  // little later, until it is ready; then drawn below the final scores. ---------------------------------------------
  let review = null; // {gid, data: the last answer (null: not yet), timer}
  function wantReview() {
    if (review && review.gid === gid) return;
    if (review) clearTimeout(review.timer);
    review = { gid, data: null, timer: null, wait: 1000 };
    loadReview(review);
  }
  async function loadReview(r) {
    let data;
    try { data = await api(`api/games/${r.gid}/review`); }
    catch (err) { data = { status: "failed", text: err.message }; }
    if (review !== r) return; // another game meanwhile
    const was = r.data && r.data.status;
    r.data = data;
    const shown = $("review"), made = renderReview();
    if (shown && made) shown.replaceWith(made);
    if (data.status === "pending") {
      r.timer = setTimeout(() => loadReview(r), r.wait);
      r.wait = Math.min(r.wait * 2, 30000);
    } else if (data.status === "failed" && typeof data.retry === "number") {
      r.timer = setTimeout(() => loadReview(r), Math.ceil(data.retry) * 1000 + 500); // tried again by then
      r.wait = 1000;
    } else if (data.status === "ready" && was === "pending") announce(S.review_ready);
  }
  function renderReview() {
    const data = review && review.gid === gid ? review.data : null;
    if (data && data.status === "none") return null;
    const pending = !data || data.status === "pending";
    const box = el("section", { class: "panel review", id: "review", "aria-labelledby": "review-h", "aria-busy": pending ? "true" : null, "data-status": data ? data.status : "pending" },
      el("h2", { id: "review-h", text: S.review }));
    if (!data || data.status !== "ready") {
      box.append(el("p", { class: "tip", id: "review-note", text: data ? data.text : S.review_working }));
      return box;
    }
    box.append(el("p", { class: "tip", text: data.intro }));
    for (const p of data.players) {
      const part = el("article", { class: "review-player" + (p.picture ? " with-pic" : ""), "data-player": p.player, "aria-labelledby": `review-${p.player}` },
        el("h3", {}, kingBadge(p.player), el("span", { id: `review-${p.player}`, text: p.name })));
      if (p.lines.length) part.append(el("ol", { class: "review-lines" }, ...p.lines.map((line) => el("li", { text: line }))));
      else part.append(el("p", { text: p.clean }));
      if (p.picture) part.append(reviewPicture(p));
      box.append(part);
    }
    return box;
  }
  function reviewPicture(p) {
    const img = el("img", { class: "review-pic", alt: p.alt, width: p.width, height: p.height, decoding: "async" });
    if (!SESSION) img.src = p.picture;
    else { // inside Discord the board session is a header, which an <img> cannot send: fetched, shown as data
      fetch(p.picture, { credentials: "same-origin", headers: { "X-Board-Session": SESSION } })
        .then((response) => { if (!response.ok) throw new Error(response.statusText); return response.blob(); })
        .then((blob) => { const reader = new FileReader(); reader.onload = () => { img.src = reader.result; }; reader.readAsDataURL(blob); })
        .catch((err) => toast(err.message));
    }
    return img;
  }

  window.addEventListener("popstate", () => location.reload());
  document.addEventListener("keydown", (e) => { if (e.key === "Escape" && (pick || buildSlot !== null || dragonSlot !== null)) { pick = null; buildSlot = null; dragonSlot = null; render(); } });
  boot().catch((err) => toast(err.message));
})();
