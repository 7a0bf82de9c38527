/*
 * The evaluation graph: black's win probability (`black_winrate`, 0..1) after every
 * engine move, the same scale whichever engines play, black's side at the top. A live
 * point follows the engine that is thinking; the horizontal scale always leaves room for
 * the newest point. A click on the graph replays the game to that move.
 */
const W = 300;
const H = 80;
const PAD = 4; // keeps the end dots inside the picture

function svg(tag, attrs) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [name, value] of Object.entries(attrs)) el.setAttribute(name, String(value));
  return el;
}

export function createEvalGraph(page) {
  const card = document.getElementById("eval-card");
  const graph = document.getElementById("eval-graph");
  let scale = 10;

  graph.addEventListener("click", (event) => {
    const rect = graph.getBoundingClientRect();
    const x = ((event.clientX - rect.left) / rect.width) * W;
    page.goTo(Math.round(((x - PAD) / (W - 2 * PAD)) * scale));
  });

  function pointsOf(state, view) {
    const points = state.evals
      .filter((e) => typeof e.black_winrate === "number")
      .map((e) => ({ ply: e.ply, rate: e.black_winrate, live: false }));
    const info = view.thinking[state.turn];
    if (
      state.status === "active" &&
      info &&
      info.ply === state.moves.length &&
      typeof info.black_winrate === "number"
    ) {
      points.push({ ply: state.moves.length + 1, rate: info.black_winrate, live: true });
    }
    return points;
  }

  return {
    render(state, view) {
      const hasAi = ["black", "white"].some(
        (c) => state.players[c] && state.players[c].kind === "ai",
      );
      card.hidden = !hasAi && !state.evals.length;
      const points = pointsOf(state, view);
      const newest = points.length ? points[points.length - 1].ply : 0;
      scale = Math.max(10, state.moves.length, newest);
      const px = (ply) => (PAD + (ply / scale) * (W - 2 * PAD)).toFixed(1);
      const py = (rate) => (PAD + (1 - rate) * (H - 2 * PAD)).toFixed(1);
      const mid = H / 2;
      const parts = [
        svg("rect", { x: 0, y: 0, width: W, height: mid, class: "eval-black-zone" }),
        svg("rect", { x: 0, y: mid, width: W, height: mid, class: "eval-white-zone" }),
        svg("line", { x1: 0, y1: mid, x2: W, y2: mid, class: "eval-axis" }),
      ];
      const settled = points.filter((p) => !p.live);
      if (points.length) {
        const path = points.map((p, i) => `${i ? "L" : "M"}${px(p.ply)},${py(p.rate)}`).join(" ");
        const first = points[0];
        const area = `M${px(first.ply)},${mid} ${path.replace(/^M/, "L")} L${px(newest)},${mid} Z`;
        parts.push(svg("path", { d: area, class: "eval-area" }));
      }
      if (settled.length) {
        const solid = settled.map((p, i) => `${i ? "L" : "M"}${px(p.ply)},${py(p.rate)}`).join(" ");
        parts.push(svg("path", { d: solid, class: "eval-line" }));
        const end = settled[settled.length - 1];
        parts.push(svg("circle", { cx: px(end.ply), cy: py(end.rate), r: 2.5, class: "eval-dot" }));
      }
      const live =
        points.length && points[points.length - 1].live ? points[points.length - 1] : null;
      if (live) {
        const prev = settled[settled.length - 1];
        if (prev) {
          parts.push(
            svg("line", {
              x1: px(prev.ply),
              y1: py(prev.rate),
              x2: px(live.ply),
              y2: py(live.rate),
              class: "eval-live-line",
            }),
          );
        }
        parts.push(
          svg("circle", { cx: px(live.ply), cy: py(live.rate), r: 3, class: "eval-live-dot" }),
        );
      }
      if (points.length) {
        const shown = px(page.shownPly());
        parts.push(svg("line", { x1: shown, y1: 0, x2: shown, y2: H, class: "eval-cursor" }));
      }
      graph.replaceChildren(...parts);
      graph.dataset.points = String(points.length);
      graph.dataset.scale = String(scale);
    },
  };
}
