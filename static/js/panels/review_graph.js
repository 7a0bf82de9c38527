/*
 * The review's win-probability graph: black's chance to win (0..1, black's side at the
 * top) in every position of the game, on the one scale of webapp/game/winrate.py. Moves
 * classed inaccuracy, mistake or blunder get a dot in their class's colour, forced wins
 * missed or allowed a diamond; while the review runs, the positions found so far. A
 * click jumps to that move; the cursor marks the move shown.
 */
const W = 300;
const H = 100;
const PAD = 5;
const MARKED = ["inaccuracy", "mistake", "blunder"];

function svg(tag, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

export function createReviewGraph(page) {
  const graph = document.getElementById("review-graph");
  const total = () => Math.max(1, page.game.moves.length);

  graph.addEventListener("click", (event) => {
    const rect = graph.getBoundingClientRect();
    const x = ((event.clientX - rect.left) / rect.width) * W;
    page.goTo(Math.round(((x - PAD) / (W - 2 * PAD)) * total()));
  });

  function rates() {
    const review = page.review();
    if (review) return review.positions.map((p) => p.black_winrate);
    return page.live;
  }

  return {
    render() {
      const px = (ply) => PAD + (ply / total()) * (W - 2 * PAD);
      const py = (rate) => PAD + (1 - rate) * (H - 2 * PAD);
      const mid = H / 2;
      const parts = [
        svg("rect", { x: 0, y: 0, width: W, height: mid, class: "eval-black-zone" }),
        svg("rect", { x: 0, y: mid, width: W, height: mid, class: "eval-white-zone" }),
        svg("line", { x1: 0, y1: mid, x2: W, y2: mid, class: "eval-axis" }),
      ];
      const values = rates();
      const points = [];
      values.forEach((rate, ply) => {
        if (typeof rate === "number") points.push([ply, rate]);
      });
      if (points.length) {
        const path = points
          .map(([ply, rate], i) => `${i ? "L" : "M"}${px(ply).toFixed(1)},${py(rate).toFixed(1)}`)
          .join(" ");
        const first = points[0][0];
        const last = points[points.length - 1][0];
        const area = `M${px(first).toFixed(1)},${mid} ${path.replace(/^M/, "L")} L${px(last).toFixed(1)},${mid} Z`;
        parts.push(svg("path", { d: area, class: "eval-area" }));
        parts.push(svg("path", { d: path, class: "eval-line" }));
      }
      const review = page.review();
      let marked = 0;
      if (review) {
        for (const info of review.plies) {
          const rate = review.positions[info.ply].black_winrate;
          const x = px(info.ply);
          const y = py(rate);
          if (info.missed_win || info.allowed_win) {
            const r = 4.5;
            parts.push(
              svg("path", {
                d: `M${x},${y - r} L${x + r},${y} L${x},${y + r} L${x - r},${y} Z`,
                class: "graph-forced",
                "data-ply": info.ply,
              }),
            );
            marked += 1;
          } else if (MARKED.includes(info.class)) {
            parts.push(
              svg("circle", { cx: x, cy: y, r: 3.2, class: "graph-dot cls-" + info.class }),
            );
            marked += 1;
          }
        }
      }
      const shown = px(page.shownPly());
      parts.push(svg("line", { x1: shown, y1: 0, x2: shown, y2: H, class: "eval-cursor" }));
      graph.replaceChildren(...parts);
      graph.dataset.points = String(points.length);
      graph.dataset.marked = String(marked);
    },
  };
}
