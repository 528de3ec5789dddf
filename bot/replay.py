"""Replays: a game exported in full (`/gm export full:True`) played again from its seed and its actions.

    miskatonic replay EXPORT --out DIR

re-renders the board after every phase (each step whose events ask for a picture, as the channel shows
them) into DIR, then an animation of the whole game (GIF, or APNG with `--format apng`). The replay also
checks that the actions reach what the export recorded (its step count and, for a game the rules ended, its
result): a build whose rules changed the game's course says so instead of drawing a different game. A bug
report's export replays the same way, and `tests/golden/` keeps such exports as regression tests.
"""

from __future__ import annotations

import io
import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine import api
from engine.core.errors import EngineError
from engine.core.events import Event
from engine.core.game import GameState, SeatSpec
from engine.core.prompt import Action

#: how long each frame of the animation shows, in milliseconds (the last one stays longer)
FRAME_MS = 900
LAST_FRAME_MS = 3000
#: the animation's frames are drawn at this fraction of the board's size (a whole game stays a few MB)
ANIMATION_SCALE = 0.5
ANIMATION_FORMATS = ("gif", "apng")


class ReplayError(Exception):
    """The export cannot be replayed, or its replay does not reach what it recorded (a sentence)."""


@dataclass
class Phase:
    """A step after which the channel shows the board (its events asked for a picture)."""

    step: int
    state: GameState
    events: list[Event]


@dataclass
class Outcome:
    """Where the replay ended, and what the export said it would."""

    state: GameState
    phases: int
    expected_step: int
    expected_result: str | None
    status: str
    problems: list[str] = field(default_factory=list)

    @property
    def matches(self) -> bool:
        return not self.problems


def load_export(path: Path) -> dict[str, Any]:
    """A full export as a dict; ReplayError with what to do when it is not one."""
    try:
        doc = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ReplayError(f"{path} is not a game export ({exc}).") from exc
    if not isinstance(doc, dict) or "game" not in doc:
        raise ReplayError(f"{path} is not a game export: it has no 'game'.")
    if "seed" not in doc or "actions" not in doc:
        raise ReplayError(f"{path} has no seed and no actions: it was exported without full. A moderator exports "
                          "a finished game with /gm export full:True.")
    return doc


def seats_of(doc: dict[str, Any]) -> list[SeatSpec]:
    return [SeatSpec(seat=i, name=s["name"], character=s.get("character")) for i, s in enumerate(doc["seats"])]


def phases(doc: dict[str, Any], *, upto: int | None = None) -> Iterator[Phase]:
    """Replay the export, yielding each phase end (the setup first when it asks for a picture), then the last
    state when it is not one. `upto` stops after that many actions."""
    try:
        state, events = api.new_game(doc["game"], seats_of(doc), doc.get("options") or {}, int(doc["seed"]))
    except EngineError as exc:
        raise ReplayError(f"The game cannot be set up again: {exc}") from exc
    version = doc.get("content_version") or state.content_version
    if version != state.content_version:
        raise ReplayError(f"The export was played with {doc['game']} content version {version}; this build sets "
                          f"games up with version {state.content_version}.")
    if any(e.render for e in events):
        yield Phase(state.step, state.model_copy(deep=True), events)
    actions = doc["actions"] if upto is None else doc["actions"][:upto]
    shown = state.step if any(e.render for e in events) else -1
    for number, row in enumerate(actions, 1):
        action = Action.model_validate({k: v for k, v in row.items() if k not in ("seq", "kind")})
        try:
            state, events = api.apply(state, action, in_place=True)
        except EngineError as exc:
            raise ReplayError(f"Action {number} of {len(doc['actions'])} no longer fits the game at step "
                              f"{state.step}: {exc} The rules (or the cards) changed since the export.") from exc
        if any(e.render for e in events):
            shown = state.step
            yield Phase(state.step, state.model_copy(deep=True), events)
    if shown != state.step:
        yield Phase(state.step, state, [])


def outcome(doc: dict[str, Any], last: GameState, count: int) -> Outcome:
    """Compare where the replay ended with what the export recorded."""
    result = Outcome(state=last, phases=count, expected_step=int(doc.get("step", last.step)),
                     expected_result=doc.get("result"), status=str(doc.get("status", "")))
    if last.step != result.expected_step:
        result.problems.append(f"the replay ends at step {last.step}, the export at step {result.expected_step}")
    if result.status == "over" and (not last.over or last.result != result.expected_result):
        got = last.result if last.over else "still in play"
        result.problems.append(f"the export ended in a {result.expected_result}, the replay in {got}")
    return result


