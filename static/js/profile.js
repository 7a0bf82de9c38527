/*
 * The profile page: draws the rating history as an inline SVG from the points the server
 * put in #rating-chart's data-points ([{rule_key, game_id, rating, rd, at}], oldest first):
 * one line per rule key, a band of ±RD around it, a point per rated game linking to that
 * game, and a legend. The filter selects submit on change. Nothing here knows where the
 * points come from: any list of that shape is drawn.
 */
import { onChange, t } from "./i18n.js";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = ["#2f8a5b", "#c0572b", "#3b6fb6", "#8b5bb0", "#b08a1e", "#4d4d4d"];
const WIDTH = 640;
const HEIGHT = 240;
const PAD = { left: 44, right: 14, top: 14, bottom: 26 };

function node(name, attrs, parent) {
  const el = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs || {})) el.setAttribute(key, String(value));
  if (parent) parent.appendChild(el);
  return el;
}

function ruleLabel(key) {
  const [rule, size] = String(key).split("-");
  const name = t(`rule.${rule}`) || rule;
  return size ? `${name} ${size}×${size}` : name;
}

function niceStep(span) {
  const raw = span / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 5, 10]) if (raw <= m * power) return m * power;
  return 10 * power;
}

export function drawChart(figure, points) {
  figure.querySelectorAll("svg, .chart-legend").forEach((el) => el.remove());
  const valid = points.filter((p) => Number.isFinite(p.rating) && p.rule_key);
  const empty = figure.querySelector("#chart-empty");
  if (empty) empty.hidden = valid.length > 0;
  if (!valid.length) return null;
  const series = new Map();
  for (const point of valid) {
    if (!series.has(point.rule_key)) series.set(point.rule_key, []);
    series.get(point.rule_key).push(point);
  }
  const count = Math.max(...[...series.values()].map((list) => list.length));
  let low = Math.min(...valid.map((p) => p.rating - (p.rd || 0)));
  let high = Math.max(...valid.map((p) => p.rating + (p.rd || 0)));
  if (high - low < 100) {
    const mid = (high + low) / 2;
    low = mid - 50;
    high = mid + 50;
  }
  const step = niceStep(high - low);
  low = Math.floor(low / step) * step;
  high = Math.ceil(high / step) * step;
  const x = (i) => PAD.left + (count > 1 ? (i / (count - 1)) * (WIDTH - PAD.left - PAD.right) : (WIDTH - PAD.left - PAD.right) / 2);
  const y = (r) => PAD.top + ((high - r) / (high - low)) * (HEIGHT - PAD.top - PAD.bottom);

  const svg = node("svg", {
    viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
    class: "chart",
    role: "img",
    "aria-label": t("profile.rating_history"),
  });
  for (let r = low; r <= high + 1e-9; r += step) {
    node("line", { x1: PAD.left, x2: WIDTH - PAD.right, y1: y(r), y2: y(r), class: "grid" }, svg);
    node("text", { x: PAD.left - 6, y: y(r) + 4, class: "axis", "text-anchor": "end" }, svg).textContent = String(Math.round(r));
  }
  node("text", { x: PAD.left, y: HEIGHT - 6, class: "axis" }, svg).textContent = "1";
  node("text", { x: WIDTH - PAD.right, y: HEIGHT - 6, class: "axis", "text-anchor": "end" }, svg).textContent = t("profile.games_count", { n: count });
  const legend = document.createElement("ul");
  legend.className = "chart-legend";
  [...series.entries()].forEach(([key, list], index) => {
    const colour = COLOURS[index % COLOURS.length];
    const group = node("g", { class: "series", "data-rule-key": key }, svg);
    const upper = list.map((p, i) => `${x(i)},${y(p.rating + (p.rd || 0))}`);
    const lower = list.map((p, i) => `${x(i)},${y(p.rating - (p.rd || 0))}`).reverse();
    node("polygon", { points: upper.concat(lower).join(" "), fill: colour, opacity: 0.12 }, group);
    node("polyline", { points: list.map((p, i) => `${x(i)},${y(p.rating)}`).join(" "), stroke: colour, fill: "none", "stroke-width": 2 }, group);
    list.forEach((p, i) => {
      const link = node("a", { href: `/g/${encodeURIComponent(p.game_id)}` }, group);
      const dot = node("circle", { cx: x(i), cy: y(p.rating), r: 3.5, fill: colour, class: "point" }, link);
      node("title", {}, dot).textContent = `${ruleLabel(key)}: ${Math.round(p.rating)} ±${Math.round(p.rd || 0)}`;
    });
    const item = document.createElement("li");
    const swatch = document.createElement("i");
    swatch.style.background = colour;
    item.append(swatch, document.createTextNode(`${ruleLabel(key)} · ${Math.round(list[list.length - 1].rating)}`));
    legend.appendChild(item);
  });
  figure.append(svg, legend);
  return svg;
}

function readPoints(figure) {
  try {
    const points = JSON.parse(figure.dataset.points || "[]");
    return Array.isArray(points) ? points : [];
  } catch (_err) {
    return [];
  }
}

const figure = document.getElementById("rating-chart");
if (figure) {
  const points = readPoints(figure);
  drawChart(figure, points);
  onChange(() => drawChart(figure, points));
}

const filters = document.getElementById("archive-filters");
if (filters) {
  filters.addEventListener("change", () => {
    // Only the chosen filters go in the address.
    for (const select of filters.querySelectorAll("select")) select.disabled = !select.value;
    filters.submit();
  });
}
