/*
 * The lobby's behaviour: turns the create-game forms of home.html into JSON requests to
 * POST /api/v1/games and /api/v1/import, follows the returned game link, shows the
 * server's error (translated by its code) on a failure, draws the hero board with the
 * board widget, and keeps the live games list fresh from GET /api/v1/games?status=live.
 */
import { BoardView } from "./board.js";
import { errorText, onChange, t } from "./i18n.js";

function checkedValue(form, name) {
  const input = form.querySelector(`input[name="${name}"]:checked`);
  return input ? input.value : null;
}

function boardSize(form) {
  const other = form.querySelector("select.size-other");
  if (other && other.value) return parseInt(other.value, 10);
  return parseInt(checkedValue(form, "size") || "15", 10);
}

// Picking "Other…" sizes and the chips are one choice shown two ways.
document.querySelectorAll(".size-field").forEach((field) => {
  const other = field.querySelector("select.size-other");
  field.querySelectorAll('input[name="size"]').forEach((radio) => {
    radio.addEventListener("change", () => {
      other.value = "";
      other.classList.remove("chosen");
    });
  });
  other.addEventListener("change", () => {
    const chosen = Boolean(other.value);
    other.classList.toggle("chosen", chosen);
    field.querySelectorAll('input[name="size"]').forEach((radio) => {
      if (chosen) radio.checked = false;
      else if (radio.value === "15") radio.checked = true;
    });
  });
});

// The opening rules offered follow the board rule chosen (swap and swap2 for gomoku,
// Soosõrv-8 and Taraguchi-10 for renju); the server refuses any other pairing.
document.querySelectorAll("form.create-form").forEach((form) => {
  const select = form.querySelector('select[name="opening"]');
  if (!select) return;
  const sync = () => {
    const rule = checkedValue(form, "rule") || "freestyle";
    for (const option of select.options) {
      const fits = option.dataset.rules.split(" ").includes(rule);
      option.disabled = !fits;
      option.hidden = !fits;
    }
    if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "none";
  };
  form.querySelectorAll('input[name="rule"]').forEach((radio) => {
    radio.addEventListener("change", sync);
  });
  sync();
});

function payloadFor(form) {
  const mode = form.dataset.mode;
  const body = { mode, size: boardSize(form), rule: checkedValue(form, "rule") || "freestyle" };
  if (mode === "ai") {
    body.level = parseInt(checkedValue(form, "level") || "3", 10);
    body.color = checkedValue(form, "color") || "black";
    body.defence = parseFloat(checkedValue(form, "defence") || "1.0");
  } else if (mode === "friend") {
    body.color = checkedValue(form, "color") || "black";
    body.preset = checkedValue(form, "preset") || "untimed";
  } else if (mode === "aivai") {
    body.black_player = form.elements.black_player.value;
    body.white_player = form.elements.white_player.value;
  }
  if (form.elements.opening) body.opening = form.elements.opening.value;
  return body;
}

function showError(form, message) {
  const box = form.querySelector(".form-error");
  box.textContent = message;
  box.hidden = !message;
}

async function submit(form, url, body) {
  const button = form.querySelector('button[type="submit"]');
  const label = button.textContent;
  button.disabled = true;
  button.textContent = t("home.creating");
  showError(form, "");
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify(body),
    });
    let data = {};
    try {
      data = await response.json();
    } catch (_err) {
      data = {};
    }
    if (!response.ok || !data.url) {
      // The API answers {error: message, code, params}; the code is translated.
      const message = data.code
        ? errorText({ code: data.code, params: data.params, message: data.error })
        : data.error;
      showError(form, message || `${response.status} ${response.statusText}`);
      return;
    }
    window.location.assign(data.url);
  } catch (_err) {
    showError(form, t("error.network"));
  } finally {
    button.disabled = false;
    button.textContent = label;
  }
}

for (const id of ["form-ai", "form-friend", "form-aivai"]) {
  const form = document.getElementById(id);
  if (!form) continue;
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit(form, "/api/v1/games", payloadFor(form));
  });
}

