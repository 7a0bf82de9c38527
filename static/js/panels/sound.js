/*
 * When the game page makes a sound: a stone placed (by anyone, once per new move), the
 * game starting for its players, the end (win, loss, or a neutral phrase for spectators
 * and draws), and the viewer's own clock running under LOW_MS (once per turn). The
 * "Sound" switch in the replay bar turns it all off, remembered in this browser.
 */
import { sounds } from "../sounds.js";

const LOW_MS = 10000;

export function createSoundCues(page) {
  const toggle = document.getElementById("toggle-sound");
  toggle.checked = sounds.enabled;
  toggle.addEventListener("change", () => sounds.setEnabled(toggle.checked));
  let stamp = performance.now();
  let stampVersion = null;
  let warnedAt = null; // the version whose low time was already announced

  setInterval(() => {
    const state = page.state;
    const clock = state.clock;
    if (!clock || state.status !== "active" || !state.you || clock.running !== state.you) return;
    if (stampVersion !== state.version) return;
    const left = clock[state.you + "_ms"] - (performance.now() - stamp);
    if (left < LOW_MS && left > 0 && warnedAt !== state.version) {
      warnedAt = state.version;
      sounds.play("lowtime");
    }
  }, 250);

  return {
    onState(state, previous) {
      if (stampVersion !== state.version) {
        stamp = performance.now();
        stampVersion = state.version;
      }
      if (state.moves.length === previous.moves.length + 1) sounds.play("move");
      const started =
        state.status === "active" && previous.status === "waiting" && Boolean(state.you);
      if (started) sounds.play("start");
      if (state.status === "finished" && previous.status !== "finished") {
        const winner = state.result && state.result.winner;
        if (state.you && winner) sounds.play(winner === state.you ? "win" : "loss");
        else sounds.play("end");
      }
    },
  };
}
