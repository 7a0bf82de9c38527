/*
 * The review's summary per side: how many moves of each class, forced wins missed and
 * allowed, and the average loss of winning chance per move.
 */
import { t } from "../i18n.js";

const ROWS = [
  ["best", "class.best"],
  ["good", "class.good"],
  ["inaccuracy", "review.inaccuracies"],
  ["mistake", "review.mistakes"],
  ["blunder", "review.blunders"],
  ["missed_wins", "review.missed_wins"],
  ["allowed_wins", "review.allowed_wins"],
];

export function createReviewSummary(page) {
  const card = document.getElementById("review-summary");
  const body = document.getElementById("summary-body");

  return {
    render() {
      const review = page.review();
      card.hidden = !review;
      if (!review) return;
      const summary = review.summary;
      const rows = ROWS.map(([field, key]) => [
        field,
        t(key),
        summary.black[field],
        summary.white[field],
      ]);
      rows.push([
        "average_loss",
        t("review.average_loss"),
        `${(summary.black.average_loss * 100).toFixed(1)}%`,
        `${(summary.white.average_loss * 100).toFixed(1)}%`,
      ]);
      body.textContent = "";
      for (const [field, label, black, white] of rows) {
        const row = document.createElement("tr");
        row.dataset.field = field;
        row.className = "row-" + field;
        for (const [text, tag] of [
          [label, "th"],
          [black, "td"],
          [white, "td"],
        ]) {
          const cell = document.createElement(tag);
          cell.textContent = String(text);
          row.appendChild(cell);
        }
        body.appendChild(row);
      }
    },
  };
}
