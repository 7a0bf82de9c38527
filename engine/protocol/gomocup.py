"""The manager side of the Gomocup ("piskvork") protocol: drive an external brain process.

``BrainProcess`` launches a brain command, sends it START/INFO/BEGIN/TURN/BOARD/TAKEBACK/END
and reads its replies with a deadline. A reader thread feeds a queue so a silent brain times
out instead of hanging the caller. The match runner (``engine.tools.match``) plays brains against
each other through it, and the web app uses it to seat external engines as players. The
brain side of the same protocol is ``engine.protocol.pbrain``."""

from __future__ import annotations

import contextlib
import queue
import re
import subprocess
import threading
import time
from collections.abc import Callable, Sequence

from engine.game.points import Point

# A brain that has not said OK to START by then is considered dead; the first START may
# include loading and compiling a search core.
DEFAULT_START_TIMEOUT_S = 120.0
# How long END waits for the process to leave on its own before it is killed.
END_GRACE_S = 2.0
_MOVE_RE = re.compile(r"^\s*(\d{1,2})\s*,\s*(\d{1,2})\s*$")
_STDERR_LINES_KEPT = 20


class BrainError(RuntimeError):
    """A brain process misbehaved: base class of the specific failures below."""


class BrainTimeoutError(BrainError):
    """The brain did not answer within the allowed time."""


class BrainCrashedError(BrainError):
    """The brain process exited or closed its output."""


class BrainProtocolError(BrainError):
    """The brain answered with something the protocol does not allow here."""


_EOF = None


