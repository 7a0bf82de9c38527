/*
 * The review's move list: each move with its class's symbol and colour (best !, good,
 * inaccuracy ?!, mistake ?, blunder ??) and a ✦ where a forced win was missed or allowed.
 * A click shows that move.
 */
import { t } from "../i18n.js";
import { colorOfPly, pointName } from "../points.js";

export function createReviewMoves(page) {
  const list = document.getElementById("move-list");
  list.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-ply]");
    if (button) page.goTo(Number(button.dataset.ply));
  });
  let drawn = null;

  function draw() {
    const game = page.game;
    list.textContent = "";
    for (let i = 0; i < game.moves.length; i += 2) {
      const item = document.createElement("li");
      item.className = "move-pair";
      const number = document.createElement("span");
      number.className = "move-no";
      number.textContent = String(i / 2 + 1);
      item.appendChild(number);
      for (const j of [i, i + 1]) {
        if (j >= game.moves.length) break;
        const info = page.plyReview(j + 1);
        const button = document.createElement("button");
        button.type = "button";
        button.className = "move " + colorOfPly(j);
        button.dataset.ply = String(j + 1);
        const name = document.createElement("span");
        name.textContent = pointName(game.moves[j], game.size);
        button.appendChild(name);
        if (info) {
          button.classList.add("cls-" + info.class);
          button.dataset.class = info.class;
          button.title = t("class." + info.class);
          if (info.symbol) {
            const symbol = document.createElement("span");
            symbol.className = "move-symbol";
            symbol.textContent = info.symbol;
            button.appendChild(symbol);
          }
          if (info.missed_win || info.allowed_win) {
            const forced = document.createElement("span");
            forced.className = "move-forced";
            forced.textContent = "✦";
            forced.title = t(info.missed_win ? "review.missed" : "review.allowed");
            button.appendChild(forced);
            button.dataset.forced = info.missed_win ? "missed" : "allowed";
          }
        }
        item.appendChild(button);
      }
      list.appendChild(item);
    }
  }

  return {
    render() {
      const key = page.review() ? "done" : "plain";
      if (drawn !== key) {
        draw();
        drawn = key;
      }
      for (const button of list.querySelectorAll("button.current")) {
        button.classList.remove("current");
      }
      const current = list.querySelector(`button[data-ply="${page.shownPly()}"]`);
      if (current) {
        current.classList.add("current");
        // Scroll the list only, never the page around it.
        const top = current.offsetTop; // the list is its offset parent
        if (top < list.scrollTop) list.scrollTop = top;
        else if (top + current.offsetHeight > list.scrollTop + list.clientHeight) {
          list.scrollTop = top + current.offsetHeight - list.clientHeight;
        }
      }
    },
  };
}
