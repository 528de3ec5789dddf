"""Help for every slash command, read from the Discord cogs themselves, so the console's `help /es task`
and Discord's command picker say the same thing and a new argument needs one description, not two.

Only class attributes of the cogs are read (no bot, no connection): each GroupCog lists its commands, and
each command its parameters with the descriptions given by `app_commands.describe`. A plain Cog's commands
are top-level (`/rules`): each is its own "group" with the empty command name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from typing import Any

#: the cogs of the commands every game shares, as the bot loads them (bot/bot.py's BASE_EXTENSIONS); each game's
#: own cog comes from its bot manifest
SHARED_COGS = ("bot.cogs.lobby", "bot.cogs.moderation", "bot.cogs.table_talk", "bot.cogs.campaign")


@dataclass(frozen=True)
class Param:
    name: str
    description: str
    required: bool
    default: Any  # None when there is none worth showing

    def line(self) -> str:
        if self.required:
            when = "required"
        elif self.default not in (None, False, ""):
            when = f"optional, default {self.default}"
        else:
            when = "optional"
        return f"{self.name}:<value>  ({when}) {self.description}"


@dataclass(frozen=True)
class CommandHelp:
    group: str
    name: str
    description: str
    params: tuple[Param, ...]

    @property
    def path(self) -> str:
        return f"/{self.group} {self.name}".rstrip()

    def text(self) -> str:
        """Several lines: the command, what it does, then each argument."""
        lines = [f"{self.path}: {self.description}"]
        for p in self.params:
            lines.append(f"    {p.line()}")
        if not self.params:
            lines.append("    (no arguments)")
        return "\n".join(lines)


def _cog_modules() -> list[str]:
    from bot.games.manifest import bot_games

    return [*SHARED_COGS, *(g.cog for g in bot_games().values() if g.cog)]


def _cog_class(module: str) -> Any:
    from discord.ext import commands

    mod = importlib.import_module(module)
    return next(v for v in vars(mod).values()
                if isinstance(v, type) and issubclass(v, commands.Cog) and v.__module__ == module)


@cache
def catalog() -> dict[tuple[str, str], CommandHelp]:
    """(group, command) -> its help, for every slash command of the bot."""
    out: dict[tuple[str, str], CommandHelp] = {}
    for module in _cog_modules():
        cog = _cog_class(module)
        grouped = cog.__cog_is_app_commands_group__
        for command in cog.__cog_app_commands__:
            params = tuple(Param(p.name, p.description, p.required, None if p.required else p.default)
                           for p in command.parameters)
            group, name = (cog.__cog_group_name__, command.name) if grouped else (command.name, "")
            out[(group, name)] = CommandHelp(group, name, command.description, params)
    return out


@cache
def groups() -> dict[str, str]:
    """group -> its description (a top-level command is a group of its own)."""
    out: dict[str, str] = {}
    for module in _cog_modules():
        cog = _cog_class(module)
        if cog.__cog_is_app_commands_group__:
            out[cog.__cog_group_name__] = cog.__cog_group_description__
        else:
            out.update({c.name: c.description for c in cog.__cog_app_commands__})
    return out


def group_text(group: str) -> str | None:
    """Every command of a group, one line each; None for an unknown group."""
    if group not in groups():
        return None
    if (group, "") in catalog():
        return catalog()[(group, "")].text()
    lines = [f"/{group}: {groups()[group]}"]
    for (g, _name), h in catalog().items():
        if g == group:
            args = " ".join(f"{p.name}:" if p.required else f"[{p.name}:]" for p in h.params)
            lines.append(f"  {h.path} {args}".rstrip() + f"  — {h.description}")
    lines.append(f"'help /{group} <command>' describes each argument.")
    return "\n".join(lines)
