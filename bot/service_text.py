"""Words: how GameService turns events, views and prompts into messages people read."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any

from engine.core.game import Summary
from engine.core.prompt import Prompt
from engine.core.text import listed

MESSAGE_LIMIT = 1900  # Discord allows 2000 characters; leave room for a front end's prefix


def chunk_lines(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """Join lines into as few messages as fit under `limit` (an over-long line is cut, never lost silently)."""
    messages: list[str] = []
    current = ""
    for line in lines:
        if len(line) > limit:
            line = line[: limit - 1] + "…"
        if current and len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        messages.append(current)
    return messages


def state_line(summary: Summary, *, round_word: str = "round", phase_word: str = "phase") -> str:
    """The game at a glance, one line every game writes the same way: the round and phase, then the facts the
    game gives (whose turn, the clock). `phase_word` is "" for a game whose phases are not called phases."""
    parts = [f"{round_word.capitalize()} {summary.round}"] if summary.round > 0 else []
    phase = summary.phase.replace("_", " ").strip()
    if phase and phase not in ("over", "setup"):
        parts.append(f"{phase.capitalize()} {phase_word}".strip())
    parts += summary.facts
    return " · ".join(parts)


def join_names(names: Sequence[str]) -> str:
    return listed(list(names), "nobody")


def prompt_text(prompt: Prompt, seat_names: Sequence[str]) -> str:
    text = f"Waiting for {join_names(seat_names)}: {prompt.title}"
    if prompt.reason:
        text += f" ({prompt.reason})"
    return text


def format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, str | int | float) or value is None:
        return "—" if value is None else str(value)
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


def format_view(view: dict[str, Any]) -> list[str]:
    return [f"{key.replace('_', ' ')}: {format_value(value)}" for key, value in view.items()]


RESULT_WORDS = {
    "win": "The investigators won!",
    "loss": "The investigators lost.",
    "ended": "A moderator ended the game.",
    "abandoned": "The table abandoned the game.",
}


def result_sentence(result: str | None) -> str:
    return RESULT_WORDS.get(result or "", f"The game is over ({result}).")
