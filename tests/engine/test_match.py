"""The match runner end to end with real brain processes, its adjudication of failing
brains, the Elo arithmetic and the openings format."""

from __future__ import annotations

import io
import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from engine.tools.elo import elo_estimate, elo_from_score
from engine.tools.match import (
    MatchSettings,
    Player,
    _player_name,
    _Schedule,
    format_summary,
    parse_info,
    play_game,
    run_match,
)
from engine.tools.openings import OpeningFormatError, load_openings, parse_opening, parse_openings
from engine.tools.referee import GameRecord, _prepare
from engine.tools.sprt import Decision, Sprt, SprtSettings

ROOT = Path(__file__).resolve().parents[2]
SEED000 = [sys.executable, str(ROOT / "tests" / "opponents" / "seed000_brain.py")]
SEED003 = [sys.executable, str(ROOT / "tests" / "opponents" / "seed003_brain.py")]
OPENINGS = (
    "# two Gomocup 2026 openings\n0,0, 1,-1, 3,2, -1,-1, 3,-1\n\n0,0, 0,-1, 1,-3, 2,-1, 2,1\n"
)


def test_short_match_between_our_brain_and_seed000(tmp_path: Path) -> None:
    book = tmp_path / "openings.txt"
    book.write_text(OPENINGS)
    command = [sys.executable, "-m", "webapp.cli", "match", "--engine2", " ".join(SEED000)]
    command += ["--openings", str(book), "--games", "2", "--time-ms", "500", "--json"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    print(format_summary(summary))
    assert summary["engine1"] == "gomoku"
    assert summary["engine2"] == "seed000"
    assert summary["games"] == 2
    assert summary["wins"] + summary["losses"] + summary["draws"] == 2
    records = summary["records"]
    assert [r["black"] for r in records] == ["gomoku", "seed000"]
    for record in records:
        assert record["reason"]
        assert record["moves"][:5] == [[7, 7], [8, 6], [10, 9], [6, 6], [10, 6]]
    assert summary["move_times"]["gomoku"]["moves"] > 0
    assert "W-L-D" in format_summary(summary)
    # The per-game lines went to stderr in JSON mode.
    assert done.stderr.count("game ") == 2


def test_seed_brains_play_each_other_in_process() -> None:
    openings = parse_openings(OPENINGS)
    seed000, seed003 = Player("engine1", SEED000, "seed000"), Player("engine2", SEED003, "seed003")
    summary = run_match(seed000, seed003, openings, MatchSettings(time_ms=500), 2, report=False)
    assert summary["games"] == 2
    assert summary["time_losses"] == {"seed000": 0, "seed003": 0}
    for record in summary["records"]:  # type: ignore[attr-defined]
        assert record["reason"] in {"five", "full board"}


def _fake_brain(tmp_path: Path, name: str, body: str) -> list[str]:
    script = tmp_path / f"{name}.py"
    script.write_text(
        "import sys\n"
        "for line in sys.stdin:\n"
        "    cmd = line.split()[0].upper() if line.split() else ''\n"
        "    if cmd == 'START':\n"
        "        print('OK', flush=True)\n"
        "    elif cmd in ('BEGIN', 'TURN', 'DONE'):\n"
        f"{body}"
        "    elif cmd == 'END':\n"
        "        break\n"
    )
    return [sys.executable, str(script)]


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        ("        print('7,7', flush=True)\n", "illegal move"),  # the centre is taken
        ("        pass\n", "exceeded"),  # never answers
        ("        sys.exit(3)\n", "failed"),  # crashes
        ("        print('pass', flush=True)\n", "failed"),  # not a move
    ],
)
def test_a_misbehaving_brain_loses(tmp_path: Path, body: str, reason: str) -> None:
    bad = Player("engine2", _fake_brain(tmp_path, "bad", body), "bad")
    good = Player("engine1", SEED000, "seed000")
    settings = MatchSettings(time_ms=300)
    try:
        record = play_game(1, 0, [(7, 7)], good, bad, settings)
    finally:
        good.close()
        bad.close()
    assert record.winner == "engine1"
    assert reason in record.reason
    if reason == "exceeded":
        assert bad.time_losses == 1


def test_a_revision_is_named_by_its_spec_and_a_brain_by_its_about_name() -> None:
    revision = Player("engine1", [sys.executable, "-c", "print('never started')"])
    assert _player_name(revision, "rev:main") == "rev:main"
    assert revision.process is None  # a revision is named without starting it
    seed = Player("engine2", SEED000)
    name = _player_name(seed, " ".join(SEED000))
    seed.discard()
    assert name and name != SEED000[-1]


