/*
 * Number formats of the game page: engine scores, node counts, clocks and win rates.
 */
const MATE = 30000;
const MATE_BOUND = MATE - 1000;

export function isMate(score) {
  return Math.abs(score) >= MATE_BOUND;
}

export function formatScore(score) {
  if (score === null || score === undefined) return "";
  if (isMate(score)) {
    const moves = Math.max(1, Math.ceil((MATE - Math.abs(score)) / 2));
    return (score > 0 ? "+#" : "−#") + moves;
  }
  const value = (score / 100).toFixed(2);
  return score > 0 ? "+" + value : score < 0 ? "−" + value.slice(1) : value;
}

export function formatCount(n) {
  if (n === null || n === undefined) return "";
  if (n >= 1e9) return (n / 1e9).toFixed(1) + "G";
  if (n >= 1e6) return (n / 1e6).toFixed(1) + "M";
  if (n >= 1e3) return (n / 1e3).toFixed(1) + "k";
  return String(Math.round(n));
}

export function formatMs(ms) {
  if (ms === null || ms === undefined) return "";
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  if (clamped < 10000) return `0:0${(clamped / 1000).toFixed(1)}`;
  const total = Math.ceil(clamped / 1000);
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total - minutes * 60).padStart(2, "0")}`;
}

/** A win rate in 0..1 as a percentage ("62%"). */
export function formatWinrate(rate) {
  if (typeof rate !== "number") return "";
  return `${Math.round(rate * 100)}%`;
}

/** A countdown in whole seconds ("1:05"). */
export function formatCountdown(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total - minutes * 60).padStart(2, "0")}`;
}
