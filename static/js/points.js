/*
 * Board points as the page names them: [x, y] pairs, 0-based from the top-left, named
 * "h8" style (column letter, row counted from the bottom) or typed as "7,7".
 */
export const COLUMNS = "abcdefghijklmnopqrstuvwxyz";

export function pointName(point, size) {
  return COLUMNS[point[0]] + String(size - point[1]);
}

/** The point a person typed ("h8" or "7,7"), or null when it is not one on this board. */
export function parsePoint(text, size) {
  const name = /^\s*([a-zA-Z])\s*(\d{1,2})\s*$/.exec(text);
  let x;
  let y;
  if (name) {
    x = COLUMNS.indexOf(name[1].toLowerCase());
    y = size - parseInt(name[2], 10);
  } else {
    const pair = /^\s*(\d{1,2})\s*,\s*(\d{1,2})\s*$/.exec(text);
    if (!pair) return null;
    x = parseInt(pair[1], 10);
    y = parseInt(pair[2], 10);
  }
  if (x < 0 || y < 0 || x >= size || y >= size) return null;
  return [x, y];
}

export function samePoint(a, b) {
  return Boolean(a && b) && a[0] === b[0] && a[1] === b[1];
}

export function colorOfPly(index) {
  return index % 2 === 0 ? "black" : "white";
}

export function otherColor(color) {
  return color === "black" ? "white" : "black";
}
