"""Tasks: the rows of requirements on adventures, other worlds, monsters and the Ancient One.

A task is written in content as a short string, one token per symbol (docs/content-format.md):

    inv<N>          investigation dice whose values add up to at least N (surplus is wasted)
    lore peril terror        one die showing that face (a Wildcard may stand in)
    lore/peril      one die showing either face (a "split" symbol; any two of lore/peril/terror)
    clock           cost: advance the clock 3 hours, paid after the dice requirements are met
    sanity<N> stamina<N>     cost: lose N, paid after the dice; the task may not be attempted if the
                    cost would take the investigator to 0 or below (digest 1.5, "cost gate")
    [ ... ]         a monster border: `[]` alone is an empty monster slot, a whole bordered row is a total
                    slot, and a border around some symbols is a partial slot (digest 5.2)
"""

from __future__ import annotations

import re
from functools import cached_property
from typing import Literal

from pydantic import BaseModel, Field

Symbol = str  # "inv:N" | "lore" | "peril" | "terror" | "lore/peril" ...
FACE_SYMBOLS = ("lore", "peril", "terror")
_INV = re.compile(r"^inv(\d+)$")
_COST = re.compile(r"^(sanity|stamina)(\d+)$")


class Task(BaseModel):
    symbols: list[Symbol] = Field(default_factory=list)
    clock: int = 0  # number of 3-hour advances
    sanity: int = 0
    stamina: int = 0
    slot: Literal["none", "empty", "total", "partial"] = "none"
    bordered: list[int] = Field(default_factory=list)  # indices into symbols a monster replaces

    def text(self) -> str:
        """The task as players read it ("Inv 5, Lore, -1 sanity"). A task is not changed once made (content
        tasks are loaded once; a monster's presence makes a new one), so the text is worked out once."""
        return self._text

    @cached_property
    def _text(self) -> str:
        parts = []
        for i, s in enumerate(self.symbols):
            label = f"Inv {s[4:]}" if s.startswith("inv:") else s.replace("/", " or ").title()
            parts.append(f"[{label}]" if i in self.bordered else label)
        if self.slot == "empty":
            parts.append("[monster slot]")
        parts += ["Clock"] * self.clock
        if self.sanity:
            parts.append(f"-{self.sanity} sanity")
        if self.stamina:
            parts.append(f"-{self.stamina} stamina")
        return ", ".join(parts) or "—"

    def with_monster(self, monster: Task) -> Task:
        """The requirements while a monster marker sits in this task's slot (digest 5.2)."""
        if self.slot == "total":
            return monster.model_copy()
        kept = [s for i, s in enumerate(self.symbols) if i not in self.bordered]
        return Task(symbols=kept + monster.symbols, clock=self.clock + monster.clock,
                    sanity=self.sanity + monster.sanity, stamina=self.stamina + monster.stamina)

    def without_monster_part(self) -> Task:
        """Requirements after the slot's monster was defeated by an item or spell: the bordered part is
        ignored, the unbordered symbols of a partial slot still apply (digest 5.3)."""
        kept = [s for i, s in enumerate(self.symbols) if i not in self.bordered]
        if self.slot in ("empty", "total"):
            kept = []
        return Task(symbols=kept, clock=self.clock, sanity=self.sanity, stamina=self.stamina)


def parse_task(text: str) -> Task:
    """Parse the task grammar above; raise ValueError with a readable reason."""
    raw = text.replace("[", " [ ").replace("]", " ] ").split()
    task = Task()
    in_border = False
    opened = False
    for tok in raw:
        if tok == "[":
            if in_border or opened:
                raise ValueError("only one monster border per task")
            in_border = opened = True
            continue
        if tok == "]":
            if not in_border:
                raise ValueError("']' without '['")
            in_border = False
            continue
        tok = tok.lower()
        if m := _INV.match(tok):
            n = int(m.group(1))
            if not 1 <= n <= 30:
                raise ValueError(f"investigation value out of range: {tok}")
            sym = f"inv:{n}"
        elif tok in FACE_SYMBOLS:
            sym = tok
        elif "/" in tok:
            a, _, b = tok.partition("/")
            if a not in FACE_SYMBOLS or b not in FACE_SYMBOLS or a == b:
                raise ValueError(f"bad split symbol '{tok}'")
            sym = "/".join(sorted((a, b)))
        elif tok == "clock":
            if in_border:
                raise ValueError("costs cannot be inside a monster border")
            task.clock += 1
            continue
        elif m := _COST.match(tok):
            if in_border:
                raise ValueError("costs cannot be inside a monster border")
            setattr(task, m.group(1), getattr(task, m.group(1)) + int(m.group(2)))
            continue
        else:
            raise ValueError(f"unknown task symbol '{tok}'")
        if in_border:
            task.bordered.append(len(task.symbols))
        task.symbols.append(sym)
    if in_border:
        raise ValueError("'[' without ']'")
    if opened:
        if not task.symbols:
            task.slot = "empty"
        elif len(task.bordered) == len(task.symbols):
            task.slot = "total"
        else:
            task.slot = "partial"
    if not task.symbols and task.slot != "empty":
        raise ValueError("a task needs at least one die symbol")
    return task
