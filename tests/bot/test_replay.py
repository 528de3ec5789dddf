"""Replays (issue 16, item 5): a full export (`/gm export full:True`, bot/service.py) played again from its
seed and actions, its phase pictures and an animation written by `miskatonic replay`, and a replay that no
longer reaches the recorded end reported as such."""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.cli import main
from bot.replay import ReplayError, animation, load_export, phases, replay
from bot.service import GameService
from engine import api
from tests.bot.conftest import ALICE, BOB, CHANNEL, MOD
from tests.bot.helpers import clicking, only_card, open_table

GOLDEN = Path(__file__).resolve().parents[1] / "golden" / "elder-sign-golden.json"


async def _finished_export(service: GameService) -> dict[str, Any]:
    """A Countdown game (start 6) played to its win through the service, exported in full."""
    await open_table(service, ALICE, BOB, options={"start": "6"})
    for who, take in ((ALICE, "3"), (BOB, "pass"), (ALICE, "2"), (BOB, "1")):
        await service.choose(CHANNEL, clicking(who), (await only_card(service)).prompt.seq, [take])
    reply = await service.gm_export(CHANNEL, MOD, full=True)
    return dict(json.loads(reply.files[0].data))


async def test_a_full_export_replays_to_its_recorded_end(service: GameService) -> None:
    doc = await _finished_export(service)
    assert (doc["status"], doc["result"], doc["step"]) == ("over", "win", 4)
    result = replay(doc)
    assert result.matches and result.state.result == "win" and result.state.step == 4
    # the setup and every turn asked for a picture (countdown's turn.ended events render)
    assert [p.step for p in phases(doc)] == [0, 1, 2, 3, 4]
    assert result.phases == 5


async def test_a_replay_that_changes_course_is_reported(service: GameService) -> None:
    doc = await _finished_export(service)
    other_result = dict(doc, result="loss")
    assert replay(other_result).problems == ["the export ended in a loss, the replay in win"]
    fewer = dict(doc, actions=doc["actions"][:-1])
    assert "the replay ends at step 3, the export at step 4" in replay(fewer).problems
    broken = copy.deepcopy(doc)
    broken["actions"][0]["choice"] = ["7"]  # not an option: the rules changed under this game
    with pytest.raises(ReplayError, match="Action 1 of 4 no longer fits the game at step 0"):
        replay(broken)
    with pytest.raises(ReplayError, match="content version 0; this build sets games up with version 1"):
        replay(dict(doc, content_version="0"))


def test_a_public_export_cannot_be_replayed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    public = tmp_path / "public.json"
    public.write_text(json.dumps({"game": "elder-sign", "state": {}, "log": []}), encoding="utf-8")
    with pytest.raises(ReplayError, match="exported without full. A moderator exports"):
        load_export(public)
    assert main(["replay", str(public), "--out", str(tmp_path / "out")]) == 2
    assert "exported without full" in capsys.readouterr().err


def test_replay_command_writes_every_phase_and_an_animation(tmp_path: Path,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "replay"
    assert main(["replay", str(GOLDEN), "--out", str(out), "--upto", "30"]) == 0
    pictures = sorted(out.glob("elder-sign-*-step*.png"))
    doc = load_export(GOLDEN)
    expected = [p.step for p in phases(doc, upto=30)]
    assert [int(p.stem.rsplit("step", 1)[1]) for p in pictures] == expected and expected[0] == 0
    gif = Image.open(out / f"elder-sign-{doc['game_id']}-replay.gif")
    assert gif.n_frames == len(pictures)
    sizes = [Image.open(p).size for p in pictures]  # the animation's canvas is the largest board's
    width, height = max(w for w, _ in sizes), max(h for _, h in sizes)
    assert gif.size == (width // 2, height // 2)  # scaled: a whole game stays small
    assert "phase pictures and" in capsys.readouterr().out


def test_apng_animation_keeps_every_frame() -> None:
    frames = []
    for shade in (40, 120, 200):
        buf = io.BytesIO()
        Image.new("RGB", (80, 60), (shade, shade, shade)).save(buf, format="PNG")
        frames.append(buf.getvalue())
    apng = Image.open(io.BytesIO(animation(frames, "apng", scale=1.0)))
    assert apng.format == "PNG" and getattr(apng, "n_frames", 1) == 3 and apng.size == (80, 60)
    with pytest.raises(ReplayError, match="gif or apng"):
        animation(frames, "webm")


def test_the_replayed_golden_game_matches_the_engine_directly() -> None:
    """`api.replay` (the engine's own) and the export's replay agree, step for step."""
    doc = load_export(GOLDEN)
    from bot.replay import seats_of
    from engine.core.prompt import Action

    actions = [Action.model_validate({k: v for k, v in a.items() if k not in ("seq", "kind")})
               for a in doc["actions"]]
    direct, _ = api.replay(doc["game"], seats_of(doc), doc["options"], doc["seed"], actions)
    assert api.to_json(direct) == api.to_json(replay(doc).state)
