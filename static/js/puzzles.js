/*
 * The puzzles page: asks the server for the visitor's puzzle, lets them play the side to
 * move, shows the defender's replies (the server's), the result with the rating change,
 * then the whole solution to step through. The server checks every move; this page only
 * sends intents. #puzzle carries data-state (loading, playing, waiting, solved, failed,
 * empty) and data-attempt for tests.
 */
import { BoardView } from "./board.js";
import { pointName } from "./points.js";
import { apply, errorText, onChange, t } from "./i18n.js";
import { toast } from "./toast.js";

const $ = (id) => document.getElementById(id);
const root = $("puzzle");
const REPLY_DELAY_MS = 350;

let current = null; // the server's view of the attempt
let shownPlies = null; // once the attempt is over: how many moves of its line are shown (null: all)
let busy = false;

const board = new BoardView($("board"), { onPlay: play });

async function post(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    credentials: "same-origin",
    body: JSON.stringify(body || {}),
  });
  let data = {};
  try {
    data = await response.json();
  } catch (_err) {
    data = {};
  }
  if (!response.ok) {
    const error = new Error(data.error || response.statusText);
    error.payload = data;
    throw error;
  }
  return data;
}

function stonesOf(moves) {
  return moves.map((m, i) => ({
    x: m[0],
    y: m[1],
    color: i % 2 ? "white" : "black",
    number: i + 1,
  }));
}

function setState(state) {
  root.dataset.state = state;
}

function renderTask() {
  const puzzle = current.puzzle;
  const side = puzzle.to_move;
  $("task-stone").className = `stone-icon ${side}`;
  const key = puzzle.goal === "win" ? `puzzle.task.win.${side}` : `puzzle.task.defend.${side}`;
  $("task-text").textContent = t(key);
  const kind = t(`puzzle.kind.${puzzle.goal}.${puzzle.kind}`);
  $("puzzle-hint").textContent = t("puzzle.hint", {
    kind,
    rating: puzzle.rating,
    size: puzzle.size,
    rule: t(`rule.${puzzle.rule}`),
  });
}

function renderPlayer() {
  const player = current.player;
  if (!player) return;
  $("stat-rating").textContent = player.provisional ? `${player.rating}?` : `${player.rating}`;
  $("stat-streak").textContent = `${player.streak}`;
  $("stat-best").textContent = `${player.best_streak}`;
  $("stat-solved").textContent = `${player.solved} / ${player.attempts}`;
}

/* The line the solution bar steps through once the attempt is over: the visitor's own
 * winning moves when they solved it, else the puzzle's solution. */
function finishedLine() {
  if (current.solved && current.played.length) return current.played;
  return current.solution || [];
}

function renderBoard(extra) {
  const puzzle = current.puzzle;
  let moves = puzzle.moves.concat(current.played);
  if (current.finished) moves = puzzle.moves.concat(finishedLine().slice(0, shown()));
  if (extra) moves = moves.concat([extra]);
  const start = puzzle.moves.length;
  const stones = stonesOf(moves).map((s, i) => ({ ...s, number: i >= start ? i - start + 1 : 0 }));
  const playing = !current.finished && !busy;
  board.update({
    size: puzzle.size,
    stones,
    lastMove: moves.length ? moves[moves.length - 1] : null,
    winLine: [],
    pv: [],
    showNumbers: current.finished || current.played.length > 0 || Boolean(extra),
    interactive: playing,
    ghostColor: playing ? puzzle.to_move : null,
  });
  $("board").dataset.moves = String(moves.length);
}

function renderSolutionBar() {
  const bar = $("solution-bar");
  if (!current.finished) {
    bar.hidden = true;
    return;
  }
  bar.hidden = false;
  const total = finishedLine().length;
  const at = shown();
  $("sol-position").textContent = `${at} / ${total}`;
  $("sol-first").disabled = at === 0;
  $("sol-prev").disabled = at === 0;
  $("sol-next").disabled = at === total;
  $("sol-last").disabled = at === total;
}

