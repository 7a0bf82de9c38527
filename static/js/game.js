/*
 * The game page: wires the state store, the socket, the board widget and the panels.
 * The server is authoritative: it sends `state` (with what this viewer may do, the legal
 * points and the offers) and this page only sends intents. Server events go through one
 * handler table below; every panel renders from the store's state plus the page's own
 * view state (the replayed ply, a pending move, live engine reports, a hint).
 */
import { BoardView } from "./board.js";
import { colorOfPly, otherColor, pointName } from "./points.js";
import { GameSocket } from "./socket.js";
import { StateStore } from "./store.js";
import { errorText, onChange, t } from "./i18n.js";
import { toast } from "./toast.js";
import { createPlayersPanel } from "./panels/players.js";
import { createStatusLine } from "./panels/status.js";
import { createResultPanel } from "./panels/result.js";
import { createOffersPanel } from "./panels/offers.js";
import { createActionsPanel } from "./panels/actions.js";
import { createEnginePanel } from "./panels/engine.js";
import { createEvalGraph } from "./panels/evalgraph.js";
import { createReplay } from "./panels/replay.js";
import { createOpeningPanel } from "./panels/opening.js";
import { createChatPanel } from "./panels/chat.js";
import { createSoundCues } from "./panels/sound.js";
import { sounds } from "./sounds.js";

const $ = (id) => document.getElementById(id);
const root = $("game");
const gameId = root.dataset.gameId;
const store = new StateStore(JSON.parse($("initial-state").textContent));
const baseTitle = document.title;

// What this page shows beyond the server's state.
const view = {
  viewPly: null, // null follows the live position; a number shows that many moves
  pendingMove: null, // the point sent and not yet confirmed
  connected: false,
  hint: null, // {move, pv, ply}
  thinking: { black: null, white: null }, // live engine reports per colour, with their ply
  askedTakeback: false,
  askedRematch: false,
  cancelled: {}, // offers this viewer withdrew, so their closing is no refusal
};

const page = {
  gameId,
  store,
  view,
  get state() {
    return store.state;
  },
  shownPly() {
    return view.viewPly === null ? store.state.moves.length : view.viewPly;
  },
  goTo(ply) {
    const total = store.state.moves.length;
    const clamped = Math.max(0, Math.min(total, ply));
    view.viewPly = clamped === total ? null : clamped;
    render();
  },
  async send(event, fields) {
    if (!socket.connected) {
      toast(t("error.offline"));
      return null;
    }
    return socket.intent(event, fields);
  },
  play,
  render: () => render(),
};

function play(x, y) {
  const state = store.state;
  if (!state.actions.move) {
    refuseClick([x, y]);
    return;
  }
  if (state.moves.some((m) => m[0] === x && m[1] === y)) {
    toast(t("error.occupied"));
    return;
  }
  const opening = state.opening && state.opening.active;
  if (!opening && !state.legal.some((p) => p[0] === x && p[1] === y)) {
    toast(t("error.forbidden_point"));
    return;
  }
  // In an opening the server says what the step asks for (the area, an offered point).
  view.pendingMove = [x, y];
  render();
  page.send("move", { x, y, version: state.version }).then((reply) => {
    if (!reply || !reply.ok) {
      view.pendingMove = null;
      render();
    }
  });
}

// A click on a board that takes no moves says why, or comes back from a replay.
function refuseClick(point) {
  const state = store.state;
  if (view.viewPly !== null) {
    page.goTo(state.moves.length);
    toast(t("game.back_to_live"), "info");
    return;
  }
  if (!point) return;
  if (state.status === "finished") toast(t("error.game_over"));
  else if (!state.you) toast(t("error.not_a_player"));
  else if (openingChoiceIsMine(state)) {
    // The step asks for a choice, not a stone: show where it is made.
    toast(t("opening.choose_below"), "info");
    $("opening-card").scrollIntoView({ block: "nearest", behavior: "smooth" });
  } else if (state.status === "active" && state.turn !== state.you) {
    toast(t("error.not_your_turn"));
  }
}

function openingChoiceIsMine(state) {
  const opening = state.opening;
  return Boolean(opening && opening.active && state.actions.opening && !state.actions.move);
}

const board = new BoardView($("board"), {
  onPlay: play,
  onIdle: refuseClick,
  onRefused: (point) => play(point[0], point[1]),
  onPreview: () => $("touch-hint").classList.add("seen"),
});
page.board = board;

const panels = [
  createPlayersPanel(page),
  createStatusLine(page),
  createResultPanel(page),
  createOffersPanel(page),
  createActionsPanel(page),
  createEnginePanel(page),
  createEvalGraph(page),
  createReplay(page),
  createOpeningPanel(page),
];
const chat = createChatPanel(page);
const soundCues = createSoundCues(page);

