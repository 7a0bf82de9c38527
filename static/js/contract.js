/*
 * Reads a `state` payload as the client/server contract describes it (`actions`, `legal`,
 * `offers`, `abandon`, `engine`, `black_winrate` on evals, `warming`, `next_game`,
 * `imported_finished`). A field the server does not send yet is filled here from the
 * older fields, so the rest of the page reads only the contract's names; each fallback
 * is one line and goes away once the server sends the field.
 */
import { colorOfPly } from "./points.js";
import { isMate } from "./format.js";

const ACTIONS = [
  "move",
  "undo",
  "hint",
  "takeback",
  "takeback_cancel",
  "takeback_answer",
  "resign",
  "rematch",
  "rematch_answer",
  "draw",
  "draw_answer",
  "abort",
  "claim",
  "take_seat",
];

/** Win probability for black from a score in black's view (centi-units, mates at 30000). */
export function winrateOf(score) {
  if (typeof score !== "number") return null;
  if (isMate(score)) return score > 0 ? 1 : 0;
  return 1 / (1 + Math.exp(-score / 250));
}

function fallbackActions(state) {
  const you = state.you;
  const seated = you === "black" || you === "white";
  const active = state.status === "active";
  const myTurn = active && seated && state.turn === you;
  const mine = state.moves.filter((_, i) => colorOfPly(i) === you).length;
  const takeback = state.takeback || null;
  const humanTurn = state.players[state.turn] && state.players[state.turn].kind === "human";
  return {
    move: myTurn && humanTurn,
    undo: state.mode === "ai" && seated && active && mine > 0,
    hint: state.mode === "ai" && myTurn,
    takeback: state.mode === "friend" && seated && active && !takeback && mine > 0,
    takeback_cancel: Boolean(takeback && takeback.by === you && active),
    takeback_answer: Boolean(takeback && seated && takeback.by !== you && active),
    resign: seated && active,
    rematch: seated && state.status === "finished" && state.mode !== "aivai" && !state.rematch,
    rematch_answer: false,
    draw: false,
    draw_answer: false,
    abort: false,
    claim: false,
    take_seat: false,
  };
}

function fallbackLegal(state) {
  if (state.status !== "active") return [];
  const taken = new Set(state.moves.map((m) => m[0] + "," + m[1]));
  const forbidden = new Set(
    (state.turn === "black" ? state.forbidden || [] : []).map((m) => m[0] + "," + m[1]),
  );
  const legal = [];
  for (let y = 0; y < state.size; y++) {
    for (let x = 0; x < state.size; x++) {
      const key = x + "," + y;
      if (!taken.has(key) && !forbidden.has(key)) legal.push([x, y]);
    }
  }
  return legal;
}

function fallbackEngine(state, evals) {
  const last = evals[evals.length - 1];
  if (!last || typeof last.depth !== "number") return null;
  return {
    ply: last.ply,
    depth: last.depth,
    nodes: last.nodes,
    nps: last.ms > 0 && typeof last.nodes === "number" ? (last.nodes * 1000) / last.ms : null,
    time_ms: last.ms,
    score: last.score,
    black_winrate: last.black_winrate,
    pv: state.pv && state.pv.ply === last.ply ? state.pv.moves : [],
  };
}

/** The state with every contract field present. */
export function readState(raw) {
  const state = Object.assign({}, raw);
  state.moves = state.moves || [];
  state.players = state.players || {};
  const evals = (state.evals || []).map((e) =>
    typeof e.black_winrate === "number"
      ? e
      : Object.assign({}, e, { black_winrate: winrateOf(e.score) }),
  );
  state.evals = evals;
  const actions = Object.assign(fallbackActions(state), state.actions || {});
  for (const name of ACTIONS) actions[name] = Boolean(actions[name]);
  state.actions = actions;
  if (!Array.isArray(state.legal)) state.legal = fallbackLegal(state);
  if (!state.offers) {
    const takeback = state.takeback ? state.takeback.by : null;
    state.offers = { takeback, rematch: null, draw: null };
  }
  if (state.engine === undefined) state.engine = fallbackEngine(state, evals);
  if (state.next_game === undefined) state.next_game = state.rematch || null;
  state.abandon = state.abandon || null;
  state.warming = Boolean(state.warming);
  state.imported_finished = Boolean(state.imported_finished);
  return state;
}
