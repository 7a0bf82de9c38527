/*
 * The actions card: the move field ("h8" or "7,7"), the buttons the server's `actions`
 * allow this viewer now (undo, hint, takeback, draw, resign, abort), the countdown after
 * an opponent left and the claim button it leads to, and the share link.
 */
import { t } from "../i18n.js";
import { formatCountdown } from "../format.js";
import { parsePoint } from "../points.js";
import { toast } from "../toast.js";

const BUTTONS = {
  "btn-undo": "undo",
  "btn-hint": "hint",
  "btn-takeback": "takeback",
  "btn-draw": "draw",
  "btn-resign": "resign",
  "btn-abort": "abort",
};

export function createActionsPanel(page) {
  const $ = (id) => document.getElementById(id);
  const abandonBox = $("abandon-box");
  const abandonText = $("abandon-text");
  const claim = $("btn-claim");
  let abandonStamp = null; // [the server's `now`, performance.now() when it arrived]

  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const input = $("move-input");
    const point = parsePoint(input.value, page.state.size);
    if (!point) {
      toast(t("error.bad_point", { text: input.value.trim() || "?" }));
      input.select();
      return;
    }
    if (page.view.viewPly !== null) page.goTo(page.state.moves.length);
    page.play(point[0], point[1]);
    input.value = "";
  });

  $("btn-undo").addEventListener("click", () => page.send("undo"));
  $("btn-hint").addEventListener("click", () => page.send("hint"));
  $("btn-takeback").addEventListener("click", () => {
    page.view.askedTakeback = true;
    page.send("takeback_request");
  });
  $("btn-draw").addEventListener("click", () => page.send("draw_offer"));
  $("btn-resign").addEventListener("click", () => {
    if (window.confirm(t("confirm.resign"))) page.send("resign");
  });
  $("btn-abort").addEventListener("click", () => {
    if (window.confirm(t("confirm.abort"))) page.send("abort");
  });
  claim.addEventListener("click", () => page.send("claim_victory"));

  async function copyLink() {
    const url = window.location.origin + "/g/" + page.gameId;
    try {
      await navigator.clipboard.writeText(url);
      toast(t("game.copied"), "info");
    } catch (_err) {
      const input = $("share-link");
      input.value = url;
      input.closest(".card").hidden = false;
      input.select();
      const ok = document.execCommand && document.execCommand("copy");
      toast(ok ? t("game.copied") : url, "info");
    }
  }
  $("btn-copy").addEventListener("click", copyLink);
  $("btn-copy-waiting").addEventListener("click", copyLink);
  $("share-link").addEventListener("focus", (event) => event.target.select());

  function renderAbandon(state) {
    const abandon = state.abandon;
    if (!abandon || state.status !== "active") {
      abandonBox.hidden = true;
      return;
    }
    // The server's clock, carried forward by ours since the state that told it.
    if (!abandonStamp || abandonStamp[0] !== abandon.now) {
      abandonStamp = [abandon.now, performance.now()];
    }
    const now = abandon.now + (performance.now() - abandonStamp[1]);
    const left = abandon.claim_at - now;
    const color = t("color." + abandon.seat + "_cap");
    abandonBox.hidden = false;
    if (!state.you || state.you === abandon.seat)
      abandonText.textContent = t("abandon.watching", { color });
    else if (left > 0)
      abandonText.textContent = t("abandon.countdown", { color, time: formatCountdown(left) });
    else abandonText.textContent = t("abandon.claimable", { color });
    abandonBox.dataset.left = String(Math.max(0, Math.ceil(left / 1000)));
    claim.hidden = !state.actions.claim;
  }

  setInterval(() => {
    if (page.state.abandon) renderAbandon(page.state);
  }, 500);

  return {
    render(state, view) {
      const actions = state.actions;
      for (const [id, name] of Object.entries(BUTTONS)) $(id).hidden = !actions[name];
      const seated = Boolean(state.you);
      $("move-form").hidden = !(seated && state.status === "active" && state.mode !== "aivai");
      $("move-input").disabled = !actions.move && !(seated && state.status === "active");
      $("btn-play").disabled = !(actions.move && view.connected && !view.pendingMove);
      renderAbandon(state);
    },
  };
}
