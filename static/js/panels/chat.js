/*
 * The game's chat: the players' channel for the two players of a friend game, the
 * spectators' channel for everyone else (the server keeps them apart and says which one
 * this viewer reads in `chat_history`). Lines are plain text, shown with textContent,
 * never as markup. The panel can be hidden; the choice is remembered in this browser.
 */
import { t } from "../i18n.js";
import { toast } from "../toast.js";
import { storeFlag, storedFlag } from "../prefs.js";

const HIDDEN_KEY = "gomoku.chat.hidden";
const MAX_LINES = 200;
const MAX_CHARS = 140;

export function createChatPanel(page) {
  const card = document.getElementById("chat-card");
  const title = document.getElementById("chat-title");
  const toggle = document.getElementById("chat-toggle");
  const body = document.getElementById("chat-body");
  const log = document.getElementById("chat-log");
  const empty = document.getElementById("chat-empty");
  const form = document.getElementById("chat-form");
  const input = document.getElementById("chat-input");
  let channel = null;
  let hidden = storedFlag(HIDDEN_KEY, false);
  const seen = new Set();

  function showHidden() {
    body.hidden = hidden;
    card.classList.toggle("collapsed", hidden);
    toggle.textContent = t(hidden ? "chat.show" : "chat.hide");
    toggle.setAttribute("aria-expanded", String(!hidden));
  }

  toggle.addEventListener("click", () => {
    hidden = !hidden;
    storeFlag(HIDDEN_KEY, hidden);
    showHidden();
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    if (text.length > MAX_CHARS) {
      toast(t("error.chat_too_long", { max: MAX_CHARS }));
      return;
    }
    const reply = await page.send("chat", { text });
    if (reply && reply.ok) input.value = "";
  });

  function add(line) {
    if (!line || typeof line.text !== "string" || seen.has(line.id)) return;
    seen.add(line.id);
    const item = document.createElement("li");
    item.className = "chat-line";
    if (line.seat === "black" || line.seat === "white") item.dataset.seat = line.seat;
    if (page.state.you && line.seat === page.state.you) item.classList.add("mine");
    const name = document.createElement("span");
    name.className = "chat-name";
    name.textContent = String(line.name || "");
    const text = document.createElement("span");
    text.className = "chat-text";
    text.textContent = line.text;
    item.append(name, text);
    log.append(item);
    while (log.children.length > MAX_LINES) log.firstElementChild.remove();
    empty.hidden = true;
    log.scrollTop = log.scrollHeight;
  }

  showHidden();
  return {
    history(payload) {
      channel = payload.channel === "players" || payload.channel === "spectators"
        ? payload.channel
        : null;
      log.replaceChildren();
      seen.clear();
      empty.hidden = false;
      for (const line of payload.messages || []) add(line);
      this.render();
    },
    line(payload) {
      if (payload.channel !== channel) return;
      add(payload);
    },
    render() {
      card.hidden = channel === null;
      card.dataset.channel = channel || "";
      title.textContent = t(channel === "spectators" ? "chat.spectators" : "chat.players");
      showHidden();
    },
  };
}