// ---- the board's picture ------------------------------------------------------------

function currentPv(state, replay) {
  if (replay.viewPly !== null || state.status !== "active") return [];
  const ply = state.moves.length;
  const showPv = page.showPv();
  let source = null;
  if (view.hint && view.hint.ply === ply) {
    // A hint asked for is always shown: its move, and its whole line when PV is on.
    const line = view.hint.pv && view.hint.pv.length ? view.hint.pv : [view.hint.move];
    source = { pv: showPv ? line : line.slice(0, 1), color: state.turn };
  } else if (showPv) {
    const info = view.thinking[state.turn];
    if (info && info.ply === ply && info.pv) source = { pv: info.pv, color: state.turn };
  }
  if (!source) return [];
  let color = source.color;
  return source.pv.map((p) => {
    const step = { x: p[0], y: p[1], color };
    color = otherColor(color);
    return step;
  });
}

function renderBoard() {
  const state = store.state;
  const shown = page.shownPly();
  const stones = state.moves.slice(0, shown).map((m, i) => ({
    x: m[0],
    y: m[1],
    color: colorOfPly(i),
    number: i + 1,
  }));
  const opening = state.opening && state.opening.active ? state.opening : null;
  if (view.pendingMove && (!opening || opening.step === "place")) {
    stones.push({
      x: view.pendingMove[0],
      y: view.pendingMove[1],
      color: opening ? opening.stone : state.turn,
      number: stones.length + 1,
    });
  }
  const live = view.viewPly === null;
  const interactive = live && view.connected && state.actions.move && !view.pendingMove;
  // Points the side to move may not play, drawn for everyone (renju's forbidden points,
  // which the server lists; spectators get no `legal`).
  const forbidden = live && state.status === "active" && !opening ? state.forbidden : [];
  const last = stones[stones.length - 1];
  board.update({
    size: state.size,
    stones,
    lastMove: last ? [last.x, last.y] : null,
    winLine:
      shown === state.moves.length && state.result && state.result.line ? state.result.line : [],
    forbidden,
    pv: currentPv(state, view),
    showNumbers: page.showNumbers(),
    showPv: true,
    interactive,
    playable: interactive ? new Set(state.legal.map((p) => p[0] + "," + p[1])) : null,
    ghostColor: opening ? opening.stone || "black" : state.you,
    area: live && opening && opening.step === "place" ? opening.area || 0 : 0,
    marks: live && state.opening ? openingMarks(state.opening) : [],
  });
  root.classList.toggle("replaying", !live);
  const touch = $("touch-hint");
  touch.hidden = !(isTouch() && state.you && state.status !== "finished");
}

// The fifth moves offered in a renju opening, lettered as players name them.
function openingMarks(opening) {
  if (!opening.active) return [];
  return opening.proposals.map((p, i) => ({
    x: p[0],
    y: p[1],
    color: "black",
    label: String.fromCharCode(97 + i),
  }));
}

function isTouch() {
  return navigator.maxTouchPoints > 0 || window.matchMedia("(pointer: coarse)").matches;
}

function render() {
  const state = store.state;
  root.dataset.status = state.status;
  root.dataset.version = String(state.version);
  root.dataset.moveCount = String(state.moves.length);
  root.dataset.you = state.you || "";
  root.dataset.turn = state.turn || "";
  root.classList.toggle("is-finished", state.status === "finished");
  const myTurn = state.status === "active" && state.you && state.you === state.turn;
  document.title = (myTurn ? "● " : "") + baseTitle;
  renderBoard();
  for (const panel of panels) panel.render(state, view);
  chat.render();
  $("spectator-count").textContent = String(state.spectators || 0);
  $("meta-rule").textContent =
    t("rule." + state.rule) + (state.rated ? " · " + t("lobby.rated") : "");
  $("share-link").value = window.location.origin + "/g/" + gameId;
  // Only a seated player (the game's creator) is asked to send the link on.
  $("share-card").hidden = !(state.status === "waiting" && state.mode === "friend" && state.you);
  // "Analyse" opens the position on the board: the replayed move, else the live one.
  const analyse = $("btn-analyse");
  if (analyse) {
    const ply = page.shownPly();
    analyse.href = `/analysis?game=${encodeURIComponent(gameId)}&ply=${ply}`;
  }
}

// ---- server events: one table -------------------------------------------------------

