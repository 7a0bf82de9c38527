"""Pictures of a board as PNG bytes, drawn with numpy alone: the link-preview card of a
game (1200x630, the size chat apps and social sites show large), the site's card, and
the small icons (``favicon.ico``, the home-screen icon).

Shapes are drawn with anti-aliased edges (each pixel covered in proportion to its
distance from the edge) and the PNG is written by hand: an RGB image, one zlib stream."""

from __future__ import annotations

import struct
import zlib
from collections.abc import Sequence
from functools import lru_cache

import numpy as np

Point = tuple[int, int]
Colour = tuple[int, int, int]

CARD_WIDTH, CARD_HEIGHT = 1200, 630

BACKGROUND: Colour = (29, 28, 26)
WOOD: Colour = (220, 174, 106)
GRID: Colour = (112, 78, 38)
BLACK_STONE: Colour = (22, 22, 22)
WHITE_STONE: Colour = (247, 245, 240)
WHITE_EDGE: Colour = (150, 144, 134)
MARK: Colour = (214, 64, 48)


class Canvas:
    """An image being drawn on: colours as floats in 0..255 and, for a ``transparent``
    canvas, an opacity per pixel (0..1) that each shape drawn adds to."""

    def __init__(
        self, width: int, height: int, colour: Colour, *, transparent: bool = False
    ) -> None:
        self.pixels = np.empty((height, width, 3), dtype=np.float32)
        self.pixels[:, :] = colour
        self.alpha = np.full((height, width), 0.0 if transparent else 1.0, dtype=np.float32)
        self.transparent = transparent
        self.width, self.height = width, height

    def _blend(self, y0: int, x0: int, cover: np.ndarray, colour: Colour) -> None:
        """Paint ``colour`` over the region at (``x0``, ``y0``), each pixel covered by
        the fraction ``cover`` says (the "over" rule, for opacity too)."""
        h, w = cover.shape
        region = self.pixels[y0 : y0 + h, x0 : x0 + w]
        below = self.alpha[y0 : y0 + h, x0 : x0 + w]
        after = cover + below * (1.0 - cover)
        weight = np.divide(cover, after, out=np.zeros_like(cover), where=after > 0)[:, :, None]
        region[:] = region * (1.0 - weight) + np.asarray(colour, dtype=np.float32) * weight
        below[:] = after

    def _box(self, cx: float, cy: float, reach: float) -> tuple[int, int, int, int]:
        x0 = max(int(cx - reach) - 1, 0)
        y0 = max(int(cy - reach) - 1, 0)
        x1 = min(int(cx + reach) + 2, self.width)
        y1 = min(int(cy + reach) + 2, self.height)
        return x0, y0, x1, y1

    def copy(self) -> Canvas:
        twin = Canvas.__new__(Canvas)
        twin.pixels, twin.alpha = self.pixels.copy(), self.alpha.copy()
        twin.transparent, twin.width, twin.height = self.transparent, self.width, self.height
        return twin

    def stamp(self, cx: float, cy: float, cover: np.ndarray, colour: Colour) -> None:
        """Paint a precomputed square ``cover`` (odd sides) centred on the pixel nearest
        (``cx``, ``cy``): many equal shapes for the cost of blending them."""
        half = cover.shape[0] // 2
        x0, y0 = int(cx) - half, int(cy) - half
        cx0, cy0 = max(0, -x0), max(0, -y0)
        x1 = min(x0 + cover.shape[1], self.width)
        y1 = min(y0 + cover.shape[0], self.height)
        if x1 <= max(x0, 0) or y1 <= max(y0, 0):
            return
        part = cover[cy0 : cy0 + y1 - max(y0, 0), cx0 : cx0 + x1 - max(x0, 0)]
        self._blend(max(y0, 0), max(x0, 0), part, colour)

    def disc(self, cx: float, cy: float, radius: float, colour: Colour) -> None:
        """A filled circle."""
        x0, y0, x1, y1 = self._box(cx, cy, radius + 1)
        if x1 <= x0 or y1 <= y0:
            return
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        distance = np.hypot(xs + 0.5 - cx, ys + 0.5 - cy)
        self._blend(y0, x0, np.clip(radius + 0.5 - distance, 0.0, 1.0), colour)

    def ring(self, cx: float, cy: float, radius: float, width: float, colour: Colour) -> None:
        """A circle's outline, ``width`` pixels wide, centred on ``radius``."""
        x0, y0, x1, y1 = self._box(cx, cy, radius + width)
        if x1 <= x0 or y1 <= y0:
            return
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        distance = np.abs(np.hypot(xs + 0.5 - cx, ys + 0.5 - cy) - radius)
        self._blend(y0, x0, np.clip(width / 2 + 0.5 - distance, 0.0, 1.0), colour)

    def segment(
        self, a: tuple[float, float], b: tuple[float, float], width: float, colour: Colour,
        opacity: float = 1.0,
    ) -> None:  # fmt: skip
        """A straight line from ``a`` to ``b`` with round ends."""
        (ax, ay), (bx, by) = a, b
        reach = width / 2 + 1
        x0 = max(int(min(ax, bx) - reach), 0)
        y0 = max(int(min(ay, by) - reach), 0)
        x1 = min(int(max(ax, bx) + reach) + 2, self.width)
        y1 = min(int(max(ay, by) + reach) + 2, self.height)
        if x1 <= x0 or y1 <= y0:
            return
        ys, xs = np.mgrid[y0:y1, x0:x1].astype(np.float32)
        px, py = xs + 0.5 - ax, ys + 0.5 - ay
        dx, dy = bx - ax, by - ay
        length2 = dx * dx + dy * dy
        t = np.clip((px * dx + py * dy) / length2, 0.0, 1.0) if length2 > 0 else 0.0
        distance = np.hypot(px - t * dx, py - t * dy)
        cover = np.clip(width / 2 + 0.5 - distance, 0.0, 1.0) * opacity
        self._blend(y0, x0, cover, colour)

    def rectangle(self, x0: int, y0: int, x1: int, y1: int, colour: Colour) -> None:
        self.pixels[max(y0, 0) : y1, max(x0, 0) : x1] = colour

    def rounded(self, x0: float, y0: float, side: float, radius: float, colour: Colour) -> None:
        """A filled square with rounded corners."""
        ix0, iy0 = max(int(x0) - 1, 0), max(int(y0) - 1, 0)
        ix1 = min(int(x0 + side) + 2, self.width)
        iy1 = min(int(y0 + side) + 2, self.height)
        ys, xs = np.mgrid[iy0:iy1, ix0:ix1].astype(np.float32)
        # Distance outside the square shrunk by the radius, minus the radius.
        qx = np.abs(xs + 0.5 - (x0 + side / 2)) - (side / 2 - radius)
        qy = np.abs(ys + 0.5 - (y0 + side / 2)) - (side / 2 - radius)
        outside = np.hypot(np.maximum(qx, 0), np.maximum(qy, 0)) + np.minimum(np.maximum(qx, qy), 0)
        self._blend(iy0, ix0, np.clip(radius + 0.5 - outside, 0.0, 1.0), colour)

    def png(self) -> bytes:
        image = self.pixels
        if self.transparent:
            image = np.concatenate([image, self.alpha[:, :, None] * 255.0], axis=2)
        return encode_png(np.clip(np.rint(image), 0, 255).astype(np.uint8))


