/*
 * The seek lobby (lobby.html): one Socket.IO connection to /lobby keeps the list of open
 * seeks live (`lobby_seeks`), sends the intents (seek_create, seek_cancel, seek_take,
 * quick_pair, quick_cancel) and, when a game starts for this visitor (`lobby_start`,
 * or a take's acknowledgement), goes to its link, which sets the seat cookie.
 */
import { errorText, onChange, t } from "./i18n.js";

const root = document.getElementById("lobby");
const list = document.getElementById("seek-list");
const empty = document.getElementById("seeks-empty");
const quickForm = document.getElementById("form-quick");
const seekForm = document.getElementById("form-seek");
const socket = window.io("/lobby", { transports: ["websocket", "polling"], tryAllTransports: true });

let seeks = [];
let mySeekId = null;
const you = root.dataset.you;
let going = false;
try {
  seeks = JSON.parse(root.dataset.initialSeeks || "[]");
} catch (_err) {
  seeks = [];
}

function checkedValue(form, name) {
  const input = form.querySelector(`input[name="${name}"]:checked`);
  return input ? input.value : null;
}

function requestOf(form) {
  return {
    rule: form.elements.rule.value,
    size: parseInt(form.elements.size.value, 10),
    preset: checkedValue(form, "preset") || "untimed",
    rated: checkedValue(form, "rated") !== "0",
  };
}

function showError(form, error) {
  const box = form.querySelector(".form-error");
  box.textContent = error ? errorText(error) : "";
  box.hidden = !error;
}

function intent(event, payload) {
  return new Promise((resolve) => {
    socket.timeout(10000).emit(event, payload, (err, ack) => {
      resolve(err ? { ok: false, error: { code: "network", message: t("error.network") } } : ack);
    });
  });
}

function go(url) {
  if (going) return;
  going = true;
  window.location.assign(url);
}

function presetLabel(preset) {
  return preset === "untimed" ? t("preset.untimed") : preset;
}

function seekItem(seek) {
  const item = document.createElement("li");
  item.className = "seek" + (seek.id === mySeekId ? " mine" : "");
  item.dataset.seekId = seek.id;
  const who = document.createElement("span");
  who.className = "seek-who";
  const name = document.createElement("strong");
  name.textContent = seek.name;
  const rating = document.createElement("span");
  rating.className = "seek-rating";
  rating.textContent = `${seek.rating}${seek.provisional ? "?" : ""}`;
  who.append(name, rating);
  const what = document.createElement("span");
  what.className = "seek-what";
  const parts = [
    `${t("rule." + seek.rule)} ${seek.size}×${seek.size}`,
    presetLabel(seek.preset),
    t(seek.rated ? "lobby.rated" : "lobby.casual"),
    t("color." + seek.color),
  ];
  if (seek.opening && seek.opening !== "none") parts.push(t("home.opening." + seek.opening));
  what.textContent = parts.join(" · ");
  const button = document.createElement("button");
  button.type = "button";
  button.className = "button small" + (seek.id === mySeekId ? "" : " primary");
  if (seek.id === mySeekId) {
    button.textContent = t("lobby.seek.yours");
    button.disabled = true;
  } else {
    button.textContent = t("lobby.take");
    button.addEventListener("click", () => take(seek.id, button));
  }
  item.append(who, what, button);
  return item;
}

function render() {
  // After a reload the list still knows which seek is this visitor's.
  const own = seeks.find((seek) => seek.person === you);
  if (own) mySeekId = own.id;
  list.textContent = "";
  seeks.forEach((seek) => list.appendChild(seekItem(seek)));
  empty.hidden = seeks.length > 0;
  document.getElementById("seek-cancel").hidden = !mySeekId;
  document.getElementById("seek-start").hidden = Boolean(mySeekId);
}

async function take(seekId, button) {
  button.disabled = true;
  const ack = await intent("seek_take", { seek_id: seekId });
  if (ack && ack.ok) {
    go(ack.url);
    return;
  }
  button.disabled = false;
  showError(seekForm, ack ? ack.error : null);
}

seekForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(seekForm, null);
  const body = requestOf(seekForm);
  body.color = checkedValue(seekForm, "color") || "random";
  body.opening = seekForm.elements.opening.value || "none";
  const ack = await intent("seek_create", body);
  if (ack && ack.ok) {
    mySeekId = ack.seek.id;
    render();
  } else {
    showError(seekForm, ack ? ack.error : null);
  }
});

document.getElementById("seek-cancel").addEventListener("click", async () => {
  await intent("seek_cancel", { kind: "seek" });
  mySeekId = null;
  render();
});

function setWaiting(waiting) {
  document.getElementById("quick-waiting").hidden = !waiting;
  document.getElementById("quick-cancel").hidden = !waiting;
  document.getElementById("quick-start").hidden = waiting;
}

quickForm.addEventListener("submit", async (event) => {
  event.preventDefault();
  showError(quickForm, null);
  const ack = await intent("quick_pair", requestOf(quickForm));
  if (ack && ack.ok && ack.url) go(ack.url);
  else if (ack && ack.ok) setWaiting(true);
  else showError(quickForm, ack ? ack.error : null);
});

document.getElementById("quick-cancel").addEventListener("click", async () => {
  await intent("quick_cancel", {});
  setWaiting(false);
});

socket.on("lobby_seeks", (payload) => {
  seeks = Array.isArray(payload.seeks) ? payload.seeks : [];
  if (mySeekId && !seeks.some((seek) => seek.id === mySeekId)) mySeekId = null;
  render();
});
socket.on("lobby_start", (payload) => go(payload.url));

// The opening rules offered follow the board rule chosen; the server refuses any other.
function syncOpenings() {
  const rule = seekForm.elements.rule.value;
  const select = seekForm.elements.opening;
  for (const option of select.options) {
    const fits = option.dataset.rules.split(" ").includes(rule);
    option.disabled = !fits;
    option.hidden = !fits;
  }
  if (select.selectedOptions[0] && select.selectedOptions[0].disabled) select.value = "none";
}
seekForm.elements.rule.addEventListener("change", syncOpenings);
syncOpenings();

render();
onChange(render);
