/*
 * The result banner of a finished game: who won and how, the viewer's own outcome, the
 * rematch (started at once against the AI, an offer the other player answers between
 * friends), the link to the new game once there is one, and for an imported record that
 * was already over, the way into replaying it.
 */
import { t } from "../i18n.js";
import { resultText } from "./labels.js";

export function createResultPanel(page) {
  const $ = (id) => document.getElementById(id);
  const banner = $("result-banner");
  const rematch = $("btn-rematch");
  const link = $("rematch-link");
  const imported = $("imported-note");
  const replay = $("btn-replay-start");

  rematch.addEventListener("click", () => {
    page.view.askedRematch = true;
    page.send("rematch");
    page.render();
  });
  replay.addEventListener("click", () => page.goTo(0));

  return {
    render(state) {
      const finished = state.status === "finished" && state.result;
      banner.hidden = !finished;
      if (!finished) return;
      const result = state.result;
      banner.className = "result-banner " + (result.winner ? "win-" + result.winner : "draw");
      $("result-title").textContent = resultText(result);
      const aborted = (result.termination || result.reason) === "aborted";
      let sub = "";
      if (aborted && (result.detail === "unplayed" || result.detail === "unanswered")) {
        sub = t("result." + result.detail);
      } else if (state.you && !state.imported_finished && !aborted) {
        if (!result.winner) sub = t("result.you_drew");
        else sub = result.winner === state.you ? t("result.you_won") : t("result.you_lost");
      }
      $("result-sub").textContent = sub;
      $("result-sub").hidden = !sub;
      imported.hidden = !state.imported_finished;
      replay.hidden = !state.imported_finished;
      const offeredByMe = state.offers.rematch && state.offers.rematch === state.you;
      rematch.hidden = !state.actions.rematch || offeredByMe;
      rematch.textContent = t(state.mode === "ai" ? "action.rematch" : "action.offer_rematch");
      link.hidden = !state.next_game;
      if (state.next_game) link.href = "/g/" + encodeURIComponent(state.next_game);
    },
  };
}
