// The live board: plain JavaScript and SVG. Every rule is the server's: the page draws the state it is sent and
// offers only the actions the server lists for the viewer's turn. All URLs are relative (the board may live under
// a prefix, as inside a Discord Activity). Every piece is the shared art's (render/art.py), defined once on the page
// as SVG symbols and <use>d here: a square is known by its drawing, never by a letter.
"use strict";
(() => {
  const DIRS = { up: [-1, 0], right: [0, 1], down: [1, 0], left: [0, -1] };
  const TURNS = { right: 0, down: 90, left: 180, up: 270 }; // a domino as placed, from the line's (first square left)
  const SVGNS = "http://www.w3.org/2000/svg";
  const U = 100; // SVG units per square
  // Where things go on a kingdom's square, in hundredths of it (the marks never meet each other or the symbol):
  const EMBLEM = [5, 5, 40]; // the terrain's symbol on its plate, top left (x, y, side)
  const SLOTS = [[57, 5, 38], [62, 46, 22]]; // knights, the queen, a knight about to be sent: top right, then under
  const CROWN = { y: 70, size: 26, gap: 2 }; // crowns, in a row along the bottom
  const PICTURE = [20, 34, 60]; // a building's picture; its towers, crowns, knight and the queen in the band above
  const BAND = { y: 4, size: 28, left: 3, right: 97 };
  const FLY_MS = 340, DROP_MS = 260; // what changed plays once, each under 400 ms
  const STILL = matchMedia("(prefers-reduced-motion: reduce)");
  const WIDE = matchMedia("(min-width: 1000px) and (min-height: 600px)");
  let S = {}; // the page's words in the reader's language
  let ME = null; // api/me
  let state = null; // the game as last sent
  let seen = null; // the game as last drawn while the page was in view: what changed since plays once
  let gid = null;
  let source = null;
  let SESSION = null; // inside Discord: the board session the bot gave (a header; cookies are a third party's there)
  let pick = null; // the placement being chosen: {row, col, options: [...], i}
  let buildSlot = null; // the building chosen, waiting for its town square
  let dragonSlot = null;
  let busy = false;
  let pending = null; // a move drawn at once, until the server's frame: {base: the server's state at the tap}
  let logOpen = null; // the reader's choice (null: open on wide screens)
  let hint = null; // "Show me a good move": {gid, version, status (pending, ready, failed), text, data, timer, wait}
  let tick = null; // the computers' countdown, while they wait for a possible undo
  const GUIDE_KEY = "kd_guide"; // the first-game guide's progress in this browser (localStorage)
  let guide = loadGuide();
  let lastLog = [];
  let lastLine = "";

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
    document.documentElement.lang = ME.lang;
    $("lang-label").textContent = S.language;
    const sel = $("lang");
    for (const code of ME.languages) sel.append(el("option", { value: code, selected: code === ME.lang, text: S.languages[code] || code }));
    sel.addEventListener("change", async () => { await api("api/lang", { lang: sel.value }); location.reload(); });
    $("home").setAttribute("aria-label", S.back);
    rulesLink();
    $("home").title = S.back;
    const params = new URLSearchParams(location.search);
    const g = params.get("game");
    if (params.get("frame_id")) await inDiscord();
    else if (g && /^\d+$/.test(g)) openBoard(Number(g));
    else home();
  }

  // -- the header's Rules (issue #46): one tap to the rules of the game on the screen (its variants, players, teams)
  // in the page's language, or, with no game open, to the choice of games; the rules page links back here (`back`).
  function rulesLink() {
    const q = new URLSearchParams();
    if (state && state.id === gid && gid !== null) {
      const lob = state.lobby;
      q.set("game", state.kind);
      q.set("variants", ((lob ? lob.variants : state.variants) || []).join(","));
      q.set("players", String(lob ? lob.size : state.seats.length));
      if (lob ? lob.teams : (state.kingdoms || []).some((k) => k.players.length > 1)) q.set("teams", "1");
    }
    q.set("lang", ME.lang);
    if (location.search) q.set("back", location.search);
    $("rules").href = "rules?" + q;
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
  // Each game with its state in the server's words (open n of m, your turn, whom it waits for, who won), the
  // reader's turns first (the server orders them).
  async function home() {
    rulesLink();
    $("title").textContent = S.app_title;
    document.title = S.app_title;
    const main = $("main");
    if (!ME.local) { main.replaceChildren(el("p", { class: "panel", text: S.discord_tables })); return; }
    const list = el("ul", { class: "games", id: "games" });
    main.replaceChildren(el("div", { class: "home-page" }, newGameForm(),
      el("section", { class: "panel", "aria-labelledby": "games-h" }, el("h2", { id: "games-h", text: S.your_games }), list)));
    const { games } = await api("api/games");
    if (!games.length) list.append(el("li", { text: S.no_games }));
    for (const g of games) {
      list.append(el("li", { "data-state": g.state, "data-game": g.id },
        el("a", { href: `?game=${g.id}` }, el("span", { class: "gtitle", text: `#${g.id} ${g.title}` }),
          el("span", { class: "gline", text: g.line }), el("span", { class: "gseats", text: g.seats.join(", ") }))));
    }
    main.dataset.turn = "home";
  }
  // The tables the engine accepts (the server lists them: ME.tables), by the name the server gives a combination.
  const tableKey = (kind, players, variants, teams) => `${kind}/${players}/${[...variants].sort().join("+")}/${teams ? "teams" : "solo"}`;
  function newGameForm() {
    const legal = new Set(ME.tables);
    const kind = el("select", { name: "kind", id: "kind" });
    for (const [k, m] of Object.entries(ME.modes)) kind.append(el("option", { value: k, text: m.name }));
    const players = el("input", { type: "number", name: "players", id: "players", min: 2, max: 4, value: 2, inputmode: "numeric" });
    const computers = el("input", { type: "number", name: "computers", id: "computers", min: 0, max: 1, value: 1, inputmode: "numeric" });
    const level = el("select", { name: "level", id: "level" });
    for (const l of ME.levels) level.append(el("option", { value: l, selected: l === "easy", text: S.levels[l] || l }));
    const variants = el("fieldset", {}, el("legend", { text: S.variants }));
    const boxes = new Map(); // a variant (or "teams") -> its checkbox
    for (const v of ME.variants) {
      const box = el("input", { type: "checkbox", name: "variant", value: v, id: `variant-${v}` });
      boxes.set(v, box);
      variants.append(el("label", { for: `variant-${v}` }, box, " ", S.variant_names[v] || v));
    }
    const teams = el("input", { type: "checkbox", name: "teams", id: "teams" });
    boxes.set("teams", teams);
    variants.append(el("label", { for: "teams" }, teams, " ", S.teams));
    const hints = el("input", { type: "checkbox", name: "hints", id: "hints" });
    const hintsBox = el("label", { for: "hints", class: "hints-option" }, hints, " ", S.hints_option);
    const chosen = () => [...boxes].filter(([v, b]) => v !== "teams" && b.checked).map(([v]) => v);
    // Only what the engine accepts can be chosen: a box whose change would make an impossible table is disabled,
    // and a change of game or players that makes the ticked ones impossible keeps the nearest possible table.
    const fitOptions = () => {
      const n = +players.value;
      const here = ME.tables.filter((t) => t.startsWith(`${kind.value}/${n}/`));
      if (!legal.has(tableKey(kind.value, n, chosen(), teams.checked))) {
        const want = new Set([...chosen(), ...(teams.checked ? ["teams"] : [])]);
        let best = null, bestCost = Infinity;
        for (const t of here) {
          const [, , vs, tm] = t.split("/");
          const has = new Set([...(vs ? vs.split("+") : []), ...(tm === "teams" ? ["teams"] : [])]);
          const cost = [...want].filter((x) => !has.has(x)).length + [...has].filter((x) => !want.has(x)).length;
          if (cost < bestCost) { best = has; bestCost = cost; }
        }
        for (const [v, b] of boxes) b.checked = !!best && best.has(v);
      }
      for (const [v, b] of boxes) {
        const vs = new Set(chosen());
        let tm = teams.checked;
        if (v === "teams") tm = !tm; else if (vs.has(v)) vs.delete(v); else vs.add(v);
        b.disabled = !legal.has(tableKey(kind.value, n, vs, tm));
        b.closest("label").classList.toggle("off", b.disabled);
      }
    };
    const fit = () => {
      const [lo, hi] = ME.modes[kind.value].players;
      players.min = lo; players.max = hi;
      if (!(+players.value >= lo)) players.value = lo;
      if (+players.value > hi) players.value = hi;
      computers.max = +players.value - 1;
      if (+computers.value > +computers.max) computers.value = computers.max;
      if (+computers.value < 0) computers.value = 0;
      fitOptions();
    };
    kind.addEventListener("change", fit); players.addEventListener("input", fit); players.addEventListener("change", fit);
    for (const b of boxes.values()) b.addEventListener("change", fitOptions);
    fit();
    const form = el("form", { class: "newgame panel", "aria-labelledby": "new-h" },
      el("h2", { id: "new-h", text: S.new_game, style: "grid-column: 1 / -1" }),
      el("label", { for: "kind" }, S.game, kind), el("label", { for: "players" }, S.players, players),
      el("label", { for: "computers" }, S.computers, computers), el("label", { for: "level" }, S.level, level),
      variants, hintsBox, el("button", { class: "btn primary", type: "submit", id: "create", text: S.create }));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      fit();
      const body = {
        kind: kind.value, players: +players.value, computers: +computers.value, level: level.value,
        variants: chosen(), teams: teams.checked, hints: hints.checked, language: ME.lang,
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
      show(await api(`api/games/${id}`), true);
      if (SESSION) query = "&s=" + encodeURIComponent((await api(`api/games/${id}/stream`)).token);
    } catch (err) {
      $("main").replaceChildren(el("p", { class: "panel", text: err.message }));
      toast(err.message);
      return;
    }
    const shown = state && state.id === id ? state.version + (state.settling ? "-settling" : "") : -1; // as the stream's ids
    source = new EventSource(`api/games/${id}/events?v=${shown}${query}`);
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
  // A state of the game from the server (its live stream, or a read when the stream is refused): drawn, unless it
  // is the one on screen or older than a move drawn before the server confirmed it.
  // `again`: the reader's view itself changed (a seat taken or left: the same version, another person's view).
  function show(next, again) {
    if (pending && next.id === pending.base.id && next.version <= pending.base.version) { pending.base = next; return; }
    pending = null; // the server's word on the move shown at once (the same, or what happened instead)
    const same = (x, y) => JSON.stringify(x || null) === JSON.stringify(y || null);
    if (!again && state && state.id === next.id && state.version === next.version && !state.settling === !next.settling &&
      same(state.wait, next.wait) && !state.undo === !next.undo) return;
    if (state && next.version !== state.version) { pick = null; buildSlot = null; dragonSlot = null; dropHint(); }
    const first = !state || state.id !== next.id;
    state = next;
    rulesLink();
    restorePick();
    render(first);
    if (!first) speak();
    else { lastLog = state.log || []; lastLine = state.status_line || ""; }
  }
  function setLive(on) {
    const live = $("live");
    live.className = on ? "live on" : "live off";
    live.replaceChildren(el("span", { class: "words", text: on ? S.live : S.reconnecting }));
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
    const body = { version: state.version, action };
    if (through !== undefined) body.through = through;
    guideActed(action);
    const guess = foresee(action);
    if (guess) { // drawn at once, as the server will have it; its own frame follows (or a refusal puts it back)
      pending = { base: state };
      state = guess;
      pick = null;
      render();
    }
    try {
      const r = await api(`api/games/${gid}/act`, body);
      if (r.warning) toast(r.warning);
    } catch (err) {
      if (pending) { state = pending.base; pending = null; render(); }
      toast(err.message);
    } finally { busy = false; }
  }
  // A placement or a claim as it will leave the table (the move is the server's to judge: this only draws it a
  // little sooner): the domino in its kingdom with the points the server listed for it, the king on its claim.
  function foresee(action) {
    const a = myTurn() ? state.actions : null;
    if (!a || !state.turn || (action.type !== "place" && action.type !== "claim")) return null;
    const next = JSON.parse(JSON.stringify(state));
    next.settling = true;
    next.actions = null;
    next.guess = true;
    if (action.type === "claim") {
      const d = [...next.current, ...next.next].find((d) => d.domino === action.domino && !d.player);
      if (!d) return null;
      d.player = state.turn.player;
      return next;
    }
    const option = (a.place || []).find((p) => p.row === action.cell[0] && p.col === action.cell[1] && p.dir === action.direction);
    const d = next.current.find((d) => d.domino === a.domino);
    const k = next.kingdoms[state.turn.kingdom];
    if (!option || !d || !k) return null;
    const [dr, dc] = DIRS[option.dir];
    const cells = [[option.row, option.col], [option.row + dr, option.col + dc]];
    cells.forEach(([r, c], i) => k.cells.push([r, c, d.squares[i][0], d.squares[i][1]]));
    k.placed.push([d.domino, cells]);
    const rows = [k.bounds[0], k.bounds[2], ...cells.map(([r]) => r)], cols = [k.bounds[1], k.bounds[3], ...cells.map(([, c]) => c)];
    k.bounds = [Math.min(...rows), Math.min(...cols), Math.max(...rows), Math.max(...cols)];
    const reach = k.size - 1, edge = k.n - 1;
    k.frame = [Math.max(0, k.bounds[2] - reach), Math.max(0, k.bounds[3] - reach), Math.min(edge, k.bounds[0] + reach), Math.min(edge, k.bounds[1] + reach)];
    k.score += option.gain;
    next.placed = cells;
    return next;
  }
  async function post(what, body) {
    toast("");
    try {
      const r = await api(`api/games/${gid}/${what}`, Object.assign({ version: state.version }, body || {}));
      if (r && r.said) announce(r.said);
      if (what === "join" || what === "leave") openBoard(gid); // the live view is per person: connect again as who it is now
    } catch (err) { toast(err.message); }
  }


  // -- drawing -------------------------------------------------------------------------------------------------
  const seatOf = (player) => state.seats.find((s) => s.player === player);
  const nameOf = (player) => { const s = seatOf(player); return s ? s.name : player; };
  const seatStyle = (colour) => (colour ? `--seat:${colour}` : null);
  const kingdomTitle = (k) => k.players.map(nameOf).join(" & ");
  const myTurn = () => !!(state.turn && state.turn.you && !state.settling && state.actions);
  const key = (r, c) => `${r},${c}`;
  function use(href, x, y, size, attrs) {
    return sv("use", Object.assign({ href: "#" + href, x, y, width: size, height: size }, attrs || {}));
  }
  function icon(href, colour, cls) { // a piece as a small picture in the text (coins, knights, towers...)
    return sv("svg", { viewBox: "0 0 100 100", class: cls || null, "aria-hidden": "true", focusable: "false", color: colour || null }, use(href, 0, 0, 100));
  }
  function kingToken(player) {
    const s = seatOf(player);
    if (!s) return null;
    return el("span", { class: "king-token", style: seatStyle(s.colour), "aria-hidden": "true", "data-player": player },
      icon("king", s.colour), el("b", { class: "badge", text: String(s.seat + 1) }));
  }
  const kingBadge = kingToken;

  function render(first) {
    const main = $("main");
    const focusId = document.activeElement && document.activeElement.id;
    const before = first ? null : capture(); // where things stood: a change flies from there
    const scrolls = kingdomScrolls();
    $("title").replaceChildren(state.title, el("span", { class: "gid", text: ` #${state.id}` }));
    document.title = `${state.title} #${state.id}`;
    $("round").textContent = state.status === "playing" ? (state.round ? fmt(S.round, { round: state.round, rounds: state.rounds }) : S.first_line) : "";
    if (state.status === "lobby") main.replaceChildren(renderLobby());
    else if (state.status === "cancelled" || state.status === "expired" || state.status === "abandoned") {
      main.replaceChildren(el("p", { class: "panel", id: "closed" }, S.table_closed, " ", el("a", { href: "./", text: S.back })));
    }
    else { // one step: the old table is never taken down before the new one is up
      const table = renderTable();
      if (table.parentNode !== main || main.childNodes.length !== 1) main.replaceChildren(table);
    }
    restoreScrolls(scrolls);
    main.dataset.version = state.version;
    main.dataset.turn = state.status === "lobby" ? "lobby" : !state.turn ? "over" : state.turn.you && !state.settling ? state.turn.kind : "wait";
    if (focusId && $(focusId)) $(focusId).focus({ preventScroll: true });
    markGuide();
    if (state.status === "playing" && myTurn()) keepPick();
    if (state.wait) startTick();
    if (document.hidden) return; // played when the reader looks again
    resume();
    if (!first && before) play(before);
    seen = state;
  }

  // A table before its start: its seats (the host changes the computers' levels, removes them, and in team games
  // moves the seats), what the reader waits for, and only the buttons that do something for them.
  function renderLobby() {
    const lob = state.lobby;
    const host = lob.host && lob.seated;
    const seats = el("ol", { class: "seats", id: "seats" });
    state.seats.forEach((s, i) => {
      if (lob.teams && i % 2 === 0) seats.append(el("li", { class: "team", text: fmt(S.team, { number: i / 2 + 1 }) }));
      const tags = [s.you ? S.you : null, s.player === lob.host_player ? S.host : null].filter(Boolean);
      const li = el("li", { class: "seat", "data-player": s.player }, kingToken(s.player), el("span", { class: "sname", text: s.name }),
        tags.length ? el("span", { class: "stag", text: tags.join(", ") }) : null);
      if (host && s.computer) {
        const pick = el("select", { class: "level-pick", "aria-label": fmt(S.level_of, { name: s.name }), id: `level-${s.player.replace(":", "-")}` });
        for (const l of ME.levels) pick.append(el("option", { value: l, selected: l === s.computer, text: S.levels[l] || l }));
        pick.addEventListener("change", () => post("computers", { player: s.player, level: pick.value }));
        li.append(pick, el("button", { class: "btn icon-btn", id: `remove-${s.player.replace(":", "-")}`, "aria-label": fmt(S.remove, { name: s.name }), title: fmt(S.remove, { name: s.name }), text: "✕",
          on: { click: () => post("computers", { remove: s.player }) } }));
      } else if (s.computer) li.append(el("span", { class: "stag", text: `${S.computer}, ${S.levels[s.computer] || s.computer}` }));
      if (host && lob.teams) {
        const other = (j) => state.seats[j] && state.seats[j].player;
        if (i > 0) li.append(el("button", { class: "btn icon-btn", id: `up-${i}`, "aria-label": fmt(S.move_up, { name: s.name }), title: fmt(S.move_up, { name: s.name }), text: "↑", on: { click: () => post("seats", { swap: [s.player, other(i - 1)] }) } }));
        if (i < state.seats.length - 1) li.append(el("button", { class: "btn icon-btn", id: `down-${i}`, "aria-label": fmt(S.move_down, { name: s.name }), title: fmt(S.move_down, { name: s.name }), text: "↓", on: { click: () => post("seats", { swap: [s.player, other(i + 1)] }) } }));
      }
      seats.append(li);
    });
    for (let i = 0; i < lob.free; i++) seats.append(el("li", { class: "seat free", text: S.seat_free }));
    const bar = el("div", { class: "bar" });
    if (!lob.seated && lob.free > 0) bar.append(el("button", { class: "btn primary", id: "take-seat", text: S.take_seat, on: { click: () => post("join") } }));
    if (host && lob.free > 0) {
      const level = el("select", { id: "add-level", "aria-label": S.level });
      for (const l of ME.levels) level.append(el("option", { value: l, selected: l === "easy", text: S.levels[l] || l }));
      bar.append(el("span", { class: "add-computer" }, level, el("button", { class: "btn", id: "add-computer", text: S.add_computer, on: { click: () => post("computers", { level: level.value }) } })));
    }
    if (host && lob.can_start) bar.append(el("button", { class: "btn primary", id: "start", text: S.start, on: { click: () => post("start") } }));
    if (lob.seated) bar.append(el("button", { class: "btn", id: "leave", text: S.leave, on: { click: () => post("leave") } }));
    if (host) bar.append(el("button", { class: "btn danger", id: "cancel-table", text: S.cancel_table, on: { click: () => post("cancel") } }));
    const options = [...lob.variants.map((v) => S.variant_names[v] || v), lob.teams ? S.teams : null].filter(Boolean);
    return el("section", { class: "panel lobby", "aria-labelledby": "lobby-h" }, el("h2", { id: "lobby-h", text: lob.heading }),
      options.length ? el("p", { class: "tip", text: `${S.variants}: ${options.join(", ")}` }) : null,
      lob.hints ? el("p", { class: "tip", id: "hints-on", text: S.hints_table }) : null,
      seats, lob.line ? el("p", { class: "line mine", id: "lobby-line", role: "status", text: lob.line }) : null, bar);
  }

  // The table: on a phone one column (the lines, your kingdom, the builders, the others; the turn at the bottom),
  // on a wide screen three (the lines, builders and log; the turn and your kingdom; the others).
  // Drawn in parts (the lines, the builders' board, the log, the turn, each kingdom), each redrawn only when what it
  // shows changed: a tap on a square redraws your kingdom and the turn's bar, not the whole table.
  let drawn = null; // {skeleton, root, parts: Map(name -> {sig, node})}
  function renderTable() {
    const a = myTurn() ? state.actions : null;
    const main = mainKingdom();
    const order = [main, ...state.kingdoms.map((k) => k.index).filter((i) => i !== main)];
    const hasLines = !!(state.current.length || state.next.length);
    const finished = state.status === "finished";
    const skeleton = JSON.stringify([state.id, state.status, order, hasLines, state.queendomino, finished, state.seats]);
    const placed = [...placedSet()];
    const hinted = hintSig();
    const step = guideStep();
    const parts = [
      ["lines", [state.current, state.next, state.round, a && a.claim, state.turn, state.settling, placed, hinted], renderLines],
      ["builders", [state.builders, state.builders_why, state.dragon, a && [a.build, a.dragon], buildSlot, dragonSlot, state.kingdoms.map((k) => k.queen), hinted], renderBuilders],
      ["log", [state.log, canManage(), state.host, (state.seats || []).some((x) => x.you)], renderLog],
      ["dock", [state.status_line, state.turn, state.settling, a, pick, buildSlot, dragonSlot, state.undo, state.wait, state.hint, hinted, step && step.key], renderDock],
      ["end", [state.version, finished], renderEnd],
      ...order.map((i) => [`k${i}`, [state.kingdoms[i], i === main, state.turn, state.settling, state.placed, state.queendomino, i === main && [a, pick, buildSlot, hinted]], () => renderKingdom(state.kingdoms[i], i === main)]),
    ].filter(([name]) => (name !== "lines" || hasLines) && (name !== "builders" || state.queendomino) && (name !== "end" || finished))
      .map(([name, inputs, build]) => [name, JSON.stringify(inputs), build]);
    if (drawn && drawn.skeleton === skeleton && drawn.root.isConnected) {
      for (const [name, sig, build] of parts) {
        const was = drawn.parts.get(name);
        if (was.sig === sig) continue;
        const node = build();
        was.node.replaceWith(node);
        drawn.parts.set(name, { sig, node });
      }
      return drawn.root;
    }
    const made = new Map(parts.map(([name, sig, build]) => [name, { sig, node: build() }]));
    const node = (name) => (made.has(name) ? made.get(name).node : null);
    const others = order.slice(1);
    const left = el("div", { class: "col col-left" }, node("lines"), node("builders"), node("log"));
    const mid = el("div", { class: "col col-mid" }, node("dock"), node("end"), node(`k${main}`));
    const right = el("div", { class: "col col-right" }, el("div", { class: "others" + (others.length >= 3 ? " many" : "") }, ...others.map((i) => node(`k${i}`))));
    const root = el("div", { class: "table" + (state.kingdoms.length === 2 ? " two" : ""), "data-game": state.kind }, left, mid, right);
    drawn = { skeleton, root, parts: made };
    return root;
  }

  // Each step's tip says what to do and why (the rule behind it), with the kingdom's size where it matters.
  function tipFor(a) {
    if (!a) return "";
    const k = state.turn && state.kingdoms[state.turn.kingdom];
    const tip = { place: S.tip_place, claim: S.tip_claim, first_claim: S.tip_first_claim, tax: S.tip_tax, build: S.tip_build, dragon: S.tip_dragon }[a.kind];
    return tip ? fmt(tip, { size: k ? k.size : 5 }) : "";
  }
  // The turn in words and its buttons, kept in view at the bottom of a phone's screen (a tap never sends them away):
  // the first-game guide's card, the computers' countdown while they wait for a possible undo (with Play now),
  // a hint when the table allows it, and Undo only while the server would do it.
  function renderDock() {
    const a = myTurn() ? state.actions : null;
    const acting = state.turn ? seatOf(state.turn.player) : null;
    const line = el("p", { class: "line" + (state.turn && state.turn.you ? " mine" : ""), id: "status-line" },
      state.turn ? null : icon("crown", null, "btn-icon"), state.turn ? "" : " ", state.status_line || "");
    const step = guideStep();
    const tip = pick || step ? "" : a ? tipFor(a) : state.turn && !state.seats.some((s) => s.you) ? S.watching : "";
    const bar = el("div", { class: "bar" });
    if (pick) {
      const option = pick.options[pick.i];
      bar.append(el("button", { class: "btn", id: "rotate", text: S.rotate, disabled: pick.options.length < 2, on: { click: rotate } }));
      bar.append(el("button", { class: "btn primary", id: "confirm", text: `${S.confirm} (${option.words})`, on: { click: confirmPlace } }));
      bar.append(el("button", { class: "btn", id: "cancel", text: S.cancel, on: { click: () => { pick = null; render(); } } }));
    }
    const shown = hintAction();
    if (a && a.tax && !pick && dragonSlot === null && buildSlot === null) {
      for (const t of a.tax) {
        const [r, c] = t.cells[0];
        const text = t.cells.length === 2 ? fmt(S.both_squares, { coins: t.words }) : `${cellName(r, c)}: ${t.words}`;
        const hinted = shown && shown.type === "tax" && JSON.stringify(shown.cells) === JSON.stringify(t.cells);
        bar.append(el("button", { class: "btn" + (hinted ? " hinted" : ""), id: t.cells.length === 2 ? "tax-both" : `tax-btn-${cellName(r, c)}`, on: { click: () => act({ type: "tax", cells: t.cells }) } },
          icon("knight", acting && acting.colour, "btn-icon"), " ", text));
      }
    }
    if (a && a.skip && a.kind !== "place" && !pick) {
      bar.append(el("button", { class: "btn" + (shown && shown.type === "skip" ? " hinted" : ""), id: "skip", text: S.skip, on: { click: () => act({ type: "skip" }, false) } }));
    }
    if (a && state.hint && !pick && !step && !(hint && hint.gid === gid && hint.version === state.version)) { // (the guide first)
      bar.append(el("button", { class: "btn", id: "hint", on: { click: askHint } }, icon("star", null, "btn-icon"), " ", S.hint_button));
    }
    const wait = state.wait && state.status === "playing" ? el("p", { class: "wait", id: "wait", role: "status" },
      el("span", { id: "wait-left", text: waitWords() }), state.undo ? el("span", { class: "wait-undo", text: " " + S.wait_undo }) : null) : null;
    if (wait && waitLeft() > 0) bar.append(el("button", { class: "btn primary", id: "play-now", text: S.play_now, on: { click: playNow } }));
    if (state.undo && state.turn !== null && !pick) bar.append(el("button", { class: "btn", id: "undo", text: S.undo, on: { click: () => post("undo") } }));
    return el("section", { class: "panel dock" + (state.turn ? "" : " over"), id: "dock", "aria-label": state.title, style: seatStyle(acting && acting.colour) },
      guideCard(step), line, tip ? el("p", { class: "tip", id: "tip", text: tip }) : null, wait, hintBox(), bar.childNodes.length ? bar : null);
  }

  // -- the computers' wait for a possible undo: a countdown, and Play now (as Discord's "Computers, play now") ------
  const waitLeft = () => (state && state.wait ? Math.max(0, Math.min(state.wait.seconds, Math.ceil((state.wait.until - Date.now()) / 1000))) : 0);
  function waitWords() {
    const left = waitLeft();
    return left > 0 ? fmt(S.computers_wait, { seconds: left }) : S.computers_playing;
  }
  function startTick() {
    if (tick) return;
    tick = setInterval(() => {
      const node = $("wait-left");
      if (!node || !state || !state.wait) { clearInterval(tick); tick = null; return; }
      const words = waitWords();
      if (node.textContent !== words) node.textContent = words;
      if (waitLeft() <= 0) { const b = $("play-now"); if (b) b.remove(); }
    }, 250);
  }
  async function playNow() {
    toast("");
    try { await api(`api/games/${gid}/play-now`, { version: state.version }); } catch (err) { toast(err.message); }
    const b = $("play-now");
    if (b) b.remove();
  }

  // -- a hint: the move the hard computer player would make, worked out by the server (never on the page) -----------
  function dropHint() {
    if (hint) clearTimeout(hint.timer);
    hint = null;
  }
  const hintHere = () => (hint && hint.gid === gid && state && hint.version === state.version ? hint : null);
  function hintAction() { const h = hintHere(); return h && h.status === "ready" && h.data ? h.data.action : null; }
  function hintSig() { const h = hintHere(); return h ? [h.status, h.data && h.data.action] : null; }
  function askHint() {
    dropHint();
    hint = { gid, version: state.version, status: "pending", text: S.hint_working, data: null, timer: null, wait: 700 };
    render();
    pollHint(hint);
  }
  async function pollHint(h) {
    let r;
    try { r = await api(`api/games/${h.gid}/hint`, { version: h.version }); }
    catch (err) { if (hint === h) { hint = null; render(); } toast(err.message); return; }
    if (hint !== h) return; // the game moved on meanwhile
    if (r.status === "pending") {
      h.text = r.text;
      h.timer = setTimeout(() => pollHint(h), h.wait);
      h.wait = Math.min(h.wait * 1.5, 4000);
      return;
    }
    h.status = r.status; h.text = r.text || ""; h.data = r.hint || null;
    render();
    if (h.data) announce(`${h.data.line} ${h.data.gain}`);
  }
  function hintBox() {
    const h = hintHere();
    if (!h) return null;
    if (h.status !== "ready" || !h.data) return el("p", { class: "hint-line", id: "hint-line", role: "status", "aria-busy": h.status === "pending" ? "true" : null, text: h.text });
    return el("div", { class: "hint-line ready", id: "hint-line", role: "status" }, icon("star", null, "btn-icon"), " ",
      el("span", { class: "hint-move", text: h.data.line }), " ", el("span", { class: "hint-gain", text: h.data.gain }));
  }

  // -- the first-game guide: in a browser that never played, the first turn's three taps one after the other (choose
  // a spot, confirm, take your next domino), marked on the real controls; Queendomino's tax, build and dragon the
  // first time each comes. Skippable; never shown again once done or skipped. --------------------------------------
  function loadGuide() {
    try { return JSON.parse(localStorage.getItem(GUIDE_KEY) || "{}") || {}; } catch (e) { return {}; }
  }
  function saveGuide() {
    try { localStorage.setItem(GUIDE_KEY, JSON.stringify(guide)); } catch (e) { /* a browser that keeps nothing: shown again */ }
  }
  const ECONOMY = { tax: "[id^=tax-]", build: ".slot.build", dragon: ".slot.burn" };
  function guideStep() {
    if (guide.off || !state || state.status !== "playing" || !myTurn()) return null;
    const a = state.actions, k = state.kingdoms[state.turn.kingdom];
    if (ECONOMY[a.kind] && !guide[a.kind] && !pick && buildSlot === null && dragonSlot === null) {
      return { key: a.kind, text: S[`guide_${a.kind}`], marks: ECONOMY[a.kind] };
    }
    if (guide.first) return null;
    if (a.kind === "first_claim") return { key: "welcome", text: S.guide_welcome, marks: ".dom.legal" };
    if (a.kind === "place") {
      return pick ? { key: "confirm", n: 2, text: S.guide_confirm, marks: "#confirm" }
        : { key: "spot", n: 1, text: fmt(S.guide_spot, { size: k ? k.size : 5 }), marks: ".cell-legal[id^=cell-]" };
    }
    if (guide.placed && (a.kind === "claim" || ECONOMY[a.kind])) return { key: "next", n: 3, text: S.guide_next, marks: ".dom.legal" };
    return null;
  }
  function guideActed(action) {
    if (guide.off || !state || !myTurn()) return;
    const kind = state.actions.kind;
    if (ECONOMY[kind]) guide[kind] = true; // (its card is hidden while a building is chosen: done all the same)
    if (kind === "place" && action.type === "place") guide.placed = true;
    if (action.type === "claim" && guide.placed && kind !== "first_claim") guide.first = true;
    saveGuide();
  }
  function guideCard(step) {
    if (!step) return null;
    const head = step.n ? fmt(S.guide_title, { step: step.n, steps: 3 }) : S.guide_label;
    return el("div", { class: "guide", id: "guide", role: "note", "aria-label": S.guide_label, "data-step": step.key },
      el("div", { class: "guide-top" }, el("p", { class: "guide-head" }, icon("star", null, "btn-icon"), " ", head),
        el("button", { class: "btn", id: "guide-skip", text: S.guide_skip, on: { click: () => { guide.off = true; saveGuide(); render(); } } })),
      el("p", { class: "guide-text", text: step.text }));
  }
  // The step's marks on the real controls; a new step brings its first mark into view (the next line after a
  // placement is above the kingdom, often scrolled away).
  let guideShown = null;
  function markGuide() {
    for (const node of document.querySelectorAll(".guide-mark")) node.classList.remove("guide-mark");
    const step = guideStep();
    if (step) for (const node of document.querySelectorAll(step.marks)) node.classList.add("guide-mark");
    const key = step ? `${state.version}:${step.key}` : null;
    if (key && key !== guideShown && step.key !== "confirm") inView(document.querySelector(".guide-mark"));
    guideShown = key;
  }

  // -- a chosen but unconfirmed spot outlives a reload (this tab's sessionStorage, for this version of the game) ----
  function keepPick() {
    try {
      const name = `kd_pick:${gid}`;
      if (!pick) { sessionStorage.removeItem(name); return; }
      const o = pick.options[pick.i];
      sessionStorage.setItem(name, JSON.stringify({ v: state.version, row: o.row, col: o.col, dir: o.dir }));
    } catch (e) { /* no storage: nothing kept */ }
  }
  function restorePick() {
    if (pick || !myTurn() || !state.actions.place) return;
    let saved = null;
    try { saved = JSON.parse(sessionStorage.getItem(`kd_pick:${gid}`) || "null"); } catch (e) { return; }
    if (!saved || saved.v !== state.version) return;
    const options = state.actions.place.filter((p) => p.row === saved.row && p.col === saved.col).sort((p, q) => q.gain - p.gain);
    const i = options.findIndex((p) => p.dir === saved.dir);
    if (i >= 0) pick = { row: saved.row, col: saved.col, options, i };
  }
  function renderEnd() {
    const box = el("section", { class: "panel end", "aria-labelledby": "final-h" }, el("h2", { id: "final-h", text: S.final }));
    box.append(renderScores(), el("p", { class: "final", id: "final", text: state.final || "" }));
    wantReview();
    const r = renderReview();
    return r ? el("div", { class: "end-wrap end" }, box, r) : box;
  }

  // -- the lines ------------------------------------------------------------------------------------------------
  function dominoWords(d) { return (state.domino_words && state.domino_words[d.domino]) || String(d.number); }
  function squareG(x, y, terrain, crowns, title) { // named (`title`: the cell, its terrain in words, its crowns) on a kingdom
    const g = sv("g", { class: "sq", "data-terrain": terrain, role: title ? "img" : null, "aria-label": title || null },
      use("ground-" + terrain, x, y, U), use("emblem-" + terrain, x + EMBLEM[0], y + EMBLEM[1], EMBLEM[2], { class: "mark emblem" }));
    if (crowns) {
      const total = crowns * CROWN.size + (crowns - 1) * CROWN.gap;
      for (let i = 0, cx = x + (U - total) / 2; i < crowns; i++, cx += CROWN.size + CROWN.gap) g.append(use("crown", cx, y + CROWN.y, CROWN.size, { class: "mark crown" }));
    }
    if (title) g.append(sv("title", { text: title }));
    return g;
  }
  function dominoSvg(squares) {
    const svg = sv("svg", { class: "domino", viewBox: "0 0 200 100", "aria-hidden": "true", focusable: "false" });
    squares.forEach(([terrain, crowns], i) => svg.append(squareG(i * U, 0, terrain, crowns)));
    svg.append(sv("rect", { x: 1.5, y: 1.5, width: 197, height: 97, rx: 4, fill: "none", stroke: "#101218", "stroke-width": 3 }));
    return svg;
  }
  function placedSet() { return new Set(state.kingdoms.flatMap((k) => k.placed.map(([d]) => d))); }
  function renderLine(list, heading, claimable, id, placed) {
    const box = el("div", { class: "line-list", role: "list", "aria-labelledby": id });
    const acting = state.turn && state.turn.domino;
    const shown = hintAction();
    for (const d of list) {
      const legal = claimable.includes(d.domino);
      const seat = d.player ? seatOf(d.player) : null;
      const who = d.player ? nameOf(d.player) : "";
      const label = legal ? fmt(S.claim, { domino: dominoWords(d) }) : `${dominoWords(d)}${who ? " — " + who : ""}`;
      const holder = el("span", { class: "holder" });
      if (d.player) holder.append(el("span", { "data-fly": `king:${d.domino}` }, kingToken(d.player)), el("span", { class: "who", text: who }));
      else holder.append(el("span", { class: "free", text: S.free || "" }));
      const hinted = legal && shown && shown.type === "claim" && shown.domino === d.domino;
      const cls = "dom" + (legal ? " legal" : "") + (acting === d.domino ? " acting" : "") + (placed.has(d.domino) ? " placed" : "") + (hinted ? " hinted" : "");
      const svg = dominoSvg(d.squares);
      svg.dataset.fly = `dom:${d.domino}`;
      const node = el(legal ? "button" : "div", {
        class: cls, role: legal ? null : "listitem", tabindex: legal || !who ? null : "0", title: who || null,
        id: `dom-${d.domino}`, "aria-label": label, "data-domino": d.domino, style: seatStyle(seat && seat.colour),
        on: legal ? { click: () => act({ type: "claim", domino: d.domino }) } : null,
      }, el("span", { class: "num", text: state.kind === "royal-wedding" ? d.domino : String(d.number) }), svg, holder,
        hinted ? icon("star", null, "hint-star") : null);
      box.append(legal ? el("div", { role: "listitem" }, node) : node);
    }
    return el("div", { class: "line-col" }, el("h2", { id, text: heading }), box);
  }
  function renderLines() {
    const a = myTurn() ? state.actions : {};
    const claims = a.claim || [];
    const firstRound = state.round === 0;
    if (!state.current.length && !state.next.length) return null; // the game is over: no line is left to show
    const placed = placedSet();
    const current = renderLine(state.current, firstRound ? S.first_line : S.current_line, firstRound ? claims : [], "line-current", placed);
    const next = state.next.length ? renderLine(state.next, S.next_line, firstRound ? [] : claims, "line-next", placed) : null;
    return el("section", { class: "panel lines" + (next ? "" : " single") }, current, next);
  }

  // -- the builders' board --------------------------------------------------------------------------------------
  // A building you can build and one the dragon would burn look and read differently (a coin and "Build", a dragon
  // and "Burn with the dragon"); one you cannot afford says why; the dragon's confirmation is beside the building.
  function renderBuilders() {
    const a = myTurn() ? state.actions : {};
    const buildable = new Set((a.build || []).map((b) => b.slot));
    const burnable = new Set(a.dragon || []);
    const shown = hintAction();
    const box = el("div", { class: "builders" });
    state.builders.forEach((b, slot) => {
      if (!b) {
        const burned = state.dragon === slot;
        box.append(el("div", { class: "slot empty" + (burned ? " burned" : ""), id: `slot-${slot}` },
          burned ? el("span", { "data-fly": "dragon-at" }, icon("dragon", null, "pic")) : null,
          el("span", { class: "bname", text: burned ? S.burned : "—" })));
        return;
      }
      const canBuild = buildable.has(slot);
      const canBurn = burnable.has(slot) && !canBuild;
      const legal = canBuild || canBurn;
      const chosen = buildSlot === slot || dragonSlot === slot;
      const hinted = shown && (shown.type === "build" || shown.type === "dragon") && shown.slot === slot;
      const label = (canBuild ? fmt(S.build, { building: b.name, coins: b.cost }) : canBurn ? fmt(S.burn_with_dragon, { building: b.name })
        : `${b.name}, ${fmt(S.cost, { coins: b.cost })}`) + (b.why ? ". " + b.why : "");
      const pic = icon("building-" + b.id, null, "pic");
      pic.dataset.fly = `slot:${b.id}`;
      const tag = canBuild ? el("span", { class: "act act-build" }, icon("coin"), S.slot_build)
        : canBurn ? el("span", { class: "act act-burn" }, icon("dragon"), S.slot_burn) : null;
      box.append(el(legal ? "button" : "div", {
        class: "slot" + (canBuild ? " legal build" : canBurn ? " legal burn" : "") + (chosen ? " chosen" : "") + (hinted ? " hinted" : "") + (b.why ? " cannot" : ""),
        title: b.name, id: `slot-${slot}`, "aria-label": label + ". " + b.effect, "aria-pressed": legal ? String(chosen) : null,
        on: legal ? { click: () => chooseSlot(slot, canBuild) } : null,
      }, pic, el("span", { class: "cost" }, icon("coin"), el("span", { text: String(b.cost) })), el("span", { class: "bname", text: b.name }),
      tag, b.why ? el("small", { class: "why", text: b.why }) : el("small", { class: "effect", text: b.effect })));
      if (dragonSlot === slot) box.append(burnConfirm(b));
    });
    const foot = el("p", { class: "board-foot" });
    const host = state.kingdoms.find((k) => k.queen);
    foot.append(el("span", { "data-fly": state.dragon === null || state.dragon === undefined ? "dragon" : null }, icon("dragon"),
      state.dragon === null || state.dragon === undefined ? S.dragon_cave : fmt(S.dragon_flew, { slot: state.dragon + 1 })));
    foot.append(el("span", {}, icon("queen"), host ? fmt(S.queen_host, { host: kingdomTitle(host) }) : S.queen_no_host));
    const why = myTurn() && state.builders_why ? el("p", { class: "why", id: "builders-why", text: state.builders_why }) : null;
    return el("section", { class: "panel builders-panel" }, el("h2", { text: S.builders }), box, why, foot);
  }
  // The burn's confirmation, in the builders' grid right after the building tapped (the whole row: beside it).
  function burnConfirm(b) {
    return el("div", { class: "slot-confirm", id: "burn-confirm" },
      el("button", { class: "btn primary burn", id: "confirm", on: { click: () => act({ type: "dragon", slot: dragonSlot }) } },
        icon("dragon", null, "btn-icon"), " ", fmt(S.burn_confirm, { building: b.name })),
      el("button", { class: "btn", id: "cancel", text: S.cancel, on: { click: () => { dragonSlot = null; render(); } } }));
  }
  function chooseSlot(slot, build) {
    pick = null;
    if (build) { buildSlot = buildSlot === slot ? null : slot; dragonSlot = null; }
    else { dragonSlot = dragonSlot === slot ? null : slot; buildSlot = null; }
    render();
    if (buildSlot !== null) {
      const cell = document.querySelector(".cell-legal[id^=build-]");
      if (cell) { cell.focus({ preventScroll: true }); inView(cell); }
    }
    if (dragonSlot !== null) { const b = $("confirm"); if (b) { b.focus({ preventScroll: true }); inView($("burn-confirm")); } }
  }

  // -- the kingdoms ---------------------------------------------------------------------------------------------
  // Your kingdom (the one acting, when it is your move), drawn large; the others compact beside or under it.
  function mainKingdom() {
    const you = state.seats.filter((s) => s.you).map((s) => s.player);
    const acting = state.turn ? state.turn.kingdom : null;
    const mine = acting !== null && state.turn.you ? acting : state.kingdoms.findIndex((k) => k.players.some((p) => you.includes(p)));
    return mine >= 0 ? mine : acting !== null ? acting : 0;
  }
  // The cells a kingdom is shown in: its squares and `ring` cells around them, never beyond what the engine's size
  // limit lets it still reach (`frame`): a 7x7 kingdom is never an empty 13x13 frame.
  function windowOf(k, ring) {
    const [t, l, b, r] = k.bounds, [ft, fl, fb, fr] = k.frame;
    return [Math.max(ft, t - ring), Math.max(fl, l - ring), Math.min(fb, b + ring), Math.min(fr, r + ring)];
  }
  // While placing: the kingdom and every cell the domino can cover, no more (the zoom onto what it can reach).
  function reachOf(k, place) {
    let [t, l, b, r] = k.bounds;
    for (const p of place) {
      const [dr, dc] = DIRS[p.dir];
      t = Math.min(t, p.row, p.row + dr); b = Math.max(b, p.row, p.row + dr);
      l = Math.min(l, p.col, p.col + dc); r = Math.max(r, p.col, p.col + dc);
    }
    return [t, l, b, r];
  }
  function renderKingdom(k, isMain) {
    const seat = seatOf(k.players[0]);
    const colour = seat ? seat.colour : null;
    const acting = state.turn && state.turn.kingdom === k.index;
    const a = isMain && acting && myTurn() ? state.actions : null;
    const placing = !!(a && a.place);
    const targeted = !!(a && (placing || (a.tax && a.tax.length) || buildSlot !== null));
    const name = kingdomTitle(k);
    const score = el("span", { class: "kscore", "data-score": k.index }, el("span", { class: "sr", text: S.score + " " }), el("b", { text: String(k.score) }), S.pts || "");
    const head = el("header", { class: "khead", tabindex: "0", title: name },
      el("span", { class: "kings" }, ...k.players.map(kingToken)), el("span", { class: "kname", text: name }),
      acting && state.turn ? el("span", { class: "tag", text: S.to_play || "" }) : null, score);
    return el("section", { class: "panel kingdom" + (isMain ? " main-k" : "") + (acting ? " acting" : ""), id: `kingdom-${k.index}`, "aria-label": fmt(S.kingdom_of, { name }), style: seatStyle(colour) },
      head, state.queendomino ? kingdomFacts(k, colour) : null,
      el("div", { class: "kwrap", "data-kingdom": k.index }, kingdomGrid(k, placing ? reachOf(k, a.place) : windowOf(k, 1), a, targeted, colour)), buildingLegend(k));
  }
  function fact(href, words, value, colour) {
    return el("span", {}, icon(href, colour), el("span", { class: "sr", text: words + " " }), el("b", { text: String(value) }));
  }
  function kingdomFacts(k, colour) {
    const p = el("p", { class: "kfacts" }, fact("coin", S.coins, k.coins), fact("knight", S.knights, k.reserve, colour), fact("tower", S.towers, k.towers));
    if (k.queen) p.append(el("span", {}, icon("queen"), S.queen));
    return p;
  }
  // What a kingdom's building pictures stand for, each building once.
  function buildingLegend(k) {
    const named = new Map(k.buildings.map((b) => [b.id, b.name]));
    if (!named.size) return null;
    return el("p", { class: "legend" }, ...[...named].sort((x, y) => x[1].localeCompare(y[1])).map(([id, name]) => el("span", { "data-building": id }, icon("building-" + id), name)));
  }

  function kingdomGrid(k, [top, left, bottom, right], a, targeted, colour) {
    const rows = bottom - top + 1, cols = right - left + 1;
    const grid = el("div", { class: "kgrid" + (targeted ? " zoomed" : "") });
    grid.style.setProperty("--cols", cols);
    grid.style.setProperty("--rows", rows);
    const letters = el("div", { class: "kcols", "aria-hidden": "true" });
    for (let c = left; c <= right; c++) letters.append(el("span", { text: String.fromCharCode(65 + c) }));
    const numbers = el("div", { class: "krows", "aria-hidden": "true" });
    for (let r = top; r <= bottom; r++) numbers.append(el("span", { text: String(r + 1) }));
    const svg = sv("svg", { class: "ksvg", viewBox: `0 0 ${cols * U} ${rows * U}`, role: "group", "aria-label": fmt(S.kingdom_of, { name: kingdomTitle(k) }) });
    const at = { top, left, x: (c) => (c - left) * U, y: (r) => (r - top) * U, inside: (r, c) => r >= top && r <= bottom && c >= left && c <= right };
    drawSquares(svg, k, at, colour);
    drawMarks(svg, k, at, colour, a);
    if (a) drawTargets(svg, k, at, a, colour);
    grid.append(letters, el("div", { class: "kbody" }, numbers, svg));
    return grid;
  }
  function drawSquares(svg, k, at, colour) {
    const filled = new Map(k.cells.map(([r, c, t, n]) => [key(r, c), [t, n]]));
    const [cr, cc] = k.castle;
    for (let r = at.top; at.inside(r, at.left); r++) for (let c = at.left; at.inside(r, c); c++) {
      if (!filled.has(key(r, c)) && !(r === cr && c === cc)) svg.append(sv("rect", { class: "empty", x: at.x(c) + 2, y: at.y(r) + 2, width: U - 4, height: U - 4, rx: 5, fill: "#2b323e" }));
    }
    svg.append(sv("g", { class: "castle", role: "img", "aria-label": `${S.castle} ${cellName(cr, cc)}` }, use("square-castle", at.x(cc), at.y(cr), U, { color: colour })));
    const built = new Set(k.buildings.map((b) => key(...b.cell)));
    const fresh = new Set((state.placed || []).map(([r, c]) => key(r, c)));
    for (const [dom, cells] of k.placed) {
      if (!cells.every(([r, c]) => filled.has(key(r, c)))) continue;
      const g = sv("g", { class: "placed-dom", "data-domino": dom });
      for (const [r, c] of cells) {
        if (!at.inside(r, c)) continue;
        const [t, n] = filled.get(key(r, c));
        if (built.has(key(r, c))) g.append(use("plate-building", at.x(c), at.y(r), U, { class: "built" }));
        else g.append(squareG(at.x(c), at.y(r), t, n, fmt(S.cell, { cell: cellName(r, c), terrain: S.terrains[t], crowns: n })));
      }
      const [[r0, c0], [r1, c1]] = cells;
      const x0 = at.x(Math.min(c0, c1)), y0 = at.y(Math.min(r0, r1));
      const w = (Math.abs(c1 - c0) + 1) * U, h = (Math.abs(r1 - r0) + 1) * U;
      const isNew = state.turn && state.turn.kingdom === k.index && cells.every(([r, c]) => fresh.has(key(r, c)));
      g.append(sv("rect", { x: x0 + 1.5, y: y0 + 1.5, width: w - 3, height: h - 3, rx: 3, fill: "none", stroke: isNew ? "#ffec78" : "#101218", "stroke-width": isNew ? 6 : 3 }));
      svg.append(g);
    }
  }
  // Knights, the queen, towers and buildings: each in its own place on its square, so no mark hides another.
  function drawMarks(svg, k, at, colour, a) {
    const marks = new Map();
    const add = (cell, mark) => { if (!at.inside(...cell)) return; const kk = key(...cell); if (!marks.has(kk)) marks.set(kk, []); marks.get(kk).push(mark); };
    for (const cell of k.knights) add(cell, { href: "knight", cls: "knight", color: colour, title: `${S.knights}: ${cellName(...cell)}` });
    if (k.queen && k.queen_cell) add(k.queen_cell, { href: "queen", cls: "queen", title: S.queen });
    if (a && a.tax) for (const t of a.tax.filter((t) => t.cells.length === 1)) add(t.cells[0], { href: "knight", cls: "ghost", color: colour });
    const built = new Map(k.buildings.map((b) => [key(...b.cell), b]));
    for (const b of k.buildings) {
      if (!at.inside(...b.cell)) continue;
      const [r, c] = b.cell, x = at.x(c), y = at.y(r);
      const g = sv("g", { class: "building", "data-building": b.id }, use("building-" + b.id, x + PICTURE[0], y + PICTURE[1], PICTURE[2], { class: "mark building", "data-cell": key(r, c) }), sv("title", { text: `${b.name} (${cellName(r, c)})` }));
      const band = [];
      for (let i = 0; i < Math.min(b.towers, 3); i++) band.push({ href: "tower", cls: "tower" });
      for (let i = 0; i < b.crowns; i++) band.push({ href: "crown", cls: "crown" });
      band.push(...(marks.get(key(r, c)) || []));
      const size = Math.min(BAND.size, (BAND.right - BAND.left - 2 * (band.length - 1)) / Math.max(1, band.length));
      band.forEach((m, i) => g.append(markUse(m, x + BAND.left + i * (size + 2), y + BAND.y, size, r, c)));
      svg.append(g);
    }
    for (const [kk, list] of marks) {
      if (built.has(kk)) continue;
      const [r, c] = kk.split(",").map(Number);
      list.forEach((m, i) => { const [sx, sy, side] = SLOTS[Math.min(i, SLOTS.length - 1)]; svg.append(markUse(m, at.x(c) + sx, at.y(r) + sy, side, r, c)); });
    }
  }
  function markUse(m, x, y, size, r, c) {
    const node = use(m.href, x, y, size, { class: "mark " + m.cls, color: m.color || null, "data-cell": key(r, c) });
    if (m.title) node.append(sv("title", { text: m.title }));
    return node;
  }
  function target(svg, x, y, label, onPick, id, dot) {
    const g = sv("g", { class: "cell-legal", role: "button", tabindex: "0", "aria-label": label, id });
    g.append(sv("rect", { x, y, width: U, height: U, fill: "transparent" })); // the whole square takes the tap
    g.append(sv("rect", { class: "hit", x: x + 3, y: y + 3, width: U - 6, height: U - 6, rx: 8, fill: "rgba(120,240,200,0.16)", stroke: "#78f0c8", "stroke-width": 5, "stroke-dasharray": "12 7" }));
    if (dot) g.append(sv("circle", { cx: x + U / 2, cy: y + U / 2, r: 9, fill: "#78f0c8", "fill-opacity": 0.8 }));
    g.addEventListener("click", onPick);
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(); } });
    svg.append(g);
  }
  function drawTargets(svg, k, at, a, colour) {
    if (a.place) {
      const anchors = new Map();
      for (const p of a.place) { const kk = key(p.row, p.col); if (!anchors.has(kk)) anchors.set(kk, []); anchors.get(kk).push(p); }
      const covered = new Set();
      if (pick) {
        const o = pick.options[pick.i], [dr, dc] = DIRS[o.dir];
        covered.add(key(o.row, o.col)).add(key(o.row + dr, o.col + dc));
      }
      for (const [kk, options] of anchors) {
        if (covered.has(kk)) continue;
        const [r, c] = kk.split(",").map(Number);
        options.sort((p, q) => q.gain - p.gain);
        target(svg, at.x(c), at.y(r), fmt(S.place_at, { cell: cellName(r, c), gain: options[0].words }),
          () => { pick = { row: r, col: c, options, i: 0 }; render(); const b = $("confirm"); if (b) b.focus({ preventScroll: true }); inView($("preview")); }, `cell-${cellName(r, c)}`, true);
      }
      if (pick) drawPreview(svg, at);
    }
    const shown = hintAction();
    if (shown && shown.type === "place") {
      const [dr, dc] = DIRS[shown.direction], [r, c] = shown.cell;
      hintMark(svg, at, [[r, c], [r + dr, c + dc]]);
    }
    if (shown && (shown.type === "tax" || (shown.type === "build" && buildSlot === shown.slot))) hintMark(svg, at, shown.cells || [shown.cell]);
    if (a.tax) {
      for (const t of a.tax.filter((t) => t.cells.length === 1)) {
        const [r, c] = t.cells[0];
        target(svg, at.x(c), at.y(r), `${S.knights} → ${cellName(r, c)}: ${t.words}`, () => act({ type: "tax", cells: t.cells }), `tax-${cellName(r, c)}`, false);
      }
    }
    if (buildSlot !== null && a.build) {
      const b0 = state.builders[buildSlot];
      for (const b of a.build.filter((b) => b.slot === buildSlot)) {
        target(svg, at.x(b.col), at.y(b.row), `${fmt(S.build, { building: b0.name, coins: b0.cost })}: ${cellName(b.row, b.col)}`,
          () => act({ type: "build", slot: b.slot, cell: [b.row, b.col] }), `build-${cellName(b.row, b.col)}`, false);
      }
    }
  }
  // The hint's cells, outlined in gold over the kingdom (the marks take no tap: the squares under them do).
  function hintMark(svg, at, cells) {
    const g = sv("g", { class: "hint-mark", id: "hint-mark", "pointer-events": "none" });
    cells.forEach(([r, c], i) => {
      if (!at.inside(r, c)) return;
      g.append(sv("rect", { x: at.x(c) + 4, y: at.y(r) + 4, width: U - 8, height: U - 8, rx: 10, fill: "#f6c440", "fill-opacity": 0.28, stroke: "#f6c440", "stroke-width": 7 }));
      if (i === 0) g.append(use("star", at.x(c) + 30, at.y(r) + 30, 40, { color: "#f6c440" }));
    });
    svg.append(g);
  }
  function drawPreview(svg, at) {
    const option = pick.options[pick.i];
    const d = state.current.find((d) => d.domino === state.actions.domino);
    const [dr, dc] = DIRS[option.dir];
    const cells = [[option.row, option.col], [option.row + dr, option.col + dc]];
    const g = sv("g", { id: "preview", role: "button", tabindex: "0", class: "cell-legal preview", "aria-label": fmt(S.preview, { domino: dominoWords(d), cell: cellName(option.row, option.col), direction: S.directions[option.dir], gain: option.words }) });
    const [r0, c0] = cells[0], [r1, c1] = cells[1];
    const x0 = at.x(Math.min(c0, c1)), y0 = at.y(Math.min(r0, r1)), w = (Math.abs(c1 - c0) + 1) * U, h = (Math.abs(r1 - r0) + 1) * U;
    g.append(sv("rect", { class: "hit", x: x0 - 4, y: y0 - 4, width: w + 8, height: h + 8, rx: 8, fill: "#ffec78", "fill-opacity": 0.35 }));
    cells.forEach(([r, c], i) => g.append(squareG(at.x(c), at.y(r), d.squares[i][0], d.squares[i][1])));
    g.append(sv("rect", { x: x0 + 2, y: y0 + 2, width: w - 4, height: h - 4, rx: 4, fill: "none", stroke: "#ffec78", "stroke-width": 7 }));
    g.addEventListener("click", rotate);
    g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); rotate(); } });
    svg.append(g);
  }
  // The preview stays where the reader tapped; only when its second square falls under the turn's bar or off the
  // screen does the page move, by just that much.
  function inView(node) {
    if (!node) return;
    const r = node.getBoundingClientRect();
    const dock = $("dock"), head = document.querySelector(".top");
    const bottom = dock && getComputedStyle(dock).position === "sticky" ? dock.getBoundingClientRect().top : innerHeight;
    const top = head ? head.getBoundingClientRect().bottom : 0;
    if (r.bottom > bottom - 4) scrollBy(0, r.bottom - bottom + 8);
    else if (r.top < top + 4) scrollBy(0, r.top - top - 8);
  }
  function rotate() {
    if (!pick) return;
    pick.i = (pick.i + 1) % pick.options.length;
    render();
    inView($("preview"));
    announce(fmt(S.preview, { domino: "", cell: cellName(pick.row, pick.col), direction: S.directions[pick.options[pick.i].dir], gain: pick.options[pick.i].words }));
  }
  function confirmPlace() {
    if (!pick) return;
    const o = pick.options[pick.i];
    act({ type: "place", cell: [o.row, o.col], direction: o.dir });
  }
  // A zoomed kingdom (your move on a phone: 44 px squares or more) scrolls sideways: kept where the reader left it
  // across redraws, centred on the kingdom when the zoom begins.
  function kingdomScrolls() {
    const out = new Map();
    for (const w of document.querySelectorAll(".kwrap")) out.set(w.dataset.kingdom, [w.scrollLeft, !!w.querySelector(".zoomed")]);
    return out;
  }
  function restoreScrolls(before) {
    for (const w of document.querySelectorAll(".kwrap")) {
      if (!w.querySelector(".zoomed") || w.scrollWidth <= w.clientWidth) continue; // (only a zoom scrolls)
      const [left, zoomed] = before.get(w.dataset.kingdom) || [0, false];
      w.scrollLeft = zoomed ? left : (w.scrollWidth - w.clientWidth) / 2;
    }
  }

  function renderScores() {
    const table = el("table", { class: "scores" });
    const head = [S.players, S.score];
    if (state.queendomino) head.push(S.coins, S.knights, S.towers);
    table.append(el("thead", {}, el("tr", {}, ...head.map((h) => el("th", { scope: "col", text: h })))));
    const body = el("tbody");
    state.kingdoms.forEach((k) => {
      const row = [kingdomTitle(k), k.score];
      if (state.queendomino) row.push(k.coins, k.reserve + k.knights.length, k.towers);
      body.append(el("tr", {}, ...row.map((v, j) => el(j ? "td" : "th", { scope: j ? null : "row", text: String(v) }))));
    });
    table.append(body);
    return table;
  }
  // A local table's life in play: a seated person may leave it for good (a computer takes the seat), its host may
  // cancel it (each asked first). Under the log, which a phone keeps folded: out of the way of the turn.
  function canManage() {
    return !!(ME && ME.local && state.status === "playing" && (state.host || (state.seats || []).some((x) => x.you)));
  }
  function manageBar() {
    const bar = el("div", { class: "bar manage", id: "manage", role: "group", "aria-label": S.this_table });
    if ((state.seats || []).some((x) => x.you)) {
      bar.append(el("button", { class: "btn", id: "leave-game", text: S.leave_game, on: { click: () => { if (window.confirm(S.leave_game_ask)) post("leave"); } } }));
    }
    if (state.host) {
      bar.append(el("button", { class: "btn danger", id: "cancel-game", text: S.cancel_table, on: { click: () => { if (window.confirm(S.cancel_game_ask)) post("cancel"); } } }));
    }
    return bar;
  }
  function renderLog() {
    const lines = state.log || [];
    const list = el("ol", { class: "log", id: "log" });
    for (const line of lines) list.append(el("li", { text: line }));
    const open = logOpen === null ? WIDE.matches : logOpen;
    const latest = lines.length ? el("span", { class: "latest", text: lines[lines.length - 1] }) : null;
    const box = el("details", { class: "panel log-panel", open }, el("summary", {}, el("span", { class: "log-h", text: S.log }), latest), list, canManage() ? manageBar() : null);
    box.addEventListener("toggle", () => { logOpen = box.open; });
    return box;
  }

  // -- motion: what changed since the reader last looked plays once (a domino slides from its line into its
  // kingdom, a king moves to its claim, a building comes down from the builders' board, the dragon burns its
  // building), each under 400 ms; nothing moves under prefers-reduced-motion. --------------------------------------
  function capture() {
    const at = new Map();
    for (const node of document.querySelectorAll("[data-fly]")) at.set(node.dataset.fly, { node, rect: node.getBoundingClientRect() });
    return at;
  }
  const visible = (r) => r.width > 0 && r.bottom > 0 && r.right > 0 && r.top < innerHeight && r.left < innerWidth;
  let moving = []; // motions under way, by selector: a redraw meanwhile hands them to its new nodes (`resume`)
  function move(selector, frames, duration, easing) {
    const node = document.querySelector(selector);
    if (!node) return;
    node.animate(frames, { duration, easing });
    moving.push({ selector, frames, duration, easing, start: performance.now() });
  }
  function resume() {
    const now = performance.now();
    moving = moving.filter((m) => now - m.start < m.duration);
    for (const m of moving) {
      const node = document.querySelector(m.selector);
      if (node) node.animate(m.frames, { duration: m.duration, easing: m.easing }).currentTime = now - m.start;
    }
  }
  function play(before) {
    if (!seen || seen === state || seen.id !== state.id || STILL.matches || !state.kingdoms || !seen.kingdoms) return;
    if (seen.version === state.version && !state.guess) return; // the same version again (settled), or a tap's redraw
    const old = seen;
    const oldK = new Map(old.kingdoms.map((k) => [k.index, k]));
    for (const k of state.kingdoms) {
      const was = oldK.get(k.index);
      if (!was || !$(`kingdom-${k.index}`)) continue;
      const within = `#kingdom-${k.index}`;
      const placed = new Set(was.placed.map(([d]) => d));
      for (const [dom, [[r0, c0], [r1, c1]]] of k.placed) {
        if (placed.has(dom)) continue;
        const dir = c1 > c0 ? "right" : r1 > r0 ? "down" : c1 < c0 ? "left" : "up";
        flyOrDrop(before.get(`dom:${dom}`), `${within} g.placed-dom[data-domino="${dom}"]`, TURNS[dir], true);
      }
      const builtBefore = new Set(was.buildings.map((b) => key(...b.cell)));
      for (const b of k.buildings) {
        if (!builtBefore.has(key(...b.cell))) flyOrDrop(before.get(`slot:${b.id}`), `${within} .mark.building[data-cell="${key(...b.cell)}"]`, 0, false);
      }
      const knightsBefore = new Set(was.knights.map((c) => key(...c)));
      for (const cell of k.knights) if (!knightsBefore.has(key(...cell))) drop(`${within} .mark.knight[data-cell="${key(...cell)}"]`);
      if (was.score !== k.score) move(`${within} .kscore b`, [{ transform: "scale(1.4)", color: "#f6c440" }, { transform: "scale(1)" }], DROP_MS, "ease-out");
    }
    moveKings(old, before);
    burn(old, before);
  }
  function moveKings(old, before) {
    const oldHolder = new Map([...old.current, ...old.next].map((d) => [d.domino, d.player]));
    for (const d of [...state.current, ...state.next]) {
      if (!d.player || oldHolder.get(d.domino) === d.player || !oldHolder.has(d.domino)) continue;
      const acted = old.turn && old.turn.player === d.player ? before.get(`king:${old.turn.domino}`) : null;
      const from = acted || [...before].find(([k, v]) => k.startsWith("king:") && !v.used && oldHolder.get(k.slice(5)) === d.player)?.[1];
      flyOrDrop(from, `[data-fly="king:${d.domino}"]`, 0, false);
    }
  }
  function burn(old, before) {
    if (old.dragon !== null && old.dragon !== undefined) return;
    if (state.dragon === null || state.dragon === undefined) return;
    flyOrDrop(before.get("dragon"), `#slot-${state.dragon} [data-fly=dragon-at]`, 0, false);
    const lost = old.builders && old.builders[state.dragon];
    const was = lost ? before.get(`slot:${lost.id}`) : null;
    if (was && visible(was.rect)) ghost(was, [{ transform: "none", opacity: 1 }, { transform: "scale(0.3) rotate(-20deg)", opacity: 0 }], FLY_MS);
    move(`#slot-${state.dragon}`, [{ boxShadow: "0 0 0 6px #ff7a30", backgroundColor: "#8a2a18" }, { boxShadow: "0 0 0 0 transparent" }], FLY_MS, "ease-out");
  }
  function ghost(from, frames, duration) {
    if (from.used) return null;
    from.used = true;
    const node = from.node.isConnected ? from.node.cloneNode(true) : from.node; // a part not redrawn keeps its own
    node.removeAttribute("data-fly");
    node.style.left = `${from.rect.left}px`; node.style.top = `${from.rect.top}px`;
    node.style.width = `${from.rect.width}px`; node.style.height = `${from.rect.height}px`;
    $("fx").append(node);
    const run = node.animate(frames, { duration, easing: "cubic-bezier(.3,.7,.3,1)" });
    const done = () => node.remove();
    run.onfinish = done; run.oncancel = done;
    return run;
  }
  // A piece flies from where it was (`from`: its old place, if the reader could see it) to its new place (`to`, a
  // selector), turned by `turn` degrees, and shows there as it lands; else it drops into place.
  function flyOrDrop(from, to, turn, scale) {
    const node = document.querySelector(to);
    if (!node) return;
    if (!from || from.used || !visible(from.rect)) { drop(to); return; }
    const r = node.getBoundingClientRect();
    if (!visible(r)) return;
    const dx = r.left + r.width / 2 - (from.rect.left + from.rect.width / 2), dy = r.top + r.height / 2 - (from.rect.top + from.rect.height / 2);
    const s = scale ? Math.max(r.width, r.height) / from.rect.width : 1;
    ghost(from, [{ transform: "none" }, { transform: `translate(${dx}px, ${dy}px) rotate(${turn}deg) scale(${s})` }], FLY_MS);
    move(to, [{ opacity: 0 }, { opacity: 0, offset: 0.85 }, { opacity: 1 }], FLY_MS, "linear");
  }
  function drop(to) {
    move(to, [{ transform: "scale(1.5)", opacity: 0 }, { transform: "scale(1)", opacity: 1 }], DROP_MS, "ease-out");
  }
  document.addEventListener("visibilitychange", () => { if (!document.hidden && state && seen && seen.version !== state.version && state.kingdoms) render(); });

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