@lru_cache(maxsize=16)
def disc_cover(radius: float, ring: float = 0.0) -> np.ndarray:
    """How much of each pixel a disc of ``radius`` centred on the middle pixel covers
    (with ``ring``, only a band that wide inside its edge), for ``Canvas.stamp``."""
    half = int(radius) + 2
    ys, xs = np.mgrid[-half : half + 1, -half : half + 1].astype(np.float32)
    distance = np.hypot(xs, ys)
    if ring > 0:
        band = np.abs(distance - (radius - ring / 2))
        return np.asarray(np.clip(ring / 2 + 0.5 - band, 0.0, 1.0), dtype=np.float32)
    return np.asarray(np.clip(radius + 0.5 - distance, 0.0, 1.0), dtype=np.float32)


def encode_png(image: np.ndarray) -> bytes:
    """PNG bytes of an ``uint8[height, width, 3]`` (RGB) or ``[height, width, 4]`` (RGBA)
    image."""
    height, width, channels = image.shape
    flat = image.reshape(height, -1)
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), flat], 1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))

    colour_type = 6 if channels == 4 else 2
    header = struct.pack(">IIBBBBB", width, height, 8, colour_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows.tobytes(), 6))
        + chunk(b"IEND", b"")
    )


def star_points(size: int) -> list[Point]:
    """The marked points of a board: the centre, and the corner points on larger boards."""
    centre = size // 2
    if size < 9:
        return [(centre, centre)]
    edge = 3 if size >= 13 else 2
    far = size - 1 - edge
    return [(centre, centre), (edge, edge), (edge, far), (far, edge), (far, far)]


