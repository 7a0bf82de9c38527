"""Clock presets: the time controls a human game is offered with, named as players say
them (``3+2`` is three minutes each and two seconds added per move), and ``untimed``.

The home page's friend form and the lobby's seeks choose one of these; ``clock_of``
turns a name into (base ms, increment ms), what game creation reads (None: no clock). A
friend game gets ``DEFAULT_PRESET`` unless another is chosen."""

from __future__ import annotations

from dataclasses import dataclass

from webapp.game.errors import BadRequestError

UNTIMED = "untimed"


@dataclass(frozen=True)
class ClockPreset:
    name: str
    base_s: int
    increment_s: int

    @property
    def millis(self) -> tuple[int, int]:
        """(base, increment) in milliseconds."""
        return self.base_s * 1000, self.increment_s * 1000


PRESETS: tuple[ClockPreset, ...] = (
    ClockPreset("1+0", 60, 0),
    ClockPreset("3+2", 180, 2),
    ClockPreset("5+3", 300, 3),
    ClockPreset("10+5", 600, 5),
    ClockPreset("30+0", 1800, 0),
)
PRESET_NAMES: tuple[str, ...] = (*(preset.name for preset in PRESETS), UNTIMED)
DEFAULT_PRESET = "5+3"
_BY_NAME = {preset.name: preset for preset in PRESETS}
DEFAULT_CLOCK = _BY_NAME[DEFAULT_PRESET].millis


def parse_preset(value: object, field: str = "preset") -> str:
    """The preset name ``value`` spells, or a ``bad_request`` naming ``field``."""
    if not isinstance(value, str) or value.strip().lower() not in PRESET_NAMES:
        raise BadRequestError(
            f"'{field}' must be one of {', '.join(PRESET_NAMES)}",
            params={"field": field, "reason": "choice", "choices": list(PRESET_NAMES)},
        )
    return value.strip().lower()


def clock_of(name: str) -> tuple[int, int] | None:
    """(base ms, increment ms) of preset ``name``; None for ``untimed``."""
    if name == UNTIMED:
        return None
    return _BY_NAME[name].millis


def preset_of(clock: tuple[int, int] | None) -> str | None:
    """The preset name of a (base ms, increment ms) clock if it is one (``untimed`` for
    no clock), else None."""
    if clock is None:
        return UNTIMED
    for preset in PRESETS:
        if preset.millis == clock:
            return preset.name
    return None
