/*
 * How players and results are named on the page, in the visitor's language.
 */
import { has, t } from "../i18n.js";
import { otherColor } from "../points.js";

export function playerLabel(player) {
  if (!player) return "";
  if (player.kind === "ai") {
    // MCTS and external engines have no level: their registry name says who they are.
    if (!player.level) return player.name || "AI";
    const levelName = has(`level.${player.level}.name`) ? t(`level.${player.level}.name`) : "";
    return t("player.ai", { level: player.level }) + (levelName ? ` · ${levelName}` : "");
  }
  if (!player.name || player.name === "Guest") return t("player.guest");
  return player.name;
}

const TERMINATION_KEYS = {
  five: "result.five",
  resign: "result.resign",
  flag: "result.flag",
  timeout: "result.flag",
  abandon: "result.abandon",
  forbidden: "result.forbidden",
  forfeit: "result.forfeit",
};

export function resultText(result) {
  if (!result) return "";
  const termination = result.termination || result.reason;
  if (termination === "aborted") return t("result.aborted");
  if (!result.winner) {
    if (termination === "full") return t("result.draw_full");
    if (termination === "draw") return t("result.agreed_draw");
    return t("result.draw");
  }
  const winner = t(`color.${result.winner}_cap`);
  const loser = t(`color.${otherColor(result.winner)}_lower`);
  const text = t(TERMINATION_KEYS[termination] || "result.win", { winner, loser });
  // An external engine that lost by failing says why (crashed, illegal move, silent).
  return result.detail ? `${text} (${result.detail})` : text;
}