def test_elo_of_even_and_lopsided_scores() -> None:
    even = elo_estimate(10, 10, 0)
    assert even.diff == pytest.approx(0.0)
    assert even.error > 0
    three_quarters = elo_estimate(15, 5, 0)
    assert three_quarters.diff == pytest.approx(190.85, abs=0.1)
    assert elo_estimate(5, 15, 0).diff == pytest.approx(-three_quarters.diff)
    draws = elo_estimate(0, 0, 10)
    assert draws.diff == pytest.approx(0.0) and draws.error == pytest.approx(0.0)
    assert str(three_quarters).startswith("+191 +/- ")
    # More games, same score: a tighter interval.
    assert elo_estimate(150, 50, 0).error < three_quarters.error


def test_elo_of_a_clean_sweep_is_a_bound() -> None:
    sweep = elo_estimate(24, 0, 0)
    assert sweep.bound == "lower"
    assert sweep.diff == pytest.approx(elo_from_score(23.5 / 24))
    assert str(sweep).startswith(">= +")
    whitewash = elo_estimate(0, 24, 0)
    assert whitewash.bound == "upper"
    assert str(whitewash).startswith("<= -")
    assert math.isinf(sweep.error)
    assert str(elo_estimate(0, 0, 0)) == "no games"
    with pytest.raises(ValueError):
        elo_estimate(-1, 2, 0)
    with pytest.raises(ValueError):
        elo_from_score(1.0)


def test_openings_are_offsets_from_the_centre() -> None:
    assert parse_opening("0,0, 1,-1") == [(7, 7), (8, 6)]
    assert parse_opening("4,6, 1,5, 0,3") == [(11, 13), (8, 12), (7, 10)]
    assert parse_opening("0,0", size=19) == [(9, 9)]
    assert parse_openings(OPENINGS) == [
        [(7, 7), (8, 6), (10, 9), (6, 6), (10, 6)],
        [(7, 7), (7, 6), (8, 4), (9, 6), (9, 8)],
    ]


@pytest.mark.parametrize(
    "line",
    ["0,0, 1", "0,0, a,1", "0,0, 8,0", "0,0, 0,0", "0,0, 0,1, 1,0, 0,2, 2,0, 0,3, 3,0, 0,4, 4,0"],
)
def test_bad_openings_are_refused(line: str) -> None:
    with pytest.raises(OpeningFormatError):
        parse_opening(line)


def test_the_gomocup_openings_file_loads(tmp_path: Path) -> None:
    shared = Path("/work/shared/openings/gomocup2026_freestyle15_offset.txt")
    book = shared if shared.exists() else tmp_path / "book.txt"
    if not shared.exists():
        book.write_text(OPENINGS)
    openings = load_openings(book)
    assert openings and all(len(o) >= 3 for o in openings)


def test_match_cli_refuses_bad_arguments(tmp_path: Path) -> None:
    book = tmp_path / "bad.txt"
    book.write_text("0,0, 0,0\n")
    for args in (["--openings", str(book)], ["--rule", "chess"], ["--time-ms", "0"]):
        done = subprocess.run(
            [sys.executable, "-m", "webapp.cli", "match", *args],
            capture_output=True,
            text=True,
            timeout=60,
            cwd=ROOT,
        )
        assert done.returncode == 2
        assert "gomoku match:" in done.stderr


