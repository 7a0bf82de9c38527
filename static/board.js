/*
 * The board view: draws a Gomoku position on <canvas id="board"> and turns clicks, taps and
 * keys into point intents. It knows no rules: game.js decides what is shown (stones, last
 * move, winning line, forbidden points, principal variation, ghost colour) and what an
 * intent means. The canvas carries data-size, data-cell, data-origin-x and data-origin-y
 * (CSS pixels) so tests and tools can map points to pixels; they follow every resize.
 */
(function () {
  "use strict";

  const COLUMNS = "abcdefghijklmnopqrstuvwxyz";

  // Star points follow the usual goban/renju layout, scaled down for small boards.
  function starPoints(size) {
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

  class BoardView {
    constructor(canvas, options) {
      this.canvas = canvas;
      this.ctx = canvas.getContext("2d");
      this.onPoint = (options && options.onPoint) || function () {};
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
        ghostColor: null,
      };
      this.hover = null;
      this.cursor = null;
      this.keyboardMode = false; // the cursor shows only for keyboard users
      this.touchPreview = null;
      this.geometry = { cell: 0, origin: 0, cssSize: 0 };
      this.pending = false;
      this.grain = null;
      this.bindEvents();
      this.resize();
      if (window.ResizeObserver) {
        new ResizeObserver(() => this.resize()).observe(canvas.parentElement || canvas);
      }
      window.addEventListener("resize", () => this.resize());
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

    schedule() {
      if (this.pending) return;
      this.pending = true;
      window.requestAnimationFrame(() => {
        this.pending = false;
        this.draw();
      });
    }

    resize() {
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
      this.geometry = { cell, origin, cssSize, ratio, labelGap };
      canvas.width = Math.round(cssSize * ratio);
      canvas.height = Math.round(cssSize * ratio);
      canvas.style.height = cssSize + "px";
      canvas.dataset.size = String(size);
      canvas.dataset.cell = cell.toFixed(3);
      canvas.dataset.originX = origin.toFixed(3);
      canvas.dataset.originY = origin.toFixed(3);
      this.grain = null;
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

    bindEvents() {
      const canvas = this.canvas;
      canvas.addEventListener("pointermove", (event) => {
        if (event.pointerType === "touch") return;
        const point = this.pointAt(event.clientX, event.clientY);
        const key = point ? point.join(",") : null;
        const before = this.hover ? this.hover.join(",") : null;
        if (key !== before) {
          this.hover = point;
          canvas.style.cursor =
            point && this.view.interactive && !this.occupied(point) ? "pointer" : "default";
          this.schedule();
        }
      });
      canvas.addEventListener("pointerleave", () => {
        this.hover = null;
        this.schedule();
      });
      canvas.addEventListener("pointerdown", () => {
        this.keyboardMode = false;
        this.pointerDown = true;
      });
      window.addEventListener("pointerup", () => {
        this.pointerDown = false;
      });
      canvas.addEventListener("pointerup", (event) => {
        if (event.button !== undefined && event.button > 0) return;
        const point = this.pointAt(event.clientX, event.clientY);
        if (!point || !this.view.interactive || this.occupied(point)) return;
        if (event.pointerType === "touch") {
          // A fingertip hides the spot it taps, so the first tap previews and the second plays.
          const same =
            this.touchPreview &&
            this.touchPreview[0] === point[0] &&
            this.touchPreview[1] === point[1];
          if (!same) {
            this.touchPreview = point;
            this.schedule();
            return;
          }
        }
        this.touchPreview = null;
        this.onPoint(point[0], point[1]);
      });
      canvas.addEventListener("keydown", (event) => this.handleKey(event));
      canvas.addEventListener("focus", () => {
        if (!this.pointerDown) this.keyboardMode = true;
        if (!this.cursor) {
          const mid = Math.floor(this.view.size / 2);
          this.cursor = this.view.lastMove ? this.view.lastMove.slice() : [mid, mid];
        }
        this.announce();
        this.schedule();
      });
      canvas.addEventListener("blur", () => this.schedule());
    }

    handleKey(event) {
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
        if (this.view.interactive && !this.occupied(this.cursor)) {
          this.onPoint(this.cursor[0], this.cursor[1]);
        }
      }
    }

    announce() {
      const [x, y] = this.cursor;
      const name = COLUMNS[x] + String(this.view.size - y);
      this.canvas.setAttribute("aria-valuetext", name);
      this.canvas.dataset.cursor = name;
    }

    // ---- drawing -------------------------------------------------------------------

    toPixel(x, y) {
      const { cell, origin } = this.geometry;
      return [origin + x * cell, origin + y * cell];
    }

    draw() {
      const ctx = this.ctx;
      const { cssSize, ratio } = this.geometry;
      if (!cssSize) return;
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      this.drawWood(ctx, cssSize);
      this.drawGrid(ctx);
      this.drawLabels(ctx);
      const view = this.view;
      if (view.forbidden.length) this.drawForbidden(ctx);
      for (const stone of view.stones) this.drawStone(ctx, stone.x, stone.y, stone.color, 1);
      if (view.winLine.length) this.drawWinLine(ctx);
      if (view.showNumbers) {
        for (const stone of view.stones) this.drawNumber(ctx, stone, stone.color, false);
      }
      this.drawLastMove(ctx);
      if (view.showPv && view.pv.length) this.drawPv(ctx);
      this.drawGhost(ctx);
      this.drawCursor(ctx);
    }

    drawWood(ctx, cssSize) {
      if (!this.grain) {
        const off = document.createElement("canvas");
        const ratio = this.geometry.ratio;
        off.width = Math.round(cssSize * ratio);
        off.height = Math.round(cssSize * ratio);
        const g = off.getContext("2d");
        g.setTransform(ratio, 0, 0, ratio, 0, 0);
        const base = g.createLinearGradient(0, 0, cssSize, cssSize);
        base.addColorStop(0, "#e9c286");
        base.addColorStop(0.5, "#deb170");
        base.addColorStop(1, "#d3a25f");
        g.fillStyle = base;
        g.fillRect(0, 0, cssSize, cssSize);
        const random = grainRandom(1234567);
        for (let i = 0; i < 90; i++) {
          const y = random() * cssSize;
          const amplitude = 2 + random() * 6;
          const phase = random() * Math.PI * 2;
          const dark = random() < 0.6;
          g.strokeStyle = dark
            ? `rgba(120, 72, 24, ${0.04 + random() * 0.07})`
            : `rgba(255, 236, 200, ${0.05 + random() * 0.08})`;
          g.lineWidth = 0.6 + random() * 1.8;
          g.beginPath();
          for (let x = -10; x <= cssSize + 10; x += 12) {
            const yy = y + Math.sin(x / (60 + amplitude * 10) + phase) * amplitude;
            if (x === -10) g.moveTo(x, yy);
            else g.lineTo(x, yy);
          }
          g.stroke();
        }
        const vignette = g.createRadialGradient(
          cssSize / 2,
          cssSize / 2,
          cssSize * 0.25,
          cssSize / 2,
          cssSize / 2,
          cssSize * 0.75,
        );
        vignette.addColorStop(0, "rgba(255,255,255,0)");
        vignette.addColorStop(1, "rgba(90,50,10,0.16)");
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
      ctx.strokeStyle = "rgba(52, 32, 12, 0.82)";
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
      ctx.fillStyle = "rgba(40, 24, 8, 0.9)";
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
      ctx.font = `600 ${fontSize}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
      ctx.fillStyle = "rgba(70, 42, 14, 0.78)";
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
      const [px, py] = this.toPixel(x, y);
      const r = this.geometry.cell * 0.46;
      ctx.save();
      ctx.globalAlpha = alpha;
      if (alpha === 1) {
        ctx.shadowColor = "rgba(0, 0, 0, 0.38)";
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
        gradient.addColorStop(0, "#6b6b6b");
        gradient.addColorStop(0.28, "#2b2b2b");
        gradient.addColorStop(1, "#050505");
      } else {
        gradient.addColorStop(0, "#ffffff");
        gradient.addColorStop(0.55, "#f1efe9");
        gradient.addColorStop(1, "#bdb8ae");
      }
      ctx.fillStyle = gradient;
      ctx.beginPath();
      ctx.arc(px, py, r, 0, Math.PI * 2);
      ctx.fill();
      ctx.restore();
      if (color === "white" && alpha === 1) {
        ctx.strokeStyle = "rgba(0, 0, 0, 0.18)";
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
      ctx.font = `600 ${fontSize}px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif`;
      ctx.textAlign = "center";
      ctx.textBaseline = "middle";
      const last = this.view.lastMove;
      const isLast = !faint && last && last[0] === stone.x && last[1] === stone.y;
      if (isLast) ctx.fillStyle = "#e5483b";
      else if (faint) ctx.fillStyle = color === "black" ? "#f5f5f5" : "#222";
      else ctx.fillStyle = color === "black" ? "#f2f2f2" : "#1c1c1c";
      ctx.fillText(text, px, py + fontSize * 0.05);
    }

    drawLastMove(ctx) {
      const last = this.view.lastMove;
      if (!last || this.view.showNumbers) return;
      const stone = this.view.stones.find((s) => s.x === last[0] && s.y === last[1]);
      if (!stone) return;
      const [px, py] = this.toPixel(last[0], last[1]);
      const r = this.geometry.cell * 0.13;
      ctx.fillStyle = "#e5483b";
      ctx.beginPath();
      ctx.arc(px, py, r, 0, Math.PI * 2);
      ctx.fill();
    }

    drawWinLine(ctx) {
      const line = this.view.winLine;
      const cell = this.geometry.cell;
      ctx.save();
      ctx.strokeStyle = "rgba(229, 72, 59, 0.9)";
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
        ctx.strokeStyle = "rgba(229, 72, 59, 0.55)";
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
      ctx.strokeStyle = "rgba(205, 38, 38, 0.9)";
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
      if (!spot || !view.interactive || !view.ghostColor || this.occupied(spot)) return;
      this.drawStone(ctx, spot[0], spot[1], view.ghostColor, this.touchPreview ? 0.65 : 0.45);
    }

    drawCursor(ctx) {
      if (!this.keyboardMode || document.activeElement !== this.canvas || !this.cursor) return;
      const [px, py] = this.toPixel(this.cursor[0], this.cursor[1]);
      const h = this.geometry.cell * 0.5;
      const l = h * 0.45;
      ctx.save();
      ctx.strokeStyle = "#1769e0";
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

  window.GomokuBoard = { BoardView, COLUMNS, starPoints };
})();