function acceptState(state, previous) {
  const movesChanged =
    state.moves.length !== previous.moves.length ||
    state.moves.some(
      (m, i) =>
        !previous.moves[i] || m[0] !== previous.moves[i][0] || m[1] !== previous.moves[i][1],
    );
  view.pendingMove = null;
  soundCues.onState(state, previous);
  if (movesChanged) {
    view.hint = null;
    for (const color of ["black", "white"]) {
      const info = view.thinking[color];
      if (info && info.ply !== state.moves.length) view.thinking[color] = null;
    }
    if (view.viewPly !== null && view.viewPly > state.moves.length) view.viewPly = null;
  }
  const joined = previous.status === "waiting" && state.status === "active";
  if (joined && state.mode === "friend" && previous.you && state.you === previous.you) {
    toast(t("game.opponent_joined"), "info");
  }
  // An offer of mine that closed with the position unchanged was declined (the server
  // also says so with `offer_declined`; whichever comes first is shown).
  for (const kind of ["takeback", "draw", "rematch"]) {
    const mine = previous.offers[kind] && previous.offers[kind] === state.you;
    const unchanged = !movesChanged && state.status === previous.status && !state.next_game;
    if (mine && !state.offers[kind] && unchanged && !view.cancelled[kind]) {
      declined(kind);
    }
    if (!state.offers[kind]) view.cancelled[kind] = false;
  }
  if (!state.offers.takeback) view.askedTakeback = false;
  // An offer the other player just made is announced: its answer buttons may be out of view.
  for (const kind of ["takeback", "draw"]) {
    const by = state.offers[kind];
    if (state.you && by && by !== state.you && previous.offers[kind] !== by) {
      once(`offer-${kind}`, () =>
        toast(t(`offer.${kind}.theirs`, { color: t(`color.${by}_cap`) }), "info"),
      );
    }
  }
  // The human of an AI game goes straight to the rematch; everyone else gets a link.
  if (state.next_game && !previous.next_game && state.mode === "ai" && state.you) {
    window.location.assign("/g/" + encodeURIComponent(state.next_game));
    return;
  }
  render();
}

// Offer news repeated within this long (an offer made and withdrawn again and again) is
// shown once.
const REPEAT_MS = 5000;
const lastShown = {};

function once(key, show) {
  const now = Date.now();
  if (lastShown[key] && now - lastShown[key] < REPEAT_MS) return;
  lastShown[key] = now;
  show();
}

function declined(kind) {
  once(`declined-${kind}`, () => toast(t(`offer.${kind}.declined`), "info"));
}

function offerWho(payload) {
  const kind = payload && payload.kind;
  return ["takeback", "rematch", "draw"].includes(kind) ? kind : null;
}

const handlers = {
  state(payload) {
    if (!payload || payload.id !== gameId) return;
    store.offer(payload);
  },
  spectators(payload) {
    const count =
      typeof payload === "number" ? payload : payload && (payload.count ?? payload.spectators);
    if (typeof count !== "number") return;
    store.patch({ spectators: count });
    $("spectator-count").textContent = String(count);
  },
  thinking(info) {
    if (!info || (info.color !== "black" && info.color !== "white")) return;
    const state = store.state;
    view.thinking[info.color] = Object.assign({}, info, { ply: state.moves.length });
    if (info.warming !== undefined) store.patch({ warming: Boolean(info.warming) });
    render();
  },
  hint(info) {
    if (!info) return;
    const move = info.move || (typeof info.x === "number" ? [info.x, info.y] : null);
    if (!move) return;
    view.hint = { move, pv: info.pv || [move], ply: store.state.moves.length };
    toast(t("game.hint_toast", { move: pointName(move, store.state.size) }), "info");
    render();
  },
  offer_declined(payload) {
    const kind = offerWho(payload);
    if (!kind) return;
    const state = store.state;
    if (payload.by !== state.you && state.you) declined(kind);
    if (kind === "takeback") view.askedTakeback = false;
    if (kind === "rematch") view.askedRematch = false;
    render();
  },
  offer_cancelled(payload) {
    const kind = offerWho(payload);
    if (!kind || !payload.by || payload.by === store.state.you) return;
    const color = t(`color.${payload.by}_cap`);
    once(`cancelled-${kind}`, () => toast(t(`offer.${kind}.cancelled`, { color }), "info"));
  },
  chat_history(payload) {
    if (!payload || !Array.isArray(payload.messages)) return;
    chat.history(payload);
  },
  chat(payload) {
    if (!payload) return;
    chat.line(payload);
  },
  error(error) {
    view.pendingMove = null;
    toast(errorText(error));
    render();
  },
};

store.subscribe(acceptState);

const socket = new GameSocket(gameId, {
  onConnect() {
    view.connected = true;
    $("conn-banner").hidden = true;
    render();
  },
  onDisconnect() {
    view.connected = false;
    view.pendingMove = null;
    $("conn-banner").hidden = false;
    render();
  },
});
socket.handle(handlers);

onChange(() => render());
render();

// Tests and the console read the state and the board from here, and may replay a
// server event through the same handler table.
window.gomokuGame = {
  get state() {
    return store.state;
  },
  board,
  view,
  sounds,
  receive(event, payload) {
    if (handlers[event]) handlers[event](payload);
  },
};
