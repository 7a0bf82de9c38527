/*
 * The game page client: joins the game's Socket.IO room on namespace /game, renders every
 * `state` the server sends (the server is authoritative; this page only sends intents),
 * streams engine `thinking`, and drives the panels: players and clocks, status line,
 * result banner, move list with replay, move entry, actions, engine panel and evaluation
 * graph. Drawing is delegated to board.js, strings to i18n.js.
 */
(function () {
  "use strict";

  const I18N = window.I18N;
  const t = (key, params) => I18N.t(key, params);
  const COLUMNS = window.GomokuBoard.COLUMNS;
  const MATE = 30000;
  const MATE_BOUND = MATE - 1000;

  const root = document.getElementById("game");
  const gameId = root.dataset.gameId;
  const $ = (id) => document.getElementById(id);

  let state = JSON.parse($("initial-state").textContent);
  let viewPly = null; // null follows the live position; a number shows that many moves
  let hint = null; // {move, score, depth, pv, ply}
  const thinking = { black: null, white: null }; // latest engine report per colour
  let clockStamp = performance.now();
  let connected = false;
  let pendingMove = null;
  const baseTitle = document.title;

  const board = new window.GomokuBoard.BoardView($("board"), { onPoint: playMove });
  const showNumbers = $("toggle-numbers");
  const showPv = $("toggle-pv");
  showNumbers.checked = localStorage.getItem("gomoku.numbers") === "1";
  showPv.checked = localStorage.getItem("gomoku.pv") !== "0";

  // ---- points and formatting --------------------------------------------------------

  function pointName(point, size) {
    return COLUMNS[point[0]] + String(size - point[1]);
  }

  function parsePoint(text, size) {
    const name = /^\s*([a-zA-Z])\s*(\d{1,2})\s*$/.exec(text);
    let x;
    let y;
    if (name) {
      x = COLUMNS.indexOf(name[1].toLowerCase());
      y = size - parseInt(name[2], 10);
    } else {
      const pair = /^\s*(\d{1,2})\s*,\s*(\d{1,2})\s*$/.exec(text);
      if (!pair) return null;
      x = parseInt(pair[1], 10);
      y = parseInt(pair[2], 10);
    }
    if (x < 0 || y < 0 || x >= size || y >= size) return null;
    return [x, y];
  }

  function colorOfPly(index) {
    return index % 2 === 0 ? "black" : "white";
  }

  function formatScore(score) {
    if (score === null || score === undefined) return "–";
    if (Math.abs(score) >= MATE_BOUND) {
      const moves = Math.max(1, Math.ceil((MATE - Math.abs(score)) / 2));
      return (score > 0 ? "+#" : "−#") + moves;
    }
    const value = (score / 100).toFixed(2);
    return score > 0 ? "+" + value : score < 0 ? "−" + value.slice(1) : value;
  }

  function formatCount(n) {
    if (n === null || n === undefined) return "–";
    if (n >= 1e9) return (n / 1e9).toFixed(1) + "G";
    if (n >= 1e6) return (n / 1e6).toFixed(1) + "M";
    if (n >= 1e3) return (n / 1e3).toFixed(1) + "k";
    return String(n);
  }

  function formatClock(ms) {
    const clamped = Math.max(0, ms);
    const total = clamped < 10000 ? clamped / 1000 : Math.ceil(clamped / 1000);
    const minutes = Math.floor(total / 60);
    const seconds = total - minutes * 60;
    if (clamped < 10000) return `0:0${seconds.toFixed(1)}`;
    return `${minutes}:${String(Math.floor(seconds)).padStart(2, "0")}`;
  }

  function pvText(pv, size) {
    if (!pv || !pv.length) return "–";
    return pv.map((p) => pointName(p, size)).join(" ");
  }

  // ---- toasts -----------------------------------------------------------------------

  function toast(message, kind) {
    const box = document.createElement("div");
    box.className = "toast " + (kind || "error");
    box.textContent = message;
    $("toasts").appendChild(box);
    setTimeout(() => box.classList.add("leaving"), 3600);
    setTimeout(() => box.remove(), 4000);
  }

  // ---- socket -----------------------------------------------------------------------

  // WebSocket first: it needs no sticky sessions when several server processes share the
  // load; long-polling remains as a fallback where WebSockets are blocked.
  const socket = window.io("/game", {
    transports: ["websocket", "polling"],
    tryAllTransports: true,
  });

  socket.on("connect", () => {
    connected = true;
    $("conn-banner").hidden = true;
    socket.emit("join", { game_id: gameId });
  });
  socket.on("disconnect", () => {
    connected = false;
    pendingMove = null;
    $("conn-banner").hidden = false;
    render();
  });
  socket.on("connect_error", () => {
    $("conn-banner").hidden = false;
  });
  socket.on("state", (incoming) => {
    if (!incoming || incoming.id !== gameId) return;
    applyState(incoming);
  });
  socket.on("spectators", (payload) => {
    if (!payload || (payload.game_id && payload.game_id !== gameId)) return;
    const count = typeof payload === "number" ? payload : (payload.count ?? payload.spectators);
    if (typeof count === "number") {
      state.spectators = count;
      $("spectator-count").textContent = String(count);
    }
  });
  socket.on("thinking", (info) => {
    if (!info || (info.game_id && info.game_id !== gameId)) return;
    if (info.color !== "black" && info.color !== "white") return;
    thinking[info.color] = Object.assign({}, info, { ply: state.moves.length, live: true });
    renderThinking();
    renderEval();
    renderBoard();
  });
  socket.on("hint", (info) => {
    if (!info || (info.game_id && info.game_id !== gameId)) return;
    hint = Object.assign({}, info, { ply: state.moves.length });
    if (info.move) toast(t("game.hint_toast", { move: pointName(info.move, state.size) }), "info");
    renderBoard();
  });
  socket.on("error", (err) => {
    pendingMove = null;
    const code = err && err.code ? err.code : "bad_request";
    const known = I18N.has("error." + code) ? t("error." + code) : null;
    const message = err && err.message ? err.message : "";
    toast(known && message ? `${known}: ${message}` : known || message || code, "error");
    render();
  });

  function send(event, payload) {
    if (!connected) {
      toast(t("error.offline"), "error");
      return false;
    }
    socket.emit(event, Object.assign({ game_id: gameId }, payload || {}));
    return true;
  }

  // ---- state ------------------------------------------------------------------------

  function applyState(incoming) {
    if (incoming.version < state.version && incoming.rematch === state.rematch) return;
    const movesChanged =
      incoming.moves.length !== state.moves.length ||
      incoming.moves.some(
        (m, i) => !state.moves[i] || m[0] !== state.moves[i][0] || m[1] !== state.moves[i][1],
      );
    const rematchAppeared = !state.rematch && incoming.rematch;
    const opponentArrived = state.status === "waiting" && incoming.status === "active";
    state = incoming;
    clockStamp = performance.now();
    pendingMove = null;
    if (movesChanged) {
      hint = null;
      for (const color of ["black", "white"]) {
        const info = thinking[color];
        if (info && info.ply > state.moves.length) thinking[color] = null;
        else if (info) info.live = false;
      }
      settledThinking();
      if (viewPly !== null && viewPly > state.moves.length) viewPly = null;
    }
    if (opponentArrived && incoming.mode === "friend") toast(t("game.opponent_joined"), "info");
    if (rematchAppeared) {
      window.location.assign("/g/" + encodeURIComponent(incoming.rematch));
      return;
    }
    render();
  }

  function isPlayer() {
    return state.you === "black" || state.you === "white";
  }

  function shownPly() {
    return viewPly === null ? state.moves.length : viewPly;
  }

  function canPlayNow() {
    return (
      connected &&
      viewPly === null &&
      state.status === "active" &&
      isPlayer() &&
      state.you === state.turn &&
      state.players[state.turn] &&
      state.players[state.turn].kind === "human" &&
      !pendingMove
    );
  }

  function playMove(x, y) {
    if (state.status !== "active") {
      toast(t("error.game_over"), "error");
      return;
    }
    if (!isPlayer()) {
      toast(t("error.not_a_player"), "error");
      return;
    }
    if (state.you !== state.turn) {
      toast(t("error.not_your_turn"), "error");
      return;
    }
    if (state.moves.some((m) => m[0] === x && m[1] === y)) {
      toast(t("error.occupied"), "error");
      return;
    }
    if (send("move", { x, y, version: state.version })) {
      pendingMove = [x, y];
      render();
    }
  }

  // ---- rendering --------------------------------------------------------------------

  function render() {
    root.dataset.status = state.status;
    root.dataset.version = String(state.version);
    root.dataset.moveCount = String(state.moves.length);
    root.dataset.you = state.you || "";
    root.dataset.turn = state.turn || "";
    root.classList.toggle("is-finished", state.status === "finished");
    const myTurn = state.status === "active" && isPlayer() && state.you === state.turn;
    document.title = (myTurn ? "● " : "") + baseTitle;
    renderBoard();
    renderPlayers();
    renderStatus();
    renderBanner();
    renderActions();
    renderMoves();
    renderThinking();
    renderEval();
    $("spectator-count").textContent = String(state.spectators || 0);
    const hasAi = ["black", "white"].some(
      (c) => state.players[c] && state.players[c].kind === "ai",
    );
    $("eval-card").hidden = !hasAi && !(state.evals && state.evals.length);
    $("meta-rule").textContent = t("rule." + state.rule);
    const shareUrl = window.location.origin + "/g/" + gameId;
    $("share-link").value = shareUrl;
    $("share-card").hidden = !(state.status === "waiting" && state.mode === "friend");
  }

  function currentPv() {
    if (!showPv.checked || viewPly !== null || state.status !== "active") return [];
    const ply = state.moves.length;
    let source = null;
    if (hint && hint.ply === ply && hint.pv) {
      source = { pv: hint.pv, color: state.turn };
    } else {
      const info = thinking[state.turn];
      if (info && info.ply === ply && info.pv) source = { pv: info.pv, color: info.color };
    }
    if (!source) return [];
    let color = source.color;
    return source.pv.map((p) => {
      const step = { x: p[0], y: p[1], color };
      color = color === "black" ? "white" : "black";
      return step;
    });
  }

  function renderBoard() {
    const shown = shownPly();
    const stones = state.moves.slice(0, shown).map((m, i) => ({
      x: m[0],
      y: m[1],
      color: colorOfPly(i),
      number: i + 1,
    }));
    if (pendingMove) {
      stones.push({
        x: pendingMove[0],
        y: pendingMove[1],
        color: state.turn,
        number: stones.length + 1,
      });
    }
    const atEnd = shown === state.moves.length;
    const live = viewPly === null;
    board.update({
      size: state.size,
      stones,
      lastMove: stones.length ? [stones[stones.length - 1].x, stones[stones.length - 1].y] : null,
      winLine: atEnd && state.result && state.result.line ? state.result.line : [],
      forbidden:
        live && state.status === "active" && state.turn === "black" ? state.forbidden || [] : [],
      pv: currentPv(),
      showNumbers: showNumbers.checked,
      showPv: showPv.checked,
      interactive: canPlayNow(),
      ghostColor: state.you,
    });
    $("replay-position").textContent = `${shown} / ${state.moves.length}`;
    $("nav-first").disabled = shown === 0;
    $("nav-prev").disabled = shown === 0;
    $("nav-next").disabled = atEnd;
    $("nav-last").disabled = atEnd;
    root.classList.toggle("replaying", !live);
  }

  function playerLabel(player) {
    if (!player) return "";
    if (player.kind === "ai") {
      // MCTS and external engines have no level: their registry name says who they are.
      if (!player.level) return player.name || "AI";
      const levelName = I18N.has(`level.${player.level}.name`)
        ? t(`level.${player.level}.name`)
        : "";
      return t("player.ai", { level: player.level }) + (levelName ? ` · ${levelName}` : "");
    }
    if (!player.name || player.name === "Guest") return t("player.guest");
    return player.name;
  }

  function liveClockMs(color) {
    const clock = state.clock;
    if (!clock) return 0;
    const base = clock[color + "_ms"];
    if (clock.running === color && state.status === "active") {
      return base - (performance.now() - clockStamp);
    }
    return base;
  }

  function renderClocks() {
    for (const color of ["black", "white"]) {
      const row = $("player-" + color);
      const clockEl = row.querySelector(".clock");
      if (!state.clock) {
        clockEl.hidden = true;
        continue;
      }
      clockEl.hidden = false;
      const ms = liveClockMs(color);
      clockEl.textContent = formatClock(ms);
      clockEl.classList.toggle(
        "running",
        state.clock.running === color && state.status === "active",
      );
      clockEl.classList.toggle("low", ms < 20000);
    }
  }

  function renderPlayers() {
    for (const color of ["black", "white"]) {
      const player = state.players[color];
      const row = $("player-" + color);
      row.querySelector(".name").textContent = playerLabel(player);
      row.querySelector(".you-tag").hidden = state.you !== color;
      const detail = row.querySelector(".detail");
      const dot = row.querySelector(".conn-dot");
      const openSeat =
        !player ||
        (player.kind === "human" &&
          state.status === "waiting" &&
          !player.connected &&
          state.you !== color);
      if (openSeat) {
        row.querySelector(".name").textContent = t("player.open_seat");
        detail.textContent = t("player.waiting");
        dot.className = "conn-dot waiting";
      } else if (player.kind === "ai") {
        detail.textContent = t("color." + color) + " · " + t("player.engine");
        dot.className = "conn-dot ai";
      } else {
        detail.textContent =
          t("color." + color) + " · " + t(player.connected ? "player.online" : "player.offline");
        dot.className = "conn-dot " + (player.connected ? "online" : "offline");
      }
      row.classList.toggle("to-move", state.status === "active" && state.turn === color);
    }
    renderClocks();
  }

  function resultText(result) {
    if (!result) return "";
    if (!result.winner) return result.reason === "full" ? t("result.draw_full") : t("result.draw");
    const winner = t("color." + result.winner + "_cap");
    const loser = t("color." + (result.winner === "black" ? "white" : "black") + "_lower");
    const key = "result." + (result.reason || "five");
    const text = t(I18N.has(key) ? key : "result.win", { winner, loser });
    // An external engine that lost by failing says why (crashed, illegal move, silent).
    return result.detail ? `${text} (${result.detail})` : text;
  }

  function renderStatus() {
    let text;
    const status = $("status");
    status.className = "status-line";
    if (state.status === "waiting") {
      text = t("status.waiting");
      status.classList.add("waiting");
    } else if (state.status === "finished") {
      text = resultText(state.result);
      status.classList.add("finished");
    } else {
      const mover = state.players[state.turn];
      if (mover && mover.kind === "ai") {
        text =
          state.mode === "aivai"
            ? t("status.ai_side_thinking", { color: t("color." + state.turn + "_cap") })
            : t("status.ai_thinking");
        status.classList.add("thinking");
      } else if (state.you === state.turn) {
        text = t("status.your_turn");
        status.classList.add("your-turn");
      } else if (isPlayer()) {
        text = t("status.opponent_turn");
      } else {
        text = t("status.to_move", { color: t("color." + state.turn + "_cap") });
      }
    }
    if (!connected && state.status !== "finished") text += " · " + t("game.reconnecting");
    status.textContent = text;
  }

  function renderBanner() {
    const banner = $("result-banner");
    const finished = state.status === "finished" && state.result;
    banner.hidden = !finished;
    if (!finished) return;
    const result = state.result;
    banner.className = "result-banner " + (result.winner ? "win-" + result.winner : "draw");
    $("result-title").textContent = resultText(result);
    let sub = "";
    if (isPlayer()) {
      if (!result.winner) sub = t("result.you_drew");
      else sub = result.winner === state.you ? t("result.you_won") : t("result.you_lost");
    }
    $("result-sub").textContent = sub;
    $("result-sub").hidden = !sub;
    $("btn-rematch").hidden = !(
      isPlayer() &&
      (state.mode === "ai" || state.mode === "friend") &&
      !state.rematch
    );
    const link = $("rematch-link");
    link.hidden = !state.rematch;
    if (state.rematch) link.href = "/g/" + encodeURIComponent(state.rematch);
  }

  function renderActions() {
    const active = state.status === "active";
    const player = isPlayer();
    const myMoves = state.moves.filter((_, i) => colorOfPly(i) === state.you).length;
    $("btn-undo").hidden = !(state.mode === "ai" && player && active && myMoves > 0);
    $("btn-hint").hidden = !(player && active && state.mode !== "aivai");
    $("btn-hint").disabled = state.you !== state.turn;
    $("btn-resign").hidden = !(player && active);
    const takeback = state.takeback;
    $("btn-takeback").hidden = !(
      state.mode === "friend" &&
      player &&
      active &&
      !takeback &&
      myMoves > 0
    );
    const offer = $("takeback-offer");
    if (takeback && player && state.status === "active") {
      offer.hidden = false;
      const mine = takeback.by === state.you;
      $("takeback-text").textContent = mine
        ? t("takeback.sent")
        : t("takeback.offered", { color: t("color." + takeback.by + "_cap") });
      $("btn-accept").hidden = mine;
      $("btn-decline").hidden = mine;
    } else {
      offer.hidden = true;
    }
    const form = $("move-form");
    form.hidden = !(player && active && state.mode !== "aivai");
    const canMove = canPlayNow();
    $("move-input").disabled = !(player && active);
    $("btn-play").disabled = !canMove;
  }

  function renderMoves() {
    const list = $("move-list");
    const shown = shownPly();
    list.textContent = "";
    $("moves-empty").hidden = state.moves.length > 0;
    for (let i = 0; i < state.moves.length; i += 2) {
      const item = document.createElement("li");
      item.className = "move-pair";
      const number = document.createElement("span");
      number.className = "move-no";
      number.textContent = String(i / 2 + 1);
      item.appendChild(number);
      for (const j of [i, i + 1]) {
        if (j >= state.moves.length) break;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "move " + colorOfPly(j);
        button.dataset.ply = String(j + 1);
        button.textContent = pointName(state.moves[j], state.size);
        if (j + 1 === shown) button.classList.add("current");
        button.addEventListener("click", () => goTo(j + 1));
        item.appendChild(button);
      }
      list.appendChild(item);
    }
    const current = list.querySelector(".current");
    if (current && viewPly === null) list.scrollTop = list.scrollHeight;
    else if (current) current.scrollIntoView({ block: "nearest" });
  }

  // A quick search streams no reports: its figures arrive with its move, in the evals.
  // The panel then shows the engine's latest finished move unless a live report is newer.
  function settledThinking() {
    for (const color of ["black", "white"]) {
      const own = (state.evals || []).filter((e) => (e.ply % 2 === 1) === (color === "black"));
      const last = own[own.length - 1];
      if (!last || typeof last.depth !== "number") continue;
      const info = thinking[color];
      if (info && info.ply >= last.ply - 1) continue;
      thinking[color] = {
        color,
        depth: last.depth,
        score: color === "black" ? last.score : -last.score,
        nodes: last.nodes,
        nps:
          last.ms > 0 && typeof last.nodes === "number"
            ? Math.round((last.nodes * 1000) / last.ms)
            : null,
        pv: state.pv && state.pv.ply === last.ply ? state.pv.moves : [],
        ply: last.ply - 1,
        live: false,
      };
    }
  }

  function renderThinking() {
    const card = $("thinking-card");
    const aiColors = ["black", "white"].filter(
      (c) => state.players[c] && state.players[c].kind === "ai",
    );
    card.hidden = aiColors.length === 0;
    for (const color of ["black", "white"]) {
      const side = $("thinking-" + color);
      const isAi = aiColors.includes(color);
      side.hidden = !isAi;
      if (!isAi) continue;
      side.querySelector(".thinking-name").textContent = playerLabel(state.players[color]);
      const busy =
        state.status === "active" &&
        state.turn === color &&
        (state.thinking ? state.thinking.color === color : true);
      side.querySelector(".spinner").hidden = !busy;
      side.classList.toggle("busy", busy);
      const info = thinking[color];
      const has = (key) => info && info[key] !== undefined && info[key] !== null;
      side.querySelector(".t-depth").textContent = has("depth") ? String(info.depth) : "–";
      side.querySelector(".t-score").textContent = has("score") ? formatScore(info.score) : "–";
      side.querySelector(".t-nps").textContent = has("nps") ? formatCount(info.nps) + "/s" : "–";
      side.querySelector(".t-nodes").textContent = has("nodes") ? formatCount(info.nodes) : "–";
      side.querySelector(".t-pv").textContent = info ? pvText(info.pv, state.size) : "–";
      // MCTS counts playouts, not nodes; an external engine's own words are shown as sent.
      const nodesLabel = side.querySelector(".t-nodes-label");
      const labelKey = info && info.engine === "mcts" ? "think.playouts" : "think.nodes";
      if (nodesLabel && nodesLabel.dataset.i18n !== labelKey) {
        nodesLabel.dataset.i18n = labelKey;
        nodesLabel.textContent = t(labelKey);
      }
      const text = side.querySelector(".t-text");
      if (text) {
        const raw = info && info.engine === "external" && info.text ? info.text : "";
        text.textContent = raw;
        text.hidden = !raw;
      }
    }
  }

  // Squash scores so a few hundred centi-units are visible and mates pin to the edge.
  function squash(score) {
    if (Math.abs(score) >= MATE_BOUND) return Math.sign(score);
    return Math.tanh(score / 600);
  }

  function renderEval() {
    const svg = $("eval-graph");
    const W = 300;
    const H = 80;
    const points = (state.evals || []).map((e) => ({ ply: e.ply, score: e.score, live: false }));
    const mover = state.turn;
    const info = thinking[mover];
    if (
      state.status === "active" &&
      info &&
      info.ply === state.moves.length &&
      typeof info.score === "number"
    ) {
      const blackView = mover === "black" ? info.score : -info.score;
      points.push({ ply: state.moves.length + 1, score: blackView, live: true });
    }
    const maxPly = Math.max(10, state.moves.length + 1, ...points.map((p) => p.ply));
    const px = (ply) => (ply / maxPly) * W;
    const py = (score) => H / 2 - squash(score) * (H / 2 - 3);
    const parts = [];
    parts.push(`<rect x="0" y="0" width="${W}" height="${H / 2}" class="eval-black-zone"/>`);
    parts.push(`<rect x="0" y="${H / 2}" width="${W}" height="${H / 2}" class="eval-white-zone"/>`);
    parts.push(`<line x1="0" y1="${H / 2}" x2="${W}" y2="${H / 2}" class="eval-axis"/>`);
    const settled = points.filter((p) => !p.live);
    if (points.length) {
      const line = points
        .map((p, i) => `${i ? "L" : "M"}${px(p.ply).toFixed(1)},${py(p.score).toFixed(1)}`)
        .join(" ");
      const first = points[0];
      const last = points[points.length - 1];
      const area = `M${px(first.ply).toFixed(1)},${H / 2} ${line.replace(/^M/, "L")} L${px(last.ply).toFixed(1)},${H / 2} Z`;
      parts.push(`<path d="${area}" class="eval-area"/>`);
      if (settled.length) {
        const solid = settled
          .map((p, i) => `${i ? "L" : "M"}${px(p.ply).toFixed(1)},${py(p.score).toFixed(1)}`)
          .join(" ");
        parts.push(`<path d="${solid}" class="eval-line"/>`);
        const end = settled[settled.length - 1];
        parts.push(
          `<circle cx="${px(end.ply).toFixed(1)}" cy="${py(end.score).toFixed(1)}" r="2.5" class="eval-dot"/>`,
        );
      }
      if (last.live) {
        const prev = settled.length ? settled[settled.length - 1] : null;
        if (prev) {
          parts.push(
            `<line x1="${px(prev.ply).toFixed(1)}" y1="${py(prev.score).toFixed(1)}" x2="${px(last.ply).toFixed(1)}" y2="${py(last.score).toFixed(1)}" class="eval-live-line"/>`,
          );
        }
        parts.push(
          `<circle cx="${px(last.ply).toFixed(1)}" cy="${py(last.score).toFixed(1)}" r="3" class="eval-live-dot"/>`,
        );
      }
    }
    const shown = shownPly();
    if (points.length)
      parts.push(
        `<line x1="${px(shown).toFixed(1)}" y1="0" x2="${px(shown).toFixed(1)}" y2="${H}" class="eval-cursor"/>`,
      );
    svg.innerHTML = parts.join("");
    svg.dataset.points = String(points.length);
  }

  // ---- replay -----------------------------------------------------------------------

  function goTo(ply) {
    const total = state.moves.length;
    const clamped = Math.max(0, Math.min(total, ply));
    viewPly = clamped === total ? null : clamped;
    render();
  }

  $("nav-first").addEventListener("click", () => goTo(0));
  $("nav-prev").addEventListener("click", () => goTo(shownPly() - 1));
  $("nav-next").addEventListener("click", () => goTo(shownPly() + 1));
  $("nav-last").addEventListener("click", () => goTo(state.moves.length));
  $("eval-graph").addEventListener("click", (event) => {
    const rect = event.currentTarget.getBoundingClientRect();
    const maxPly = Math.max(10, state.moves.length + 1);
    goTo(Math.round(((event.clientX - rect.left) / rect.width) * maxPly));
  });

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (
      target &&
      (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")
    )
      return;
    if (target && target.id === "board") return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const actions = {
      ArrowLeft: () => goTo(shownPly() - 1),
      ArrowRight: () => goTo(shownPly() + 1),
      ArrowUp: () => goTo(0),
      ArrowDown: () => goTo(state.moves.length),
      Home: () => goTo(0),
      End: () => goTo(state.moves.length),
    };
    if (actions[event.key]) {
      event.preventDefault();
      actions[event.key]();
    }
  });

  // ---- controls ---------------------------------------------------------------------

  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("move-input");
    const point = parsePoint(input.value, state.size);
    if (!point) {
      toast(t("error.bad_point", { text: input.value.trim() || "?" }), "error");
      input.select();
      return;
    }
    if (viewPly !== null) goTo(state.moves.length);
    playMove(point[0], point[1]);
    input.value = "";
  });

  showNumbers.addEventListener("change", () => {
    localStorage.setItem("gomoku.numbers", showNumbers.checked ? "1" : "0");
    renderBoard();
  });
  showPv.addEventListener("change", () => {
    localStorage.setItem("gomoku.pv", showPv.checked ? "1" : "0");
    renderBoard();
  });

  $("btn-undo").addEventListener("click", () => send("undo"));
  $("btn-hint").addEventListener("click", () => send("hint"));
  $("btn-resign").addEventListener("click", () => {
    if (window.confirm(t("confirm.resign"))) send("resign");
  });
  $("btn-takeback").addEventListener("click", () => send("takeback_request"));
  $("btn-accept").addEventListener("click", () => send("takeback_answer", { accept: true }));
  $("btn-decline").addEventListener("click", () => send("takeback_answer", { accept: false }));
  $("btn-rematch").addEventListener("click", () => send("rematch"));

  async function copyLink() {
    const url = window.location.origin + "/g/" + gameId;
    try {
      await navigator.clipboard.writeText(url);
      toast(t("game.copied"), "info");
    } catch (_err) {
      const input = $("share-link");
      input.value = url;
      input.closest(".card").hidden = false;
      input.select();
      const ok = document.execCommand && document.execCommand("copy");
      toast(ok ? t("game.copied") : url, "info");
    }
  }
  $("btn-copy").addEventListener("click", copyLink);
  $("btn-copy-waiting").addEventListener("click", copyLink);
  $("share-link").addEventListener("focus", (event) => event.target.select());

  // Clocks tick locally between server updates; the server stays the referee.
  setInterval(() => {
    if (state.clock && state.clock.running && state.status === "active") renderClocks();
  }, 100);

  I18N.onChange(() => render());
  render();

  window.gomokuGame = {
    get state() {
      return state;
    },
    board,
  };
})();