def test_sprt_match_in_parallel_stops_when_the_test_decides(tmp_path: Path) -> None:
    book = tmp_path / "openings.txt"
    book.write_text(OPENINGS)
    # A brain that always plays the centre, which every opening has taken: it loses at once.
    loser = _fake_brain(tmp_path, "loser", "        print('7,7', flush=True)\n")
    command = [sys.executable, "-m", "webapp.cli", "match", "--engine1", " ".join(SEED000)]
    command += ["--engine2", " ".join(loser), "--openings", str(book), "--time-ms", "300"]
    command += ["--games", "200", "--concurrency", "2", "--json"]
    command += ["--sprt", "elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    sprt = summary["sprt"]
    assert sprt["decision"] == "H1"
    assert sprt["llr"] >= sprt["upper"] == pytest.approx(math.log(0.95 / 0.05), abs=1e-3)
    pairs = sum(sprt["pentanomial"])
    # Stopped long before the cap, at the pair that decided; a pair still in flight then is
    # played and scored but left out of the test.
    assert pairs == 8 and summary["games"] in (2 * pairs, 2 * pairs + 2)
    assert sprt["pentanomial"] == [0, 0, 0, 0, pairs]
    assert summary["wins"] == summary["games"]
    # Both openings were cycled, each pair from one opening with both colours.
    records = summary["records"]
    assert [r["number"] for r in records] == list(range(1, summary["games"] + 1))
    for first, second in zip(records[::2], records[1::2], strict=True):
        assert first["opening"] == second["opening"]
        assert (first["black"], second["black"]) == ("seed000", "loser")
    assert {r["opening"] for r in records} == {0, 1}
    assert done.stderr.count("SPRT elo0=0 elo1=200") == pairs
    assert "H1 accepted" in done.stderr


def _record(number: int, engine1_wins: bool) -> GameRecord:
    black, white = ("engine1", "engine2") if number % 2 else ("engine2", "engine1")
    winner = "engine1" if engine1_wins else "engine2"
    return GameRecord(number, 0, black, white, winner, "five", [(7, 7)], {})


def test_a_decided_sprt_stays_decided_when_pairs_in_flight_finish() -> None:
    sprt = Sprt(SprtSettings.parse(["elo0=0", "elo1=200", "alpha=0.05", "beta=0.05"]))
    schedule = _Schedule([[(0, 0)]], 200, sprt, False, io.StringIO(), {})
    pair = 0
    while sprt.decision is Decision.CONTINUE:
        first, second = _record(2 * pair + 1, True), _record(2 * pair + 2, True)
        schedule.pair_done(first, second)
        pair += 1
    decided = sprt.pentanomial.copy()
    assert sprt.decision is Decision.H1 and schedule.take() is None
    # The other worker's pair ends after the decision, with two losses: the test's counts
    # and verdict stay as they were when it decided.
    schedule.pair_done(_record(2 * pair + 1, False), _record(2 * pair + 2, False))
    schedule.single_done(_record(2 * pair + 3, False))
    assert sprt.pentanomial == decided and sprt.decision is Decision.H1


def test_two_copies_of_our_brain_in_parallel_pairs(tmp_path: Path) -> None:
    openings = parse_openings(OPENINGS)
    ours = [sys.executable, "-m", "webapp.cli", "pbrain"]
    one, two = Player("engine1", ours, "ours-1"), Player("engine2", ours, "ours-2")
    summary = run_match(
        one,
        two,
        openings,
        MatchSettings(time_ms=20, tolerance_ms=400),
        4,
        report=False,
        concurrency=2,
        sprt=SprtSettings(elo0=0, elo1=10),
    )
    assert summary["games"] == 4
    sprt = summary["sprt"]
    assert isinstance(sprt, dict)
    assert sum(sprt["pentanomial"]) == 2 and sum(sprt["trinomial"]) == 4
    assert sprt["decision"] == "continue"
    move_times = summary["move_times"]
    assert isinstance(move_times, dict)
    # The twins' moves were counted with the players they stand in for.
    assert move_times["ours-1"]["moves"] > 0 and move_times["ours-2"]["moves"] > 0
    assert "SPRT" in format_summary(summary)


def test_info_items_parse_and_refuse_forged_lines() -> None:
    assert parse_info(["max_node=32000", "MAX_DEPTH=9"]) == [
        ("max_node", "32000"),
        ("max_depth", "9"),
    ]
    assert parse_info([]) == []
    for bad in ("max_node", "=5", "max node=5", "max_node=", "max_node=1\nEND", "a=b c"):
        with pytest.raises(ValueError):
            parse_info([bad])


def test_extra_info_lines_reach_only_their_engine(tmp_path: Path) -> None:
    logs = {name: tmp_path / f"{name}.log" for name in ("one", "two")}
    players = []
    for label, name in (("engine1", "one"), ("engine2", "two")):
        script = tmp_path / f"{name}.py"
        script.write_text(
            "import sys\n"
            f"log = open({str(logs[name])!r}, 'w')\n"
            "for line in sys.stdin:\n"
            "    log.write(line)\n"
            "    log.flush()\n"
            "    if line.startswith('START'):\n"
            "        print('OK', flush=True)\n"
            "    elif line.startswith('END'):\n"
            "        break\n"
        )
        players.append(Player(label, [sys.executable, str(script)], name))
    players[1].info = [("max_node", "32000")]
    twin = players[1].twin()
    assert twin.info == [("max_node", "32000")] and twin.info is not players[1].info
    try:
        for player in players:
            _prepare(player, MatchSettings(time_ms=300))
    finally:
        for player in players:
            player.close()
    one, two = (logs[name].read_text().splitlines() for name in ("one", "two"))
    assert "INFO max_node 32000" in two
    assert two.index("INFO max_node 32000") > two.index("INFO timeout_turn 300")
    assert not any("max_node" in line for line in one)


def test_match_cli_refuses_a_forged_info_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "webapp.cli", "match", "--info2", "max_node=1\nSWAP2BOARD"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert done.returncode == 2
    assert "gomoku match:" in done.stderr and "INFO" in done.stderr
