/*
 * Replay: the bar under the board (first, previous, position, next, last, and the move
 * number and PV toggles), the move list, and the keys that step through the game (arrow
 * keys, Page Up/Down, Home/End) wherever the focus is, except in text fields and on a
 * board that is taking a move with its own cursor.
 */
import { colorOfPly, pointName } from "../points.js";
import { storeFlag, storedFlag } from "../prefs.js";

export function createReplay(page) {
  const $ = (id) => document.getElementById(id);
  const numbers = $("toggle-numbers");
  const pv = $("toggle-pv");
  const list = $("move-list");
  // The engine's expected line is a free hint to a person playing it: off for players,
  // on for spectators; each keeps its own choice.
  const pvKey = () => (page.state.you ? "gomoku.pv.player" : "gomoku.pv.spectator");
  numbers.checked = storedFlag("gomoku.numbers", false);
  pv.checked = storedFlag(pvKey(), !page.state.you);
  page.showNumbers = () => numbers.checked;
  page.showPv = () => pv.checked;

  numbers.addEventListener("change", () => {
    storeFlag("gomoku.numbers", numbers.checked);
    page.render();
  });
  pv.addEventListener("change", () => {
    storeFlag(pvKey(), pv.checked);
    page.render();
  });

  $("nav-first").addEventListener("click", () => page.goTo(0));
  $("nav-prev").addEventListener("click", () => page.goTo(page.shownPly() - 1));
  $("nav-next").addEventListener("click", () => page.goTo(page.shownPly() + 1));
  $("nav-last").addEventListener("click", () => page.goTo(page.state.moves.length));
  list.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-ply]");
    if (button) page.goTo(Number(button.dataset.ply));
  });

  document.addEventListener("keydown", (event) => {
    const target = event.target;
    if (target && ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName)) return;
    if (event.altKey || event.ctrlKey || event.metaKey || event.defaultPrevented) return;
    const total = page.state.moves.length;
    const steps = {
      ArrowLeft: () => page.goTo(page.shownPly() - 1),
      ArrowRight: () => page.goTo(page.shownPly() + 1),
      PageUp: () => page.goTo(page.shownPly() - 1),
      PageDown: () => page.goTo(page.shownPly() + 1),
      ArrowUp: () => page.goTo(0),
      ArrowDown: () => page.goTo(total),
      Home: () => page.goTo(0),
      End: () => page.goTo(total),
    };
    if (steps[event.key]) {
      event.preventDefault();
      steps[event.key]();
    }
  });

  function renderList(state, shown) {
    list.textContent = "";
    $("moves-empty").hidden = state.moves.length > 0;
    for (let i = 0; i < state.moves.length; i += 2) {
      const item = document.createElement("li");
      item.className = "move-pair";
      const number = document.createElement("span");
      number.className = "move-no";
      number.textContent = String(i / 2 + 1);
      item.appendChild(number);
      for (const j of [i, i + 1]) {
        if (j >= state.moves.length) break;
        const button = document.createElement("button");
        button.type = "button";
        button.className = "move " + colorOfPly(j);
        button.dataset.ply = String(j + 1);
        button.textContent = pointName(state.moves[j], state.size);
        if (j + 1 === shown) button.classList.add("current");
        item.appendChild(button);
      }
      list.appendChild(item);
    }
  }

  // Scroll the list's own box so the current move shows; never the page around it
  // (scrollIntoView would move the window too, taking the board off a phone's screen).
  function keepInList(item) {
    const box = list.getBoundingClientRect();
    const at = item.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  }

  return {
    render(state, view) {
      const shown = page.shownPly();
      const atEnd = shown === state.moves.length;
      $("replay-position").textContent = `${shown} / ${state.moves.length}`;
      $("nav-first").disabled = shown === 0;
      $("nav-prev").disabled = shown === 0;
      $("nav-next").disabled = atEnd;
      $("nav-last").disabled = atEnd;
      renderList(state, shown);
      const current = list.querySelector(".current");
      if (current && view.viewPly === null) list.scrollTop = list.scrollHeight;
      else if (current) keepInList(current);
    },
  };
}
