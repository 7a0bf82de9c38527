/*
 * The review page: asks the server for the review of a finished game (one job per game,
 * shared by everyone who asks), follows its progress over Socket.IO (namespace /review,
 * room review:<id>) with a progress bar and the graph filling in, and once it is done
 * shows each move's class, the engine's better move and line on the board, forced wins
 * missed or allowed, a summary per side, and "play from here". The board widget
 * (board.js) only draws; the panels are in panels/review_*.js.
 */
import { BoardView } from "./board.js";
import { colorOfPly, otherColor, pointName } from "./points.js";
import { errorText, onChange, t } from "./i18n.js";
import { toast } from "./toast.js";
import { playerLabel, resultText } from "./panels/labels.js";
import { createReviewGraph } from "./panels/review_graph.js";
import { createReviewMoves } from "./panels/review_moves.js";
import { createReviewSummary } from "./panels/review_summary.js";

const $ = (id) => document.getElementById(id);
const root = $("review");
const gameId = root.dataset.gameId;
const data = JSON.parse($("review-data").textContent);
const game = data.state;
const REPOLL_MS = 15000;

const page = {
  game,
  status: data.review,
  shown: game.moves.length,
  live: [], // black_winrate per position as progress reports arrive
  shownPly() {
    return page.shown;
  },
  goTo(ply) {
    page.shown = Math.max(0, Math.min(game.moves.length, ply));
    render();
  },
  review() {
    return page.status && page.status.status === "done" ? page.status.review : null;
  },
  plyReview(ply) {
    const review = page.review();
    return review && ply >= 1 ? review.plies[ply - 1] || null : null;
  },
  render: () => render(),
};

const board = new BoardView($("board"), {
  onIdle: () => {},
});
const numbers = $("toggle-numbers");
const best = $("toggle-best");
const panels = [createReviewGraph(page), createReviewMoves(page), createReviewSummary(page)];

// ---- the board ------------------------------------------------------------------------

function line(points, color) {
  let side = color;
  return points.map((p) => {
    const step = { x: p[0], y: p[1], color: side };
    side = otherColor(side);
    return step;
  });
}

function renderBoard() {
  const ply = page.shown;
  const info = page.plyReview(ply);
  // A move the engine would not have played: the position before it, the engine's line
  // from there, and a cross where the move was played instead.
  const better = best.checked && info && info.best && info.pv.length ? info : null;
  const count = better ? ply - 1 : ply;
  const stones = game.moves.slice(0, count).map((m, i) => ({
    x: m[0],
    y: m[1],
    color: colorOfPly(i),
    number: i + 1,
  }));
  let pv = [];
  let marks = [];
  if (better) {
    pv = line(better.pv, better.color);
    marks = [better.move];
  } else if (best.checked && info && info.allowed_win && info.allowed_win.line.length > 1) {
    pv = line(info.allowed_win.line, otherColor(info.color));
  }
  const last = stones[stones.length - 1];
  const atEnd = ply === game.moves.length;
  board.update({
    size: game.size,
    stones,
    lastMove: last && !better ? [last.x, last.y] : null,
    winLine: atEnd && !better && game.result && game.result.line ? game.result.line : [],
    forbidden: marks,
    pv,
    showPv: true,
    showNumbers: numbers.checked,
    interactive: false,
  });
  root.dataset.ply = String(ply);
  root.classList.toggle("showing-better", Boolean(better));
}

// ---- the moment under the board -------------------------------------------------------

function percent(rate) {
  return `${Math.round(rate * 100)}%`;
}

function forcedText(forced, color) {
  const kind = forced.kind === "mate" ? t("review.kind_mate") : forced.kind.toUpperCase();
  const move = forced.line && forced.line.length ? pointName(forced.line[0], game.size) : "";
  return t("review.forced_win", {
    color: t(`color.${color}_cap`),
    kind,
    moves: forced.moves,
    move,
  });
}

function renderMoment() {
  const ply = page.shown;
  const head = $("moment-head");
  const bestBox = $("moment-best");
  const forcedBox = $("moment-forced");
  const info = page.plyReview(ply);
  bestBox.hidden = true;
  forcedBox.hidden = true;
  head.className = "moment-head";
  if (ply === 0) {
    head.textContent = t("review.start");
    return;
  }
  const move = game.moves[ply - 1];
  const name = `${ply}. ${pointName(move, game.size)}`;
  if (!info) {
    head.textContent = name;
    return;
  }
  head.classList.add("cls-" + info.class);
  const loss = info.loss >= 0.005 ? ` (−${percent(info.loss)})` : "";
  head.textContent = `${name}${info.symbol ? " " + info.symbol : ""} · ${t("class." + info.class)}${loss}`;
  if (info.best) {
    bestBox.hidden = false;
    const pvText = info.pv.map((p) => pointName(p, game.size)).join(" ");
    bestBox.textContent = t("review.better", {
      move: pointName(info.best, game.size),
      line: pvText,
    });
  }
  const notes = [];
  if (info.missed_win) {
    notes.push(t("review.missed") + " " + forcedText(info.missed_win, info.color));
  }
  if (info.allowed_win) {
    notes.push(t("review.allowed") + " " + forcedText(info.allowed_win, otherColor(info.color)));
  }
  if (notes.length) {
    forcedBox.hidden = false;
    forcedBox.textContent = notes.join(" ");
  }
}

