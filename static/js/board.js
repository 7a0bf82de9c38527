/*
 * The board widget: draws a Gomoku position on a <canvas> and turns clicks, taps and keys
 * into intents. It knows no rules: its owner says what is shown (stones, last move,
 * winning line, forbidden points, principal variation, ghost colour), which points are
 * playable, and what an intent means. Colours come from CSS custom properties (--board-*,
 * --stone-*, --mark-*) so the style sheet owns the look. The canvas carries data-size,
 * data-cell, data-origin-x and data-origin-y (CSS pixels) so tests and tools can map
 * points to pixels; they follow every resize. destroy() removes every listener.
 *
 * Intents (all optional callbacks):
 *   onPlay(x, y)       a playable point was clicked, tapped twice, or chosen with Enter;
 *   onRefused(point)   a point that is not playable was clicked, tapped or chosen;
 *   onIdle(point)      the board was clicked while it takes no moves (point may be null);
 *   onPreview(point)   a first tap previews a stone (touch screens).
 */
import { COLUMNS, samePoint } from "./points.js";

// Star points follow the usual goban/renju layout, scaled down for small boards.
export function starPoints(size) {
  const points = [];
  const edge = size >= 13 ? 3 : size >= 9 ? 2 : -1;
  const mid = (size - 1) / 2;
  const odd = size % 2 === 1;
  if (edge >= 0) {
    for (const x of [edge, size - 1 - edge]) {
      for (const y of [edge, size - 1 - edge]) points.push([x, y]);
    }
    if (size >= 19 && odd) {
      points.push([mid, edge], [mid, size - 1 - edge], [edge, mid], [size - 1 - edge, mid]);
    }
  }
  if (odd) points.push([mid, mid]);
  return points;
}

