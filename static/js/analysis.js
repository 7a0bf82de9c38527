/*
 * The analysis board page: stones placed by the visitor (alternating colours, or one
 * colour while the toggle holds it), undo, clear, size, rule and the number of lines.
 * Every position is sent to the server over the /analysis namespace (`analyse`); the
 * server streams `analysis` updates (the best moves with scores, win rates, depths and
 * lines) which fill the ranked list and the heat map drawn over the board. A finished
 * game opens on its final position with the winning five marked and a word on how to
 * analyse it (undo a move): there is nothing left to search there.
 */
import { BoardView } from "./board.js";
import { apply, errorText, onChange, t } from "./i18n.js";
import { formatCount, formatScore, formatWinrate } from "./format.js";

const initial = JSON.parse(document.getElementById("analysis-position").textContent);
const state = {
  size: initial.size,
  rule: initial.rule,
  moves: initial.moves.map((m) => [m[0], m[1]]),
  colours: [], // the colour of each stone
  lines: 3,
  fixedColour: null, // null: alternate; else "black" | "white"
  position: 0, // the server's number of the position analysed now
  update: null,
  over: initial.over || null, // the opened game's end ({reason, line}) until the stones change
};
state.colours = state.moves.map((_, i) => (i % 2 === 0 ? "black" : "white"));

const canvas = document.getElementById("board");
const heat = document.getElementById("heat");
const list = document.getElementById("an-lines-list");
const status = document.getElementById("an-status");
const figures = document.getElementById("an-figures");
const resume = document.getElementById("an-continue");
const colourButton = document.getElementById("an-color");

// The status line, kept as a function so a change of language can say it again.
let statusText = () => t("analysis.connecting");
function setStatus(text) {
  statusText = text;
  status.textContent = text();
}

const board = new BoardView(canvas, { onPlay: (x, y) => place(x, y) });
const socket = window.io("/analysis", { transports: ["websocket", "polling"] });

function nextColour() {
  if (state.fixedColour) return state.fixedColour;
  const last = state.colours[state.colours.length - 1];
  return last === "black" ? "white" : "black";
}

/* The engine searches game positions: the stones are sent in game order (black first,
   alternating), which needs as many black stones as white or one more. */
function movesForServer() {
  const black = [];
  const white = [];
  state.moves.forEach((m, i) => (state.colours[i] === "black" ? black : white).push(m));
  const ordered = [];
  for (let i = 0; i < Math.max(black.length, white.length); i += 1) {
    if (i < black.length) ordered.push(black[i]);
    if (i < white.length) ordered.push(white[i]);
  }
  return { moves: ordered, ok: black.length === white.length || black.length === white.length + 1 };
}

function render() {
  const stones = state.moves.map((m, i) => ({ x: m[0], y: m[1], color: state.colours[i], number: i + 1 }));
  board.update({
    size: state.size,
    stones,
    lastMove: state.moves.length ? state.moves[state.moves.length - 1] : null,
    winLine: state.over ? state.over.line : [],
    interactive: !state.over,
    ghostColor: state.over ? null : nextColour(),
    pv: [],
  });
  canvas.dataset.winLine = state.over ? state.over.line.map((p) => p.join(",")).join(" ") : "";
  colourButton.textContent = state.fixedColour
    ? t("analysis.only_" + state.fixedColour)
    : t("analysis.alternate");
  colourButton.setAttribute("aria-pressed", state.fixedColour ? "true" : "false");
}

function analyse() {
  const { moves, ok } = movesForServer();
  state.update = null;
  list.replaceChildren();
  figures.textContent = "";
  drawHeat();
  resume.hidden = true;
  if (state.over) {
    setStatus(() => t("analysis.game_over"));
    socket.emit("analysis_stop", {});
    return;
  }
  if (!ok) {
    setStatus(() => t("analysis.unbalanced"));
    socket.emit("analysis_stop", {});
    return;
  }
  setStatus(() => t("analysis.thinking"));
  socket.emit(
    "analyse",
    { size: state.size, rule: state.rule, moves, lines: state.lines },
    (answer) => {
      if (answer && answer.ok) state.position = answer.position;
    },
  );
}

function place(x, y) {
  if (state.moves.some((m) => m[0] === x && m[1] === y)) return;
  state.moves.push([x, y]);
  state.colours.push(nextColour());
  state.over = null;
  render();
  analyse();
}

function lineText(line) {
  if (line.mate !== null && line.mate !== undefined) {
    return t("analysis.forced_" + line.winner, { plies: line.mate });
  }
  // Black's side, like the win rate beside it.
  return formatScore(state.update.turn === "black" ? line.score : -line.score);
}

