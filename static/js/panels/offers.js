/*
 * Open offers between the players (takeback, draw, rematch): the asker sees that the
 * offer waits and may cancel a takeback; the other player answers with Accept or
 * Decline. Each button is shown only when the server's `actions` allow it.
 */
import { t } from "../i18n.js";

const KINDS = ["takeback", "draw", "rematch"];

export function createOffersPanel(page) {
  const box = document.getElementById("offer-box");
  const text = document.getElementById("offer-text");
  const accept = document.getElementById("btn-accept");
  const decline = document.getElementById("btn-decline");
  const cancel = document.getElementById("btn-cancel-offer");
  let shown = null; // the kind of offer in the box

  accept.addEventListener("click", () => page.send(`${shown}_answer`, { accept: true }));
  decline.addEventListener("click", () => page.send(`${shown}_answer`, { accept: false }));
  cancel.addEventListener("click", () => {
    page.view.cancelled[shown] = true;
    page.send(`${shown}_cancel`);
  });

  return {
    render(state) {
      shown = KINDS.find((kind) => state.offers[kind]) || null;
      const seated = Boolean(state.you);
      if (!shown || !seated) {
        box.hidden = true;
        box.dataset.kind = "";
        return;
      }
      const by = state.offers[shown];
      const mine = by === state.you;
      box.hidden = false;
      box.dataset.kind = shown;
      text.textContent = mine
        ? t(`offer.${shown}.mine`)
        : t(`offer.${shown}.theirs`, { color: t("color." + by + "_cap") });
      accept.hidden = mine || !state.actions[`${shown}_answer`];
      decline.hidden = accept.hidden;
      cancel.hidden = !(mine && state.actions[`${shown}_cancel`]);
    },
  };
}