def _geometry(side: float, size: int) -> tuple[float, float]:
    """The spacing of the lines of a ``side``-pixel board and the width of a line."""
    return side / (size + 1), max(1.0, side / 480)


def draw_empty_board(canvas: Canvas, x0: float, y0: float, side: float, size: int) -> None:
    """A ``size`` board without stones as a ``side``-pixel wooden square at (``x0``,
    ``y0``): the lines and the marked points."""
    canvas.rounded(x0, y0, side, side * 0.02, WOOD)
    step, thin = _geometry(side, size)
    first, last = step, step * size
    for k in range(size):
        offset = step * (k + 1)
        canvas.segment((x0 + first, y0 + offset), (x0 + last, y0 + offset), thin, GRID)
        canvas.segment((x0 + offset, y0 + first), (x0 + offset, y0 + last), thin, GRID)
    for x, y in star_points(size):
        canvas.disc(x0 + step * (x + 1), y0 + step * (y + 1), max(1.5, step * 0.1), GRID)


def draw_stones(
    canvas: Canvas,
    x0: float,
    y0: float,
    side: float,
    size: int,
    moves: Sequence[Point],
    *,
    line: Sequence[Point] = (),
    mark_last: bool = True,
) -> None:
    """The stones of ``moves`` (black first) on the board ``draw_empty_board`` drew, the
    last one marked and a winning ``line`` struck through."""
    step, thin = _geometry(side, size)

    def at(point: Point) -> tuple[float, float]:
        return x0 + step * (point[0] + 1), y0 + step * (point[1] + 1)

    radius = round(step * 0.46, 2)
    stone, edge = disc_cover(radius), disc_cover(radius, round(thin, 2))
    for n, point in enumerate(moves):
        cx, cy = at(point)
        canvas.stamp(cx, cy, stone, WHITE_STONE if n % 2 else BLACK_STONE)
        if n % 2:
            canvas.stamp(cx, cy, edge, WHITE_EDGE)
    if mark_last and moves:
        canvas.disc(*at(moves[-1]), max(2.0, step * 0.13), MARK)
    if len(line) >= 2:
        canvas.segment(at(line[0]), at(line[-1]), max(2.0, step * 0.14), MARK, opacity=0.85)


CARD_BOARD = ((CARD_WIDTH - (CARD_HEIGHT - 40)) / 2, 20.0, float(CARD_HEIGHT - 40))


@lru_cache(maxsize=8)
def _empty_card(size: int) -> Canvas:
    canvas = Canvas(CARD_WIDTH, CARD_HEIGHT, BACKGROUND)
    draw_empty_board(canvas, *CARD_BOARD, size)
    return canvas


def card_png(size: int, moves: Sequence[Point], line: Sequence[Point] = ()) -> bytes:
    """The 1200x630 preview card of a position: the board, centred on the site's dark
    background."""
    canvas = _empty_card(size).copy()
    draw_stones(canvas, *CARD_BOARD, size, moves, line=line)
    return canvas.png()


def icon_png(pixels: int) -> bytes:
    """The site's mark (a small board corner with a black and a white stone) as a square
    PNG of ``pixels`` a side."""
    canvas = Canvas(pixels, pixels, WOOD, transparent=True)
    scale = pixels / 32
    canvas.rounded(scale, scale, 30 * scale, 6 * scale, WOOD)
    width = max(1.0, 1.2 * scale)
    for k in (8, 16, 24):
        canvas.segment((k * scale, 4 * scale), (k * scale, 28 * scale), width, GRID)
        canvas.segment((4 * scale, k * scale), (28 * scale, k * scale), width, GRID)
    canvas.disc(16 * scale, 16 * scale, 5.2 * scale, BLACK_STONE)
    canvas.disc(24 * scale, 8 * scale, 5.2 * scale, WHITE_STONE)
    canvas.ring(24 * scale, 8 * scale, 5.2 * scale, max(0.8, 0.6 * scale), WHITE_EDGE)
    return canvas.png()


def ico(png: bytes, pixels: int) -> bytes:
    """An ``.ico`` file holding one PNG image (every current browser reads these)."""
    side = 0 if pixels >= 256 else pixels
    header = struct.pack("<HHH", 0, 1, 1)
    entry = struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), 6 + 16)
    return header + entry + png