// ---- progress -------------------------------------------------------------------------

function renderProgress() {
  const status = page.status || { status: "none", done: 0, total: 0 };
  const card = $("review-progress");
  const text = $("progress-text");
  const bar = $("review-bar");
  const retry = $("btn-retry");
  root.dataset.status = status.status;
  retry.hidden = true;
  if (root.dataset.finished !== "yes") {
    card.hidden = false;
    bar.hidden = true;
    text.textContent = t("review.not_finished");
    return;
  }
  card.hidden = status.status === "done";
  bar.hidden = false;
  bar.max = Math.max(1, status.total || 1);
  bar.value = status.done || 0;
  if (status.status === "failed") {
    text.textContent = t("review.failed");
    retry.hidden = false;
  } else if (status.status === "running") {
    text.textContent = t("review.progress", { done: status.done || 0, total: status.total });
  } else if (status.status === "none") {
    text.textContent = t("review.starting");
  }
}

function renderHead() {
  for (const color of ["black", "white"]) {
    const el = document.querySelector(`#review-player-${color} .name`);
    el.textContent = playerLabel(game.players[color]);
  }
  $("review-result").textContent = resultText(game.result);
}

function render() {
  renderBoard();
  renderMoment();
  renderProgress();
  renderHead();
  const total = game.moves.length;
  $("replay-position").textContent = `${page.shown} / ${total}`;
  $("nav-first").disabled = page.shown === 0;
  $("nav-prev").disabled = page.shown === 0;
  $("nav-next").disabled = page.shown === total;
  $("nav-last").disabled = page.shown === total;
  for (const panel of panels) panel.render();
}

// ---- asking for the review ------------------------------------------------------------

function accept(status) {
  if (!status || status.game_id !== gameId) return;
  const wasDone = page.status && page.status.status === "done";
  if (wasDone && status.status !== "done") return;
  page.status = status;
  if (status.status === "running" && Array.isArray(status.graph)) {
    page.live = status.graph.slice();
  }
  render();
}

async function ask() {
  if (root.dataset.finished !== "yes") return;
  try {
    const reply = await fetch(`/api/v1/games/${encodeURIComponent(gameId)}/review`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: "{}",
    });
    const body = await reply.json();
    if (!reply.ok) {
      toast(errorText(body));
      return;
    }
    accept(body);
  } catch (_err) {
    toast(t("error.offline"));
  }
}

// Asked again now and then while it runs: a review whose server stopped is taken over.
setInterval(() => {
  const status = page.status && page.status.status;
  if (status === "running" || status === "none") ask();
}, REPOLL_MS);

const socket = window.io("/review", { transports: ["websocket", "polling"], tryAllTransports: true });
socket.on("connect", () => {
  socket.emit("join", { game_id: gameId }, (ack) => {
    if (ack && ack.ok) accept(ack);
  });
});
socket.on("review_progress", (payload) => {
  if (!payload || payload.game_id !== gameId) return;
  if (page.status && page.status.status === "done") return;
  page.live[payload.ply] = payload.black_winrate;
  page.status = Object.assign({}, page.status, {
    status: "running",
    done: payload.done,
    total: payload.total,
  });
  render();
});
socket.on("review_done", (status) => accept(status));
socket.on("review_failed", (payload) => {
  if (!payload || payload.game_id !== gameId) return;
  page.status = Object.assign({}, page.status, { status: "failed" });
  render();
});

// ---- controls -------------------------------------------------------------------------

$("nav-first").addEventListener("click", () => page.goTo(0));
$("nav-prev").addEventListener("click", () => page.goTo(page.shown - 1));
$("nav-next").addEventListener("click", () => page.goTo(page.shown + 1));
$("nav-last").addEventListener("click", () => page.goTo(game.moves.length));
numbers.addEventListener("change", render);
best.addEventListener("change", render);
$("btn-retry").addEventListener("click", () => ask());

document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  const total = game.moves.length;
  const steps = {
    ArrowLeft: () => page.goTo(page.shown - 1),
    ArrowRight: () => page.goTo(page.shown + 1),
    PageUp: () => page.goTo(page.shown - 1),
    PageDown: () => page.goTo(page.shown + 1),
    Home: () => page.goTo(0),
    End: () => page.goTo(total),
  };
  if (steps[event.key]) {
    event.preventDefault();
    steps[event.key]();
  }
});

$("play-from-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const error = $("play-from-error");
  error.hidden = true;
  const body = { ply: page.shown, level: Number($("play-level").value) };
  const color = $("play-color").value;
  if (color) body.color = color;
  try {
    const reply = await fetch(`/api/v1/games/${encodeURIComponent(gameId)}/play-from`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    const answer = await reply.json();
    if (!reply.ok) {
      error.textContent = errorText(answer);
      error.hidden = false;
      return;
    }
    window.location.assign(answer.url);
  } catch (_err) {
    error.textContent = t("error.offline");
    error.hidden = false;
  }
});

onChange(() => render());
render();
if (!page.status || ["none", "running"].includes(page.status.status)) ask();

// Tests and the console read the page from here.
window.gomokuReview = {
  get status() {
    return page.status;
  },
  get shown() {
    return page.shown;
  },
  board,
  goTo: (ply) => page.goTo(ply),
};
