/*
 * Reads a `state` payload as the client/server contract describes it (see
 * webapp/realtime/messages.py): `actions` (what this viewer may do now), `legal`,
 * `offers`, `abandon`, `engine`, `black_winrate` on evals, `warming`, `next_game`,
 * `imported_finished`, `opening` (the opening phase: its step, who acts, the options,
 * the offered fifth moves). The server builds every one of them; this only gives an absent
 * field its empty value, so a panel never meets `undefined`. Nothing here derives rules.
 */
export const ACTIONS = [
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
  "opening",
];

/** The state with every contract field present. */
export function readState(raw) {
  const state = Object.assign({}, raw);
  state.moves = state.moves || [];
  state.players = state.players || {};
  state.evals = state.evals || [];
  const given = state.actions || {};
  state.actions = Object.fromEntries(ACTIONS.map((name) => [name, given[name] === true]));
  state.legal = Array.isArray(state.legal) ? state.legal : [];
  state.forbidden = Array.isArray(state.forbidden) ? state.forbidden : [];
  state.offers = Object.assign({ takeback: null, draw: null, rematch: null }, state.offers);
  state.engine = state.engine || null;
  state.next_game = state.next_game || null;
  state.abandon = state.abandon || null;
  state.warming = Boolean(state.warming);
  state.imported_finished = Boolean(state.imported_finished);
  state.opening = state.opening
    ? Object.assign({ options: [], proposals: [], log: [], seats: {} }, state.opening)
    : null;
  return state;
}
