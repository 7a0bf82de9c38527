/*
 * The opening card: the opening rule, the step it asks for now and of whom (by role
 * until the colours are fixed, with the colour each holds), the colour of the stone to
 * place and the central square it must go in, and for the player to act the buttons the
 * server's `opening.options` allow ("Play black", "Play white", "Place two more", "Offer
 * ten fifth moves", or the number of fifth moves to declare). Stones, offers and the
 * pick are board clicks (the page's `move` intent); a choice is `opening_choice`.
 */
import { has, t } from "../i18n.js";

const BUTTON_KEYS = {
  black: "opening.play_black",
  white: "opening.play_white",
  place_two: "opening.place_two",
  offer: "opening.offer",
};

export function createOpeningPanel(page) {
  const card = document.getElementById("opening-card");
  const rule = document.getElementById("opening-rule");
  const stone = document.getElementById("opening-stone");
  const text = document.getElementById("opening-text");
  const choices = document.getElementById("opening-choices");
  const log = document.getElementById("opening-log");
  let shownOptions = "";

  choices.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-option]");
    if (!button || button.disabled) return;
    const state = page.state;
    for (const other of choices.querySelectorAll("button")) other.disabled = true;
    page
      .send("opening_choice", { option: button.dataset.option, version: state.version })
      .then((reply) => {
        if (!reply || !reply.ok) {
          for (const other of choices.querySelectorAll("button")) other.disabled = false;
        }
      });
  });

  function who(opening, state) {
    const player = opening.actor;
    const seat = opening.actor_seat;
    if (state.you && seat === state.you) return t("opening.you");
    const name = state.players[seat] ? state.players[seat].name : "";
    return t("opening.role." + player, { name });
  }

  function stepText(opening, state) {
    const mine = Boolean(state.you) && opening.actor_seat === state.you;
    const color = opening.stone ? t("color." + opening.stone) : "";
    let area = opening.area ? t("opening.area", { size: opening.area }) : "";
    if (opening.area === 1) area = t("opening.area_centre");
    const done = opening.proposals.length;
    const params = { who: who(opening, state), color, area, count: opening.count, done };
    const key = `opening.step.${opening.step}.${mine ? "mine" : "theirs"}`;
    if (opening.step === "choose" && opening.stage === "swap_fourth") {
      return t(`opening.step.swap_fourth.${mine ? "mine" : "theirs"}`, {
        ...params,
        count: opening.declared,
      });
    }
    // One offered fifth move is simply "the offered stone".
    if (opening.step === "pick" && opening.count === 1 && has(key + "_one")) {
      return t(key + "_one", params);
    }
    return t(key, params);
  }

  function logText(opening) {
    return opening.log
      .map((entry) => {
        const [player, option, count] = entry.split(":");
        const role = t("opening.role_short." + player);
        if (option === "declare") return t("opening.log.declare", { role, count });
        return t("opening.log." + option, { role });
      })
      .join(" · ");
  }

  function renderChoices(opening, state) {
    const options = state.actions.opening ? opening.options : [];
    const key = options.join(",") + "@" + state.version;
    if (key === shownOptions) return;
    shownOptions = key;
    choices.textContent = "";
    choices.hidden = options.length === 0;
    if (!options.length) return;
    if (opening.step === "declare") {
      const label = document.createElement("span");
      label.className = "opening-declare-label";
      label.textContent = t("opening.declare_label");
      choices.appendChild(label);
    }
    for (const option of options) {
      const button = document.createElement("button");
      button.type = "button";
      button.className = "button" + (option === "place_two" || option === "offer" ? "" : " primary");
      if (opening.step === "declare") button.className = "button small";
      button.dataset.option = option;
      button.textContent = BUTTON_KEYS[option] ? t(BUTTON_KEYS[option], { count: opening.count }) : option;
      choices.appendChild(button);
    }
  }

  return {
    render(state) {
      const opening = state.opening;
      card.hidden = !opening;
      if (!opening) return;
      card.dataset.step = opening.active ? opening.step : "done";
      rule.textContent = t("opening.rule." + opening.rule);
      const placing = opening.active && opening.stone && opening.step === "place";
      stone.hidden = !placing && !(opening.active && opening.step === "propose");
      stone.className = "stone-icon " + (placing ? opening.stone : "black");
      if (state.status === "waiting") text.textContent = t("opening.waiting");
      else if (!opening.active) {
        const mine = state.you ? t("opening.done_you", { color: t("color." + state.you) }) : "";
        text.textContent = t("opening.done") + (mine ? " " + mine : "");
      } else text.textContent = stepText(opening, state);
      renderChoices(opening, state);
      log.textContent = logText(opening);
      log.hidden = opening.log.length === 0;
    },
  };
}