// A small deterministic generator keeps the wood grain identical across redraws.
function grainRandom(seed) {
  let state = seed >>> 0;
  return function () {
    state = (state * 1664525 + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

const COLOUR_NAMES = {
  woodLight: "--board-wood-light",
  woodMid: "--board-wood-mid",
  woodDark: "--board-wood-dark",
  grainDark: "--board-grain-dark",
  grainLight: "--board-grain-light",
  vignette: "--board-vignette",
  grid: "--board-grid",
  star: "--board-star",
  label: "--board-label",
  blackHigh: "--stone-black-high",
  blackMid: "--stone-black-mid",
  blackLow: "--stone-black-low",
  whiteHigh: "--stone-white-high",
  whiteMid: "--stone-white-mid",
  whiteLow: "--stone-white-low",
  whiteRim: "--stone-white-rim",
  stoneShadow: "--stone-shadow",
  numberOnBlack: "--stone-number-on-black",
  numberOnWhite: "--stone-number-on-white",
  last: "--mark-last",
  winLine: "--mark-win",
  forbidden: "--mark-forbidden",
  cursor: "--mark-cursor",
};

// Used when the style sheet does not define a colour (a page without style.css).
const FALLBACK = {
  woodLight: "#e9c286",
  woodMid: "#deb170",
  woodDark: "#d3a25f",
  grainDark: "rgba(120, 72, 24, 0.08)",
  grainLight: "rgba(255, 236, 200, 0.1)",
  vignette: "rgba(90, 50, 10, 0.16)",
  grid: "rgba(52, 32, 12, 0.82)",
  star: "rgba(40, 24, 8, 0.9)",
  label: "rgba(70, 42, 14, 0.78)",
  blackHigh: "#6b6b6b",
  blackMid: "#2b2b2b",
  blackLow: "#050505",
  whiteHigh: "#ffffff",
  whiteMid: "#f1efe9",
  whiteLow: "#bdb8ae",
  whiteRim: "rgba(0, 0, 0, 0.18)",
  stoneShadow: "rgba(0, 0, 0, 0.38)",
  numberOnBlack: "#f2f2f2",
  numberOnWhite: "#1c1c1c",
  last: "#e5483b",
  winLine: "rgba(229, 72, 59, 0.9)",
  forbidden: "rgba(205, 38, 38, 0.9)",
  cursor: "#1769e0",
};

// Focus within this long of a pointer going down or up came from the pointer.
const POINTER_FOCUS_MS = 1000;
const FONT = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export class BoardView {
  constructor(canvas, intents = {}) {
    this.canvas = canvas;
    this.ctx = canvas.getContext("2d");
    this.intents = intents;
    this.view = {
      size: 15,
      stones: [], // [{x, y, color: "black"|"white", number}]
      lastMove: null, // [x, y]
      winLine: [],
      forbidden: [],
      pv: [], // [{x, y, color}]
      showNumbers: false,
      showPv: true,
      interactive: false,
      playable: null, // null: every empty point; else a Set of "x,y" keys
      ghostColor: null,
      area: 0, // an opening's central square (its side in points) to outline; 0: none
      marks: [], // [{x, y, color, label}]: an opening's offered fifth moves
    };
    this.hover = null;
    this.cursor = null;
    this.keyboardMode = false; // the cursor shows only for keyboard users
    this.pointerAt = -Infinity; // when a pointer last went down or up (performance.now())
    this.touchPreview = null;
    this.pointerDown = false;
    this.geometry = { cell: 0, origin: 0, cssSize: 0, ratio: 1, labelGap: 0 };
    this.pending = false;
    this.grain = null;
    this.colours = this.readColours();
    this.listeners = [];
    this.bindEvents();
    this.resize();
    this.observer = null;
    if (window.ResizeObserver) {
      this.observer = new ResizeObserver(() => this.resize());
      this.observer.observe(canvas.parentElement || canvas);
    }
  }

  /** Removes every listener and observer; the canvas keeps its last picture. */
  destroy() {
    for (const [target, type, fn] of this.listeners) target.removeEventListener(type, fn);
    this.listeners = [];
    if (this.observer) this.observer.disconnect();
    this.observer = null;
    this.intents = {};
    this.destroyed = true;
  }

  update(changes) {
    const sizeChanged = changes.size !== undefined && changes.size !== this.view.size;
    Object.assign(this.view, changes);
    if (sizeChanged) {
      this.cursor = null;
      this.hover = null;
      this.resize();
    }
    if (!this.view.interactive) this.touchPreview = null;
    this.schedule();
  }

  /** Re-reads the colours from the style sheet (after a theme change). */
  refreshColours() {
    this.colours = this.readColours();
    this.grain = null;
    this.schedule();
  }

  readColours() {
    const style = window.getComputedStyle(this.canvas);
    const colours = {};
    for (const [name, property] of Object.entries(COLOUR_NAMES)) {
      colours[name] = style.getPropertyValue(property).trim() || FALLBACK[name];
    }
    return colours;
  }

  schedule() {
    if (this.pending || this.destroyed) return;
    this.pending = true;
    window.requestAnimationFrame(() => {
      this.pending = false;
      this.draw();
    });
  }

  resize() {
    if (this.destroyed) return;
    const canvas = this.canvas;
    const rect = canvas.getBoundingClientRect();
    const cssSize = Math.max(120, Math.floor(rect.width || canvas.clientWidth || 480));
    const ratio = window.devicePixelRatio || 1;
    const size = this.view.size;
    // Margins hold the coordinate labels on every edge. Labels never shrink below a
    // readable size, so on big boards in small canvases the margin gets a floor too.
    let cell = cssSize / (size - 1 + 2.3);
    if (cell * 1.15 < cell * 0.5 + 16) cell = (cssSize - 32) / size;
    const origin = (cssSize - cell * (size - 1)) / 2;
    const labelGap = origin * 0.59;
    const unchanged =
      this.geometry.cssSize === cssSize &&
      this.geometry.ratio === ratio &&
      canvas.dataset.size === String(size);
    this.geometry = { cell, origin, cssSize, ratio, labelGap };
    if (!unchanged) {
      canvas.width = Math.round(cssSize * ratio);
      canvas.height = Math.round(cssSize * ratio);
      canvas.style.height = cssSize + "px";
      this.grain = null;
    }
    canvas.dataset.size = String(size);
    canvas.dataset.cell = cell.toFixed(3);
    canvas.dataset.originX = origin.toFixed(3);
    canvas.dataset.originY = origin.toFixed(3);
    this.draw();
  }

  pointAt(clientX, clientY) {
    const rect = this.canvas.getBoundingClientRect();
    const { cell, origin } = this.geometry;
    const scale = rect.width ? this.geometry.cssSize / rect.width : 1;
    const px = (clientX - rect.left) * scale;
    const py = (clientY - rect.top) * scale;
    const x = Math.round((px - origin) / cell);
    const y = Math.round((py - origin) / cell);
    const size = this.view.size;
    if (x < 0 || y < 0 || x >= size || y >= size) return null;
    const dx = px - (origin + x * cell);
    const dy = py - (origin + y * cell);
    if (dx * dx + dy * dy > cell * cell * 0.36) return null;
    return [x, y];
  }

  occupied(point) {
    return this.view.stones.some((s) => s.x === point[0] && s.y === point[1]);
  }

  playable(point) {
    if (!point || !this.view.interactive || this.occupied(point)) return false;
    const allowed = this.view.playable;
    return !allowed || allowed.has(point[0] + "," + point[1]);
  }

  listen(target, type, fn) {
    target.addEventListener(type, fn);
    this.listeners.push([target, type, fn]);
  }

  emit(name, ...args) {
    const fn = this.intents[name];
    if (typeof fn === "function") fn(...args);
  }

  bindEvents() {
    const canvas = this.canvas;
    this.listen(canvas, "pointermove", (event) => {
      if (event.pointerType === "touch") return;
      const point = this.pointAt(event.clientX, event.clientY);
      if (!samePoint(point, this.hover) && (point || this.hover)) {
        this.hover = point;
        canvas.classList.toggle("can-play", this.playable(point));
        this.schedule();
      }
    });
    this.listen(canvas, "pointerleave", () => {
      this.hover = null;
      canvas.classList.remove("can-play");
      this.schedule();
    });
    this.listen(canvas, "pointerdown", () => {
      this.keyboardMode = false;
      this.pointerDown = true;
      this.pointerAt = performance.now();
    });
    this.listen(window, "pointerup", () => {
      this.pointerDown = false;
      this.pointerAt = performance.now();
    });
    this.listen(window, "resize", () => this.resize());
    this.listen(canvas, "pointerup", (event) => {
      if (event.button !== undefined && event.button > 0) return;
      const point = this.pointAt(event.clientX, event.clientY);
      if (!this.view.interactive) {
        this.emit("onIdle", point);
        return;
      }
      if (!this.playable(point)) {
        // Taken, forbidden or outside what the step allows: the page says which.
        this.touchPreview = null;
        if (point) this.emit("onRefused", point);
        return;
      }
      if (event.pointerType === "touch") {
        // A fingertip hides the spot it taps, so the first tap previews and the second plays.
        if (!samePoint(this.touchPreview, point)) {
          this.touchPreview = point;
          this.schedule();
          this.emit("onPreview", point);
          return;
        }
      }
      this.touchPreview = null;
      this.emit("onPlay", point[0], point[1]);
    });
    this.listen(canvas, "keydown", (event) => this.handleKey(event));
    this.listen(canvas, "focus", () => {
      // A touch focuses the board only after its pointerup (with the compatibility mouse
      // events): focus that follows a pointer is not a keyboard user arriving.
      const byPointer = this.pointerDown || performance.now() - this.pointerAt < POINTER_FOCUS_MS;
      if (!byPointer) this.keyboardMode = true;
      if (!this.cursor) {
        const mid = Math.floor(this.view.size / 2);
        this.cursor = this.view.lastMove ? this.view.lastMove.slice() : [mid, mid];
      }
      this.announce();
      this.schedule();
    });
    this.listen(canvas, "blur", () => this.schedule());
  }

  // Arrow keys move the cursor only while the board takes moves; otherwise they are left
  // to the page (which steps through the game).
  handleKey(event) {
    if (!this.view.interactive) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.key !== "Tab") this.keyboardMode = true;
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    const size = this.view.size;
    if (!this.cursor) this.cursor = [Math.floor(size / 2), Math.floor(size / 2)];
    if (moves[event.key]) {
      const [dx, dy] = moves[event.key];
      this.cursor = [
        Math.min(size - 1, Math.max(0, this.cursor[0] + dx)),
        Math.min(size - 1, Math.max(0, this.cursor[1] + dy)),
      ];
      event.preventDefault();
      event.stopPropagation();
      this.schedule();
      this.announce();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      event.stopPropagation();
      if (this.playable(this.cursor)) this.emit("onPlay", this.cursor[0], this.cursor[1]);
      else this.emit("onRefused", this.cursor.slice());
    }
  }

  announce() {
    const [x, y] = this.cursor;
    const name = COLUMNS[x] + String(this.view.size - y);
    this.canvas.setAttribute("aria-valuetext", name);
    this.canvas.dataset.cursor = name;
  }

  // ---- drawing ---------------------------------------------------------------------

  toPixel(x, y) {
    const { cell, origin } = this.geometry;
    return [origin + x * cell, origin + y * cell];
  }

  draw() {
    const ctx = this.ctx;
    const { cssSize, ratio } = this.geometry;
    if (!cssSize || this.destroyed) return;
    ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
    this.drawWood(ctx, cssSize);
    this.drawGrid(ctx);
    this.drawLabels(ctx);
    const view = this.view;
    if (view.area) this.drawArea(ctx);
    if (view.forbidden.length) this.drawForbidden(ctx);
    for (const stone of view.stones) this.drawStone(ctx, stone.x, stone.y, stone.color, 1);
    if (view.winLine.length) this.drawWinLine(ctx);
    if (view.showNumbers) {
      for (const stone of view.stones) {
        if (stone.number) this.drawNumber(ctx, stone, stone.color, false);
      }
    }
    this.drawLastMove(ctx);
    this.drawMarks(ctx);
    if (view.showPv && view.pv.length) this.drawPv(ctx);
    this.drawGhost(ctx);
    this.drawCursor(ctx);
  }

  drawWood(ctx, cssSize) {
    const c = this.colours;
    if (!this.grain) {
      const off = document.createElement("canvas");
      const ratio = this.geometry.ratio;
      off.width = Math.round(cssSize * ratio);
      off.height = Math.round(cssSize * ratio);
      const g = off.getContext("2d");
      g.setTransform(ratio, 0, 0, ratio, 0, 0);
      const base = g.createLinearGradient(0, 0, cssSize, cssSize);
      base.addColorStop(0, c.woodLight);
      base.addColorStop(0.5, c.woodMid);
      base.addColorStop(1, c.woodDark);
      g.fillStyle = base;
      g.fillRect(0, 0, cssSize, cssSize);
      const random = grainRandom(1234567);
      for (let i = 0; i < 90; i++) {
        const y = random() * cssSize;
        const amplitude = 2 + random() * 6;
        const phase = random() * Math.PI * 2;
        const dark = random() < 0.6;
        g.globalAlpha = 0.5 + random();
        g.strokeStyle = dark ? c.grainDark : c.grainLight;
        g.lineWidth = 0.6 + random() * 1.8;
        g.beginPath();
        for (let x = -10; x <= cssSize + 10; x += 12) {
          const yy = y + Math.sin(x / (60 + amplitude * 10) + phase) * amplitude;
          if (x === -10) g.moveTo(x, yy);
          else g.lineTo(x, yy);
        }
        g.stroke();
      }
      g.globalAlpha = 1;
      const half = cssSize / 2;
      const vignette = g.createRadialGradient(
        half,
        half,
        cssSize * 0.25,
        half,
        half,
        cssSize * 0.75,
      );
      vignette.addColorStop(0, "rgba(255,255,255,0)");
      vignette.addColorStop(1, c.vignette);
      g.fillStyle = vignette;
      g.fillRect(0, 0, cssSize, cssSize);
      this.grain = off;
    }
    ctx.clearRect(0, 0, cssSize, cssSize);
    ctx.drawImage(this.grain, 0, 0, cssSize, cssSize);
  }

  crisp(value, width) {
    // Snap odd-width lines to half device pixels so they stay sharp.
    const ratio = this.geometry.ratio;
    const device = Math.round(value * ratio);
    const widthDevice = Math.max(1, Math.round(width * ratio));
    return (device + (widthDevice % 2 ? 0.5 : 0)) / ratio;
  }

  drawGrid(ctx) {
    const size = this.view.size;
    const { cell, origin } = this.geometry;
    const end = origin + cell * (size - 1);
    const thin = Math.max(1, cell / 34);
    ctx.strokeStyle = this.colours.grid;
    ctx.lineWidth = thin;
    ctx.beginPath();
    for (let i = 0; i < size; i++) {
      const p = this.crisp(origin + i * cell, thin);
      ctx.moveTo(this.crisp(origin, thin), p);
      ctx.lineTo(this.crisp(end, thin), p);
      ctx.moveTo(p, this.crisp(origin, thin));
      ctx.lineTo(p, this.crisp(end, thin));
    }
    ctx.stroke();
    ctx.lineWidth = thin * 2;
    ctx.strokeRect(origin, origin, end - origin, end - origin);
    ctx.fillStyle = this.colours.star;
    const radius = Math.max(2, cell * 0.1);
    for (const [x, y] of starPoints(size)) {
      const [px, py] = this.toPixel(x, y);
      ctx.beginPath();
      ctx.arc(px, py, radius, 0, Math.PI * 2);
      ctx.fill();
    }
  }

  drawLabels(ctx) {
    const size = this.view.size;
    const { cell, origin } = this.geometry;
    const end = origin + cell * (size - 1);
    const fontSize = Math.max(8, Math.min(15, cell * 0.38));
    ctx.font = `600 ${fontSize}px ${FONT}`;
    ctx.fillStyle = this.colours.label;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const gap = this.geometry.labelGap;
    for (let i = 0; i < size; i++) {
      const p = origin + i * cell;
      const letter = COLUMNS[i];
      ctx.fillText(letter, p, origin - gap);
      ctx.fillText(letter, p, end + gap);
      const number = String(size - i);
      ctx.fillText(number, origin - gap, p);
      ctx.fillText(number, end + gap, p);
    }
  }

  drawStone(ctx, x, y, color, alpha) {
    const c = this.colours;
    const [px, py] = this.toPixel(x, y);
    const r = this.geometry.cell * 0.46;
    ctx.save();
    ctx.globalAlpha = alpha;
    if (alpha === 1) {
      ctx.shadowColor = c.stoneShadow;
      ctx.shadowBlur = r * 0.35;
      ctx.shadowOffsetX = r * 0.1;
      ctx.shadowOffsetY = r * 0.16;
    }
    const gradient = ctx.createRadialGradient(
      px - r * 0.35,
      py - r * 0.38,
      r * 0.08,
      px,
      py,
      r * 1.02,
    );
    if (color === "black") {
      gradient.addColorStop(0, c.blackHigh);
      gradient.addColorStop(0.28, c.blackMid);
      gradient.addColorStop(1, c.blackLow);
    } else {
      gradient.addColorStop(0, c.whiteHigh);
      gradient.addColorStop(0.55, c.whiteMid);
      gradient.addColorStop(1, c.whiteLow);
    }
    ctx.fillStyle = gradient;
    ctx.beginPath();
    ctx.arc(px, py, r, 0, Math.PI * 2);
    ctx.fill();
    ctx.restore();
    if (color === "white" && alpha === 1) {
      ctx.strokeStyle = c.whiteRim;
      ctx.lineWidth = 0.8;
      ctx.beginPath();
      ctx.arc(px, py, r - 0.4, 0, Math.PI * 2);
      ctx.stroke();
    }
  }

  drawNumber(ctx, stone, color, faint) {
    const [px, py] = this.toPixel(stone.x, stone.y);
    const cell = this.geometry.cell;
    const text = String(stone.number);
    const fontSize = Math.max(7, cell * (text.length > 2 ? 0.32 : 0.4));
    ctx.font = `600 ${fontSize}px ${FONT}`;
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    const isLast = !faint && samePoint(this.view.lastMove, [stone.x, stone.y]);
    if (isLast) ctx.fillStyle = this.colours.last;
    else
      ctx.fillStyle = color === "black" ? this.colours.numberOnBlack : this.colours.numberOnWhite;
    ctx.fillText(text, px, py + fontSize * 0.05);
  }

  drawLastMove(ctx) {
    const last = this.view.lastMove;
    if (!last || this.view.showNumbers || !this.occupied(last)) return;
    const [px, py] = this.toPixel(last[0], last[1]);
    ctx.fillStyle = this.colours.last;
    ctx.beginPath();
    ctx.arc(px, py, this.geometry.cell * 0.13, 0, Math.PI * 2);
    ctx.fill();
  }

  drawWinLine(ctx) {
    const line = this.view.winLine;
    const cell = this.geometry.cell;
    ctx.save();
    ctx.strokeStyle = this.colours.winLine;
    ctx.lineWidth = Math.max(2, cell * 0.08);
    for (const [x, y] of line) {
      const [px, py] = this.toPixel(x, y);
      ctx.beginPath();
      ctx.arc(px, py, cell * 0.5, 0, Math.PI * 2);
      ctx.stroke();
    }
    if (line.length >= 2) {
      const sorted = line.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
      const [ax, ay] = this.toPixel(sorted[0][0], sorted[0][1]);
      const [bx, by] = this.toPixel(sorted[sorted.length - 1][0], sorted[sorted.length - 1][1]);
      ctx.globalAlpha = 0.6;
      ctx.lineCap = "round";
      ctx.lineWidth = Math.max(3, cell * 0.14);
      ctx.beginPath();
      ctx.moveTo(ax, ay);
      ctx.lineTo(bx, by);
      ctx.stroke();
    }
    ctx.restore();
  }

  drawForbidden(ctx) {
    const cell = this.geometry.cell;
    const arm = cell * 0.2;
    ctx.save();
    ctx.strokeStyle = this.colours.forbidden;
    ctx.lineWidth = Math.max(1.5, cell * 0.07);
    ctx.lineCap = "round";
    for (const [x, y] of this.view.forbidden) {
      const [px, py] = this.toPixel(x, y);
      ctx.beginPath();
      ctx.moveTo(px - arm, py - arm);
      ctx.lineTo(px + arm, py + arm);
      ctx.moveTo(px + arm, py - arm);
      ctx.lineTo(px - arm, py + arm);
      ctx.stroke();
    }
    ctx.restore();
  }

  drawArea(ctx) {
    const half = (this.view.area - 1) / 2;
    const centre = Math.floor(this.view.size / 2);
    const cell = this.geometry.cell;
    const [x0, y0] = this.toPixel(centre - half, centre - half);
    const side = (this.view.area - 1) * cell;
    const pad = cell * 0.5;
    ctx.save();
    ctx.strokeStyle = this.colours.winLine;
    ctx.lineWidth = Math.max(1.5, cell * 0.06);
    ctx.setLineDash([cell * 0.25, cell * 0.18]);
    ctx.strokeRect(x0 - pad, y0 - pad, side + 2 * pad, side + 2 * pad);
    ctx.restore();
  }

  drawMarks(ctx) {
    for (const mark of this.view.marks) {
      if (this.occupied([mark.x, mark.y])) continue;
      this.drawStone(ctx, mark.x, mark.y, mark.color, 0.6);
      this.drawNumber(ctx, { x: mark.x, y: mark.y, number: mark.label }, mark.color, true);
    }
  }

  drawPv(ctx) {
    let number = 0;
    for (const step of this.view.pv) {
      number += 1;
      if (this.occupied([step.x, step.y])) continue;
      this.drawStone(ctx, step.x, step.y, step.color, 0.42);
      this.drawNumber(ctx, { x: step.x, y: step.y, number }, step.color, true);
    }
  }

  drawGhost(ctx) {
    const view = this.view;
    const spot = this.touchPreview || this.hover;
    if (!view.ghostColor || !this.playable(spot)) return;
    this.drawStone(ctx, spot[0], spot[1], view.ghostColor, this.touchPreview ? 0.65 : 0.45);
  }

  drawCursor(ctx) {
    if (!this.keyboardMode || document.activeElement !== this.canvas || !this.cursor) return;
    const [px, py] = this.toPixel(this.cursor[0], this.cursor[1]);
    const h = this.geometry.cell * 0.5;
    const l = h * 0.45;
    ctx.save();
    ctx.strokeStyle = this.colours.cursor;
    ctx.lineWidth = 2;
    ctx.beginPath();
    for (const [sx, sy] of [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ]) {
      const cx = px + sx * h;
      const cy = py + sy * h;
      ctx.moveTo(cx - sx * l, cy);
      ctx.lineTo(cx, cy);
      ctx.lineTo(cx, cy - sy * l);
    }
    ctx.stroke();
    ctx.restore();
  }
}
