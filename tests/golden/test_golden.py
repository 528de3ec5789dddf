"""Golden replays: every full export kept here is played again from its seed and actions on every test run,
and must reach what it recorded (its step count and its result; with a `.expected.json` beside it, also its
round and its headline). A change of the rules or the cards that alters one of these games fails here;
re-record only on purpose (README.md beside this file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.replay import load_export, replay
from engine import api

HERE = Path(__file__).resolve().parent
EXPORTS = sorted(p for p in HERE.glob("*.json") if not p.name.endswith(".expected.json"))


def test_the_golden_elder_sign_game_is_kept() -> None:
    """A complete Elder Sign game (to the final battle and its end) is among the golden replays."""
    games = {p.name: load_export(p) for p in EXPORTS}
    assert "elder-sign-golden.json" in games
    golden = games["elder-sign-golden.json"]
    assert golden["game"] == "elder-sign" and golden["status"] == "over" and golden["result"] in ("win", "loss")


@pytest.mark.parametrize("export", EXPORTS, ids=[p.stem for p in EXPORTS])
def test_replay_reaches_the_recorded_end(export: Path) -> None:
    doc = load_export(export)
    result = replay(doc)
    assert result.matches, f"{export.name}: " + "; ".join(result.problems)
    expected_file = export.with_name(f"{export.stem}.expected.json")
    if expected_file.exists():
        expected = json.loads(expected_file.read_text(encoding="utf-8"))
        summary = api.summary(result.state)
        reached = {"step": result.state.step, "result": result.state.result, "round": summary.round,
                   "headline": summary.headline, "phases": result.phases}
        assert reached == expected, f"{export.name} no longer plays out as recorded"
