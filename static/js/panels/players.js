/*
 * The players box: one row per colour with name, connection, "you" tag and clock (the
 * clocks tick here between server updates; the server stays the referee), and the
 * "take the free seat" button for a visitor when the server offers a seat.
 */
import { t } from "../i18n.js";
import { formatClock } from "../format.js";
import { toast } from "../toast.js";
import { playerLabel } from "./labels.js";

const COLORS = ["black", "white"];

export function createPlayersPanel(page) {
  const rows = Object.fromEntries(COLORS.map((c) => [c, document.getElementById("player-" + c)]));
  const seatButton = document.getElementById("btn-take-seat");
  const clockNote = document.getElementById("clock-note");
  let clockStamp = performance.now();
  let clockVersion = null;

  function liveClockMs(state, color) {
    const clock = state.clock;
    const base = clock[color + "_ms"];
    if (clock.running === color && state.status === "active") {
      return base - (performance.now() - clockStamp);
    }
    return base;
  }

  function renderClocks(state) {
    for (const color of COLORS) {
      const clockEl = rows[color].querySelector(".clock");
      clockEl.hidden = !state.clock;
      if (!state.clock) continue;
      const ms = liveClockMs(state, color);
      clockEl.textContent = formatClock(ms);
      clockEl.classList.toggle(
        "running",
        state.clock.running === color && state.status === "active",
      );
      clockEl.classList.toggle("low", ms < 20000);
    }
  }

  // The server marks the seat nobody holds yet; the page does not guess it.
  function freeSeat(state) {
    return COLORS.find((c) => state.players[c] && state.players[c].open);
  }

  seatButton.addEventListener("click", async () => {
    seatButton.disabled = true;
    const reply = await page.send("take_seat");
    seatButton.disabled = false;
    if (!reply || !reply.ok) return;
    // The socket plays the seat at once; the token becomes this browser's HttpOnly seat
    // cookie so the seat outlives the page.
    if (reply.token) {
      await fetch(`/g/${encodeURIComponent(page.gameId)}/seat`, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ token: reply.token }),
      });
    }
    if (reply.seat)
      toast(t("game.seat_taken", { color: t("color." + reply.seat + "_lower") }), "info");
    // Should the new seat not arrive with a state, the page asks again.
    setTimeout(() => {
      if (!page.state.you) window.location.reload();
    }, 2000);
  });

  setInterval(() => {
    const state = page.state;
    if (state.clock && state.clock.running && state.status === "active") renderClocks(state);
  }, 100);

  return {
    render(state) {
      if (clockVersion !== state.version) {
        clockStamp = performance.now();
        clockVersion = state.version;
      }
      const open = freeSeat(state);
      for (const color of COLORS) {
        const player = state.players[color];
        const row = rows[color];
        const name = row.querySelector(".name");
        const detail = row.querySelector(".detail");
        const dot = row.querySelector(".conn-dot");
        row.querySelector(".you-tag").hidden = state.you !== color;
        if (color === open) {
          name.textContent = t("player.open_seat");
          detail.textContent = t("player.waiting");
          dot.className = "conn-dot waiting";
        } else if (player.kind === "ai") {
          name.textContent = playerLabel(player);
          detail.textContent = t("color." + color) + " · " + t("player.engine");
          dot.className = "conn-dot ai";
        } else {
          name.textContent = playerLabel(player);
          detail.textContent =
            t("color." + color) + " · " + t(player.connected ? "player.online" : "player.offline");
          dot.className = "conn-dot " + (player.connected ? "online" : "offline");
        }
        row.classList.toggle("to-move", state.status === "active" && state.turn === color);
      }
      // Clocks run once each side has moved; until then the game may still be aborted.
      clockNote.hidden = !(state.clock && state.status === "active" && !state.clock.running);
      seatButton.hidden = !state.actions.take_seat;
      seatButton.textContent = open
        ? t("game.take_seat_as", { color: t("color." + open + "_lower") })
        : t("game.take_seat");
      renderClocks(state);
    },
  };
}