class BrainProcess:
    """One external brain speaking the Gomocup protocol over pipes.

    ``on_message`` receives every ``MESSAGE`` line's text (without the keyword) while the
    brain thinks. ``last_move_time`` holds the wall time in seconds from sending the last
    move-requesting command to reading its answer."""

    def __init__(
        self,
        command: Sequence[str],
        *,
        name: str | None = None,
        on_message: Callable[[str], None] | None = None,
        cwd: str | None = None,
        env: dict[str, str] | None = None,
    ) -> None:
        if not command:
            raise ValueError("a brain command needs at least a program name")
        self.command = list(command)
        self.name = name or self.command[-1]
        self.on_message = on_message
        self.last_move_time = 0.0
        self.messages: list[str] = []
        self._stderr_tail: list[str] = []
        # Lines with the time they were read, so a busy caller does not inflate move times.
        self._lines: queue.Queue[tuple[str, float] | None] = queue.Queue()
        self._last_arrival = 0.0
        try:
            self._process = subprocess.Popen(
                self.command,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                encoding="utf-8",
                errors="replace",
                bufsize=1,
                cwd=cwd,
                env=env,
            )
        except OSError as error:
            raise BrainCrashedError(f"cannot launch brain {self.command!r}: {error}") from error
        self._reader = threading.Thread(target=self._read_stdout, daemon=True)
        self._reader.start()
        self._stderr_reader = threading.Thread(target=self._read_stderr, daemon=True)
        self._stderr_reader.start()

    # -- plumbing ---------------------------------------------------------------------

    def _read_stdout(self) -> None:
        stream = self._process.stdout
        assert stream is not None
        for line in stream:
            self._lines.put((line.rstrip("\r\n"), time.perf_counter()))
        self._lines.put(_EOF)

    def _read_stderr(self) -> None:
        stream = self._process.stderr
        assert stream is not None
        for line in stream:
            self._stderr_tail.append(line.rstrip("\r\n"))
            del self._stderr_tail[:-_STDERR_LINES_KEPT]

    @property
    def pid(self) -> int:
        return self._process.pid

    @property
    def alive(self) -> bool:
        return self._process.poll() is None

    def _crashed(self, doing: str) -> BrainCrashedError:
        code = self._process.poll()
        tail = " | ".join(self._stderr_tail[-5:])
        detail = f" (exit code {code})" if code is not None else ""
        extra = f"; stderr: {tail}" if tail else ""
        return BrainCrashedError(f"brain {self.name} died while {doing}{detail}{extra}")

    def send(self, line: str) -> None:
        """Write one protocol line to the brain."""
        stream = self._process.stdin
        if stream is None or self._process.poll() is not None:
            raise self._crashed(f"receiving {line.split()[0] if line else 'a line'}")
        try:
            stream.write(line + "\n")
            stream.flush()
        except (BrokenPipeError, OSError, ValueError) as error:
            raise self._crashed(f"receiving {line!r}") from error

    def _next_reply(self, deadline: float, doing: str) -> str:
        """The next line that is not a MESSAGE/DEBUG comment, or raise on timeout or EOF."""
        while True:
            # A line that arrived in time counts even if this thread looks at it late.
            remaining = max(deadline - time.perf_counter(), 0.0)
            try:
                item = self._lines.get(timeout=remaining)
            except queue.Empty:
                raise BrainTimeoutError(f"brain {self.name} did not answer while {doing}") from None
            if item is _EOF:
                self._lines.put(_EOF)  # later reads see the end too
                raise self._crashed(doing)
            line, self._last_arrival = item
            if self._last_arrival > deadline:
                raise BrainTimeoutError(f"brain {self.name} did not answer while {doing}")
            keyword = line.split(" ", 1)[0].upper()
            if keyword == "MESSAGE":
                text = line[len("MESSAGE") :].strip()
                self.messages.append(text)
                if self.on_message is not None:
                    self.on_message(text)
                continue
            if keyword == "DEBUG" or not line.strip():
                continue
            return line.strip()

    def read_reply(self, timeout: float) -> str:
        """The brain's next answer line (MESSAGE lines go to ``on_message``), e.g. after a
        raw ``send``; raises ``BrainTimeoutError`` if none comes within ``timeout``."""
        return self._next_reply(time.perf_counter() + timeout, "answering")

    def _expect(self, expected: str, timeout: float, doing: str) -> None:
        reply = self._next_reply(time.perf_counter() + timeout, doing)
        if reply.upper() != expected:
            raise BrainProtocolError(
                f"brain {self.name} answered {reply!r} while {doing}; expected {expected}"
            )

    def _await_move(self, started: float, timeout: float, doing: str) -> Point:
        reply = self._next_reply(started + timeout, doing)
        self.last_move_time = self._last_arrival - started
        match = _MOVE_RE.match(reply)
        if not match:
            raise BrainProtocolError(
                f"brain {self.name} answered {reply!r} while {doing}; expected a move x,y"
            )
        return (int(match.group(1)), int(match.group(2)))

    def _drain_stale(self) -> None:
        """Drop replies left over from an earlier command so they are not misread."""
        with contextlib.suppress(queue.Empty):
            while True:
                item = self._lines.get_nowait()
                if item is _EOF:
                    self._lines.put(_EOF)
                    return

    # -- protocol ---------------------------------------------------------------------

    def start(self, size: int, timeout: float = DEFAULT_START_TIMEOUT_S) -> None:
        """START a game on a ``size`` board; the brain must answer OK."""
        self._drain_stale()
        self.send(f"START {size}")
        self._expect("OK", timeout, f"starting a {size}x{size} game")

    def restart(self, timeout: float = DEFAULT_START_TIMEOUT_S) -> None:
        self._drain_stale()
        self.send("RESTART")
        self._expect("OK", timeout, "restarting")

    def info(self, key: str, value: object) -> None:
        """Send ``INFO key value``; the protocol has no reply to INFO."""
        self.send(f"INFO {key} {value}")

    def about(self, timeout: float = 30.0) -> dict[str, str]:
        """Ask ABOUT and parse ``key="value"`` pairs (empty dict if none parse). The default
        wait allows for a brain that is still starting up on a busy machine."""
        self._drain_stale()
        self.send("ABOUT")
        reply = self._next_reply(time.perf_counter() + timeout, "answering ABOUT")
        return dict(re.findall(r'(\w+)\s*=\s*"([^"]*)"', reply))

    def begin(self, timeout: float) -> Point:
        """Ask for the first move of the game on an empty board."""
        self._drain_stale()
        started = time.perf_counter()
        self.send("BEGIN")
        return self._await_move(started, timeout, "choosing the first move")

    def turn(self, point: Point, timeout: float) -> Point:
        """Tell the brain the opponent's move and read its answer."""
        self._drain_stale()
        x, y = point
        started = time.perf_counter()
        self.send(f"TURN {x},{y}")
        return self._await_move(started, timeout, f"answering TURN {x},{y}")

    def board(self, moves: Sequence[Point], timeout: float) -> Point:
        """Send a whole position (moves in play order, black first) with the brain to move,
        and read its answer."""
        self._drain_stale()
        to_move = len(moves) % 2  # 0: black to move, 1: white to move
        lines = ["BOARD"]
        for index, (x, y) in enumerate(moves):
            own = index % 2 == to_move
            lines.append(f"{x},{y},{1 if own else 2}")
        lines.append("DONE")
        started = time.perf_counter()
        for line in lines:
            self.send(line)
        return self._await_move(started, timeout, f"answering BOARD of {len(moves)} stones")

    def takeback(self, point: Point, timeout: float = 5.0) -> None:
        self._drain_stale()
        x, y = point
        self.send(f"TAKEBACK {x},{y}")
        self._expect("OK", timeout, f"taking back {x},{y}")

    def end(self, grace: float = END_GRACE_S) -> None:
        """Send END and make sure the process is gone afterwards."""
        with contextlib.suppress(BrainError):
            self.send("END")
        self.kill(grace)

    def kill(self, grace: float = 0.0) -> None:
        """Wait up to ``grace`` seconds for the process to exit, then kill it."""
        if self._process.poll() is None:
            try:
                self._process.wait(timeout=grace)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait()
        if self._process.stdin is not None:
            with contextlib.suppress(OSError, ValueError):
                self._process.stdin.close()
        # The readers end at EOF now that the process is gone; only then close their pipes.
        for reader, stream in (
            (self._reader, self._process.stdout),
            (self._stderr_reader, self._process.stderr),
        ):
            reader.join(timeout=1.0)
            if stream is not None and not reader.is_alive():
                with contextlib.suppress(OSError, ValueError):
                    stream.close()

    def __enter__(self) -> BrainProcess:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.end()
