/*
 * The status line under the players: whose turn it is, the AI thinking (or its engine
 * warming up), waiting for an opponent, the result, and a lost connection.
 */
import { t } from "../i18n.js";
import { resultText } from "./labels.js";

function aiWarming(state, view) {
  if (state.warming) return true;
  const info = view.thinking[state.turn];
  return Boolean(info && info.warming && info.ply === state.moves.length);
}

export function createStatusLine(page) {
  const line = document.getElementById("status");

  function text(state, view) {
    if (state.status === "waiting") return ["waiting", t("status.waiting")];
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