function render(message) {
  root.dataset.attempt = String(current.attempt);
  root.dataset.puzzleId = String(current.puzzle.id);
  renderTask();
  renderPlayer();
  renderBoard();
  renderSolutionBar();
  $("btn-resign").disabled = current.finished || busy;
  $("btn-resign").hidden = current.finished;
  $("btn-next").hidden = !current.finished;
  if (message !== undefined) $("puzzle-status").textContent = message;
}

function statusClass(kind) {
  const status = $("puzzle-status");
  status.classList.toggle("good", kind === "good");
  status.classList.toggle("bad", kind === "bad");
}

function finishedMessage(data) {
  const change = data.change > 0 ? `+${data.change}` : `${data.change}`;
  if (data.status === "solved") {
    statusClass("good");
    return t("puzzle.solved", { change, streak: data.player.streak });
  }
  statusClass("bad");
  const line = (data.refutation || []).slice(0, 1);
  if (line.length) {
    return t("puzzle.failed_refuted", { change, move: pointName(line[0], data.puzzle.size) });
  }
  return t("puzzle.failed", { change });
}

async function loadNext() {
  setState("loading");
  busy = true;
  shownPlies = null;
  statusClass(null);
  try {
    current = await post("/api/v1/puzzles/next");
  } catch (err) {
    setState("empty");
    $("task-text").textContent = t("puzzle.none");
    $("puzzle-status").textContent = err.payload ? errorText(err.payload) : t("error.unknown");
    busy = false;
    return;
  }
  busy = false;
  if (current.finished) {
    setState(current.solved ? "solved" : "failed");
    render("");
    return;
  }
  setState("playing");
  render(current.played.length ? t("puzzle.resumed") : t("puzzle.your_move"));
}

async function play(x, y) {
  if (!current || current.finished || busy) return;
  busy = true;
  setState("waiting");
  renderBoard([x, y]);
  let data;
  try {
    data = await post(`/api/v1/puzzles/attempts/${current.attempt}/move`, { x, y });
  } catch (err) {
    busy = false;
    setState("playing");
    render();
    toast(err.payload ? errorText(err.payload) : t("error.unknown"));
    return;
  }
  if (data.status === "continue") {
    // Show the visitor's stone first, then the defender's answer.
    current = { ...current, played: data.played.slice(0, -1) };
    renderBoard();
    statusClass("good");
    $("puzzle-status").textContent = t("puzzle.good_move");
    await new Promise((resolve) => setTimeout(resolve, REPLY_DELAY_MS));
    current = data;
    busy = false;
    setState("playing");
    render(t("puzzle.keep_going"));
    return;
  }
  current = data;
  busy = false;
  setState(data.status);
  render(finishedMessage(data));
}

async function resign() {
  if (!current || current.finished || busy) return;
  busy = true;
  try {
    const data = await post(`/api/v1/puzzles/attempts/${current.attempt}/resign`);
    current = data;
    busy = false;
    setState("failed");
    render(finishedMessage(data));
  } catch (err) {
    busy = false;
    toast(err.payload ? errorText(err.payload) : t("error.unknown"));
  }
}

function step(to) {
  if (!current || !current.finished) return;
  const total = finishedLine().length;
  shownPlies = Math.max(0, Math.min(total, to));
  renderBoard();
  renderSolutionBar();
}

function shown() {
  const total = finishedLine().length;
  return shownPlies === null ? total : Math.min(shownPlies, total);
}

$("btn-next").addEventListener("click", loadNext);
$("btn-resign").addEventListener("click", resign);
$("sol-first").addEventListener("click", () => step(0));
$("sol-prev").addEventListener("click", () => step(shown() - 1));
$("sol-next").addEventListener("click", () => step(shown() + 1));
$("sol-last").addEventListener("click", () => step(finishedLine().length));
onChange(() => {
  if (current) render();
});

apply();
loadNext();
