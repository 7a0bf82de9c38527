/*
 * The game's sounds, made with the Web Audio API (no files to download): a wooden click
 * for each stone, a chime when a game starts, a phrase at the end (rising for a win,
 * falling for a loss, level otherwise) and a tick when your clock runs low. The switch
 * is remembered in this browser; browsers allow sound only after the page was touched,
 * so the audio starts with the first click or key.
 */
import { storeFlag, storedFlag } from "./prefs.js";

const KEY = "gomoku.sound";

let context = null;
let enabled = storedFlag(KEY, true);
const played = []; // what was played, for the page's tests and the console

function audio() {
  if (context) return context;
  const Ctor = window.AudioContext || window.webkitAudioContext;
  if (!Ctor) return null;
  try {
    context = new Ctor();
  } catch {
    context = null;
  }
  return context;
}

function unlock() {
  const ctx = audio();
  if (ctx && ctx.state === "suspended") ctx.resume().catch(() => {});
}
for (const name of ["pointerdown", "keydown"]) {
  window.addEventListener(name, unlock, { capture: true, passive: true });
}

function tone(ctx, freq, start, length, gain = 0.12, type = "sine") {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  amp.gain.setValueAtTime(0.0001, start);
  amp.gain.exponentialRampToValueAtTime(gain, start + 0.01);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.02);
}

function click(ctx, start) {
  // A short burst of filtered noise: a stone set down on wood.
  const length = 0.06;
  const buffer = ctx.createBuffer(1, Math.ceil(ctx.sampleRate * length), ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < data.length; i++) {
    data[i] = (Math.random() * 2 - 1) * Math.pow(1 - i / data.length, 4);
  }
  const source = ctx.createBufferSource();
  source.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = 1800;
  filter.Q.value = 1.2;
  const amp = ctx.createGain();
  amp.gain.value = 0.9;
  source.connect(filter).connect(amp).connect(ctx.destination);
  source.start(start);
}

const PHRASES = {
  start: [[523, 0], [784, 0.12]],
  win: [[523, 0], [659, 0.12], [784, 0.24], [1047, 0.36]],
  loss: [[659, 0], [523, 0.15], [392, 0.3]],
  end: [[587, 0], [587, 0.16]],
  lowtime: [[880, 0]],
};

export const sounds = {
  get enabled() {
    return enabled;
  },
  setEnabled(on) {
    enabled = Boolean(on);
    storeFlag(KEY, enabled);
  },
  /** Plays `kind`: move, start, win, loss, end or lowtime (nothing while off). */
  play(kind) {
    if (!enabled) return;
    played.push(kind);
    const ctx = audio();
    if (!ctx || ctx.state !== "running") return;
    const now = ctx.currentTime + 0.01;
    if (kind === "move") {
      click(ctx, now);
      return;
    }
    for (const [freq, at] of PHRASES[kind] || []) {
      tone(ctx, freq, now + at, kind === "lowtime" ? 0.12 : 0.3, 0.1, "triangle");
    }
  },
  played,
};