function showUpdate(update) {
  state.update = update;
  list.replaceChildren();
  update.lines.forEach((line) => {
    const item = document.createElement("li");
    item.className = "analysis-line";
    item.dataset.move = line.name;
    const head = document.createElement("span");
    head.className = "line-move";
    head.textContent = line.name;
    const score = document.createElement("span");
    score.className = "line-score" + (line.mate !== null ? " forced" : "");
    score.textContent = lineText(line);
    const rate = document.createElement("span");
    rate.className = "line-rate";
    rate.textContent = t("analysis.black_rate", { rate: formatWinrate(line.black_winrate) });
    const depth = document.createElement("span");
    depth.className = "line-depth";
    depth.textContent = line.depth ? t("analysis.depth", { depth: line.depth }) : "";
    const pv = document.createElement("span");
    pv.className = "line-pv";
    pv.textContent = line.pv_names.join(" ");
    item.append(head, score, rate, depth, pv);
    item.addEventListener("pointerenter", () => showLine(line));
    item.addEventListener("pointerleave", () => board.update({ pv: [] }));
    list.append(item);
  });
  // The opening move of an empty board is not searched: no figures to show.
  figures.textContent =
    update.status === "opening"
      ? ""
      : t("analysis.figures", {
          depth: update.depth,
          nodes: formatCount(update.nodes),
          nps: formatCount(update.nps),
          seconds: (update.elapsed_ms / 1000).toFixed(0),
        });
  if (update.status === "paused") {
    setStatus(() => t("analysis.paused"));
    resume.hidden = false;
  } else if (update.status === "done") {
    setStatus(() => t("analysis.done"));
    resume.hidden = true;
  } else if (update.status === "opening") {
    setStatus(() => t("analysis.opening"));
    resume.hidden = true;
  } else {
    setStatus(() => t("analysis.running", { depth: update.depth }));
    resume.hidden = true;
  }
  drawHeat();
}

function showLine(line) {
  let colour = nextColour();
  const pv = line.pv.map((p) => {
    const step = { x: p[0], y: p[1], color: colour };
    colour = colour === "black" ? "white" : "black";
    return step;
  });
  board.update({ pv });
}

/* The heat map: a disc on each listed move, stronger for a better score relative to the
   best line, drawn on a canvas laid over the board with the board's own geometry. */
function drawHeat() {
  const { cssSize, ratio, cell } = board.geometry;
  heat.width = Math.round(cssSize * ratio);
  heat.height = Math.round(cssSize * ratio);
  heat.style.width = cssSize + "px";
  heat.style.height = cssSize + "px";
  const ctx = heat.getContext("2d");
  ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
  ctx.clearRect(0, 0, cssSize, cssSize);
  const update = state.update;
  if (!update || !update.lines.length) return;
  const best = update.lines[0];
  const bestRate = sideRate(best);
  update.lines.forEach((line, rank) => {
    const loss = Math.max(0, bestRate - sideRate(line));
    const strength = Math.max(0.15, 1 - loss * 4);
    const [px, py] = board.toPixel(line.move[0], line.move[1]);
    ctx.beginPath();
    ctx.arc(px, py, cell * 0.46, 0, Math.PI * 2);
    ctx.fillStyle = `rgba(214, 48, 32, ${(0.25 + 0.6 * strength).toFixed(3)})`;
    ctx.fill();
    ctx.fillStyle = "#fff";
    ctx.font = `600 ${Math.max(10, cell * 0.42)}px system-ui, sans-serif`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(String(rank + 1), px, py + 0.5);
  });
}

function sideRate(line) {
  return state.update.turn === "black" ? line.black_winrate : 1 - line.black_winrate;
}

socket.on("connect", () => analyse());
socket.on("disconnect", () => {
  setStatus(() => t("analysis.connecting"));
});
socket.on("analysis", (data) => {
  if (data.position < state.position) return;
  state.position = data.position;
  showUpdate(data);
});
socket.on("error", (error) => {
  // A five placed on the board: the same advice as for a finished game.
  setStatus(() =>
    error && error.code === "game_over" ? t("analysis.game_over") : errorText(error),
  );
});

document.getElementById("an-undo").addEventListener("click", () => {
  if (!state.moves.length) return;
  state.moves.pop();
  state.colours.pop();
  state.over = null;
  render();
  analyse();
});
document.getElementById("an-clear").addEventListener("click", () => {
  state.moves = [];
  state.colours = [];
  state.over = null;
  render();
  analyse();
});
colourButton.addEventListener("click", () => {
  const order = [null, "black", "white"];
  state.fixedColour = order[(order.indexOf(state.fixedColour) + 1) % order.length];
  render();
});
document.getElementById("an-size").addEventListener("change", (event) => {
  state.size = Number(event.target.value);
  state.moves = [];
  state.colours = [];
  state.over = null;
  render();
  analyse();
});
document.getElementById("an-rule").addEventListener("change", (event) => {
  state.rule = event.target.value;
  analyse();
});
document.getElementById("an-lines").addEventListener("change", (event) => {
  state.lines = Number(event.target.value);
  analyse();
});
resume.addEventListener("click", () => {
  resume.hidden = true;
  setStatus(() => t("analysis.thinking"));
  socket.emit("analysis_continue", {});
});
window.addEventListener("resize", () => requestAnimationFrame(drawHeat));
onChange(() => {
  render();
  if (state.update) showUpdate(state.update);
  status.textContent = statusText();
});
apply();
render();
requestAnimationFrame(drawHeat);
