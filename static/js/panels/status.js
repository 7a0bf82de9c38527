/*
 * The status line under the players: whose turn it is, the AI thinking (or its engine
 * warming up), waiting for an opponent (or, to the invited friend, the invitation), the result, and a lost connection.
 */
import { t } from "../i18n.js";
import { playerLabel, resultText } from "./labels.js";

function aiWarming(state, view) {
  if (state.warming) return true;
  const info = view.thinking[state.turn];
  return Boolean(info && info.warming && info.ply === state.moves.length);
}

function inviteText(state) {
  const host = ["black", "white"]
    .map((color) => state.players[color])
    .find((player) => player && !player.open);
  return host ? t("status.invited", { host: playerLabel(host) }) : t("status.invited_anon");
}

export function createStatusLine(page) {
  const line = document.getElementById("status");

  function text(state, view) {
    if (state.status === "waiting") {
      // The creator shares the link; the friend it was sent to is invited to the free seat;
      // anyone else only learns that the game has not started.
      if (state.you) return ["waiting", t("status.waiting")];
      if (state.actions.take_seat) return ["invite", inviteText(state)];
      return ["waiting", t("status.waiting_other")];
    }
    if (state.status === "finished") {
      if (state.imported_finished) return ["finished", t("status.imported_over")];
      return ["finished", resultText(state.result)];
    }
    const mover = state.players[state.turn];
    const color = t("color." + state.turn + "_cap");
    if (mover && mover.kind === "ai") {
      const warming = aiWarming(state, view);
      if (state.mode === "aivai") {
        return [
          "thinking",
          t(warming ? "status.ai_side_warming" : "status.ai_side_thinking", { color }),
        ];
      }
      return [
        warming ? "thinking warming" : "thinking",
        t(warming ? "status.warming" : "status.ai_thinking"),
      ];
    }
    if (state.you === state.turn) return ["your-turn", t("status.your_turn")];
    if (state.you) return ["", t("status.opponent_turn")];
    return ["", t("status.to_move", { color })];
  }

  return {
    render(state, view) {
      let [kind, message] = text(state, view);
      if (!view.connected && state.status !== "finished") message += " · " + t("game.reconnecting");
      line.className = "status-line" + (kind ? " " + kind : "");
      line.textContent = message;
    },
  };
}