def replay(doc: dict[str, Any], *, upto: int | None = None,
           draw: Callable[[Phase], None] | None = None) -> Outcome:
    """Replay an export (calling `draw` at each phase) and compare its end with the export's."""
    last: GameState | None = None
    count = 0
    for phase in phases(doc, upto=upto):
        count += 1
        last = phase.state
        if draw is not None:
            draw(phase)
    assert last is not None  # phases() always yields the last state
    if upto is not None and upto < len(doc["actions"]):
        return Outcome(state=last, phases=count, expected_step=last.step, expected_result=None, status="partial")
    return outcome(doc, last, count)


def animation(pngs: list[bytes], fmt: str = "gif", *, frame_ms: int = FRAME_MS,
              scale: float = ANIMATION_SCALE) -> bytes:
    """The boards as one animation: every frame on a canvas of the largest board's size, scaled."""
    from PIL import Image

    from bot.render.kit import Theme

    if fmt not in ANIMATION_FORMATS:
        raise ReplayError(f"The animation is a {' or '.join(ANIMATION_FORMATS)}, not {fmt}.")
    if not pngs:
        raise ReplayError("There is no picture to animate.")
    images = [Image.open(io.BytesIO(png)).convert("RGB") for png in pngs]
    width = max(i.width for i in images)
    height = max(i.height for i in images)
    size = (max(1, int(width * scale)), max(1, int(height * scale)))
    frames = []
    for image in images:
        canvas = Image.new("RGB", (width, height), Theme.BG)
        canvas.paste(image, (0, 0))
        frames.append(canvas.resize(size, Image.Resampling.LANCZOS) if size != (width, height) else canvas)
    durations = [frame_ms] * (len(frames) - 1) + [LAST_FRAME_MS]
    out = io.BytesIO()
    if fmt == "gif":
        # one palette for the whole game keeps colours steady from frame to frame
        palette = frames[-1].quantize(colors=255, method=Image.Quantize.MEDIANCUT)
        gif = [f.quantize(palette=palette, dither=Image.Dither.NONE) for f in frames]
        gif[0].save(out, format="GIF", save_all=True, append_images=gif[1:], duration=durations, loop=0,
                    optimize=False)
    else:
        frames[0].save(out, format="PNG", save_all=True, append_images=frames[1:], duration=durations, loop=0)
    return out.getvalue()


def replay_to(export: Path, out: Path, *, fmt: str = "gif", frame_ms: int = FRAME_MS, upto: int | None = None,
              write: Callable[[str], None] = print) -> int:
    """The `miskatonic replay` command: the phase pictures and the animation into `out`. Exit code 0 when the
    replay reached what the export recorded, 1 when it did not (the pictures show the replayed game)."""
    from bot.render import render_table

    doc = load_export(export)
    out.mkdir(parents=True, exist_ok=True)
    game = doc["game"]
    stem = f"{game}-{doc.get('game_id', 'replay')}"
    pngs: list[bytes] = []

    def draw(phase: Phase) -> None:
        png = render_table(game, api.view(phase.state, None))  # a spectator's view, as the channel saw it
        if png is None:
            return
        pngs.append(png)
        (out / f"{stem}-step{phase.step:05d}.png").write_bytes(png)

    result = replay(doc, upto=upto, draw=draw)
    if pngs:
        suffix = "gif" if fmt == "gif" else "png"
        target = out / f"{stem}-replay.{suffix}"
        target.write_bytes(animation(pngs, fmt, frame_ms=frame_ms))
        write(f"{len(pngs)} phase pictures and {target.name} written to {out}/.")
    summary = api.summary(result.state)
    write(f"Replayed {result.state.step} steps of {game}: {summary.headline}.")
    if not result.matches:
        write("The replay does NOT reach what the export recorded: " + "; ".join(result.problems) + ".")
        return 1
    if result.status != "partial":
        write("The replay reaches the recorded end" + (f" ({result.expected_result})." if result.expected_result
                                                        else "."))
    return 0