const importForm = document.getElementById("form-import");
if (importForm) {
  const fileInput = importForm.elements.psq_file;
  fileInput.addEventListener("change", async () => {
    const file = fileInput.files && fileInput.files[0];
    if (!file) return;
    importForm.elements.psq.value = await file.text();
    importForm.querySelector(".file-pick span").textContent = file.name;
  });
  importForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const psq = importForm.elements.psq.value;
    if (!psq.trim()) {
      showError(importForm, t("home.import.empty"));
      return;
    }
    const body = {
      psq,
      level: parseInt(importForm.elements.level.value, 10),
      rule: checkedValue(importForm, "rule") || "freestyle",
    };
    // No colour means: play the side to move in the imported position.
    if (importForm.elements.color.value) body.color = importForm.elements.color.value;
    submit(importForm, "/api/v1/import", body);
  });
}

// ---- hero board: a finished game, drawn by the same view the game page uses --------

const hero = document.getElementById("hero-board");
if (hero) {
  const moves = [
    [7, 7],
    [8, 6],
    [8, 8],
    [6, 6],
    [9, 9],
    [10, 10],
    [6, 8],
    [9, 8],
    [7, 8],
    [5, 8],
    [7, 6],
    [7, 9],
    [6, 7],
    [5, 7],
    [6, 9],
    [5, 10],
    [6, 10],
    [4, 9],
    [6, 11],
  ];
  const view = new BoardView(hero);
  view.update({
    size: 15,
    stones: moves.map((m, i) => ({
      x: m[0],
      y: m[1],
      color: i % 2 ? "white" : "black",
      number: i + 1,
    })),
    lastMove: moves[moves.length - 1],
    winLine: [
      [6, 7],
      [6, 8],
      [6, 9],
      [6, 10],
      [6, 11],
    ],
  });
}

// ---- live games -----------------------------------------------------------------

const list = document.getElementById("live-games");
const empty = document.getElementById("live-empty");

function playerName(player) {
  if (!player) return "?";
  if (player.kind === "ai") {
    // MCTS and external engines have no level: their registry name says who they are.
    return player.level ? t("player.ai", { level: player.level }) : player.name || "AI";
  }
  return !player.name || player.name === "Guest" ? t("player.guest") : player.name;
}

function liveItem(game) {
  const item = document.createElement("li");
  item.className = "live-game";
  item.dataset.gameId = game.id;
  const link = document.createElement("a");
  link.href = "/g/" + encodeURIComponent(game.id);
  const players = document.createElement("span");
  players.className = "live-players";
  ["black", "white"].forEach((color, index) => {
    if (index) {
      const vs = document.createElement("span");
      vs.className = "vs";
      vs.textContent = t("home.live.vs");
      players.appendChild(vs);
    }
    const span = document.createElement("span");
    span.className = "live-player";
    const stone = document.createElement("i");
    stone.className = "stone-icon " + color;
    span.appendChild(stone);
    span.appendChild(document.createTextNode(playerName(game.players[color])));
    players.appendChild(span);
  });
  const meta = document.createElement("span");
  meta.className = "live-meta";
  meta.textContent = [
    t("mode." + game.mode),
    t("rule." + game.rule),
    `${game.size}×${game.size}`,
    t("home.live.moves", { count: game.moves.length }),
  ].join(" · ");
  const watch = document.createElement("span");
  watch.className = "button small";
  watch.textContent = t("home.live.watch");
  link.append(players, meta, watch);
  item.appendChild(link);
  return item;
}

let lastGames = null;

function renderLive(games) {
  lastGames = games;
  list.textContent = "";
  games.forEach((game) => list.appendChild(liveItem(game)));
  empty.hidden = games.length > 0;
}

async function refreshLive() {
  if (document.hidden) return;
  try {
    const response = await fetch("/api/v1/games?status=live", { credentials: "same-origin" });
    if (!response.ok) return;
    const data = await response.json();
    if (Array.isArray(data.games)) renderLive(data.games.slice(0, 20));
  } catch (_err) {
    /* the list just stays as it was */
  }
}

if (list) {
  refreshLive();
  setInterval(refreshLive, 8000);
  onChange(() => {
    if (lastGames) renderLive(lastGames);
  });
}
