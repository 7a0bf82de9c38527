/*
 * The engine panel: for each AI seat, the figures of its search — live while it thinks
 * (the `thinking` events), else the last known ones (its latest move's figures in
 * `evals`, the line from `state.engine`). A side with no figures yet shows only its name
 * and what it is doing; the panel never shows placeholders. Score and win chance are
 * Black's, whichever side is thinking, like the evaluation graph under the panel.
 */
import { t } from "../i18n.js";
import { formatCount, formatMs, formatScore, formatWinrate } from "../format.js";
import { colorOfPly, pointName } from "../points.js";
import { playerLabel } from "./labels.js";

const COLORS = ["black", "white"];

// The last finished search of `color`, from the per-move figures the state carries.
function settled(state, color) {
  const own = state.evals.filter(
    (e) => colorOfPly(e.ply - 1) === color && typeof e.depth === "number",
  );
  const last = own[own.length - 1];
  if (!last) return null;
  const engine = state.engine && state.engine.ply === last.ply ? state.engine : null;
  const nps = last.ms > 0 && typeof last.nodes === "number" ? (last.nodes * 1000) / last.ms : null;
  return {
    depth: last.depth,
    nodes: last.nodes,
    nps: engine && typeof engine.nps === "number" ? engine.nps : nps,
    time_ms: last.ms,
    score: last.score,
    black_winrate: last.black_winrate,
    pv: engine ? engine.pv || [] : state.pv && state.pv.ply === last.ply ? state.pv.moves : [],
    engine: last.engine,
    live: false,
  };
}

export function createEnginePanel(page) {
  const card = document.getElementById("thinking-card");
  const sides = Object.fromEntries(
    COLORS.map((c) => [c, document.getElementById("thinking-" + c)]),
  );
  const kinds = {}; // the engine kind a side's live reports named ("mcts", "external")

  function figuresOf(state, view, color) {
    const info = view.thinking[color];
    if (info && info.ply === state.moves.length && typeof info.depth === "number") {
      // A live report scores from the thinking side's point of view.
      const score = typeof info.score === "number" && color === "white" ? -info.score : info.score;
      return Object.assign({ live: true }, info, { score });
    }
    return settled(state, color);
  }

  function setStat(side, name, value) {
    const cell = side.querySelector(".t-" + name);
    cell.textContent = value;
    cell.closest("div").hidden = !value;
  }

  return {
    render(state, view) {
      const shown = renderSides(state, view);
      // No figures yet and nothing thinking: nothing to show rather than placeholders.
      card.hidden = shown === 0;
    },
  };

  function renderSides(state, view) {
    const aiColors = COLORS.filter((c) => state.players[c] && state.players[c].kind === "ai");
    let shown = 0; // sides with figures or a search under way
    for (const color of COLORS) {
      const side = sides[color];
      side.hidden = !aiColors.includes(color);
      if (side.hidden) continue;
      side.querySelector(".thinking-name").textContent = playerLabel(state.players[color]);
      const busy = state.status === "active" && state.turn === color;
      const info = view.thinking[color];
      if (info && info.engine) kinds[color] = info.engine;
      const warming = busy && (state.warming || Boolean(info && info.warming));
      side.querySelector(".spinner").hidden = !busy;
      side.classList.toggle("busy", busy);
      const note = side.querySelector(".thinking-note");
      note.textContent = warming ? t("status.warming") : "";
      note.hidden = !warming;
      const figures = figuresOf(state, view, color);
      if (figures || busy) shown += 1;
      const stats = side.querySelector(".thinking-stats");
      stats.hidden = !figures;
      side.querySelector(".thinking-pv").hidden = !(figures && figures.pv && figures.pv.length);
      side.dataset.live = figures && figures.live ? "1" : "0";
      const text = side.querySelector(".t-text");
      const raw = info && info.engine === "external" && info.text ? info.text : "";
      text.textContent = raw;
      text.hidden = !raw;
      if (!figures) continue;
      setStat(side, "depth", typeof figures.depth === "number" ? String(figures.depth) : "");
      setStat(side, "score", formatScore(figures.score));
      setStat(side, "winrate", formatWinrate(figures.black_winrate));
      setStat(side, "nps", typeof figures.nps === "number" ? formatCount(figures.nps) + "/s" : "");
      setStat(side, "nodes", formatCount(figures.nodes));
      setStat(side, "time", formatMs(figures.time_ms));
      if (figures.pv && figures.pv.length) {
        side.querySelector(".t-pv").textContent = figures.pv
          .map((p) => pointName(p, state.size))
          .join(" ");
      }
      // MCTS counts playouts, not nodes.
      const nodesLabel = side.querySelector(".t-nodes-label");
      const labelKey = kinds[color] === "mcts" ? "think.playouts" : "think.nodes";
      if (nodesLabel.dataset.i18n !== labelKey) {
        nodesLabel.dataset.i18n = labelKey;
        nodesLabel.textContent = t(labelKey);
      }
    }
    return shown;
  }
}
