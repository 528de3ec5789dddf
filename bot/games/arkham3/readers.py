"""Arkham Horror 3e's read-only commands: an investigator's sheet (`/ah sheet`, `/game me`), a space of the
town (`/ah map`) and a card (`/ah card`). They read the spectator's view (engine/arkham3/view.py), which
shows a Dark Pact only by its public face, to everyone including its holder (digest 14.4)."""

from __future__ import annotations

from typing import Any

from bot.games.dice_odds import faces_line, skill_lines
from bot.games.lookup import best, did_you_mean, echo, find_seated, listing
from engine.arkham3.board import SKILL_NAMES
from engine.arkham3.content import default_content
from engine.arkham3.view import ArkhamView, InvestigatorView, SpaceView
from engine.core.errors import IllegalAction
from engine.core.text import plural

SKILL_ORDER = ("lore", "influence", "observation", "strength", "will")
TEXT_MAX = 160


def _clip(text: str, limit: int = TEXT_MAX) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _space_name(view: ArkhamView, space_id: str | None) -> str:
    return next((s.name for s in view.spaces if s.id == space_id), space_id or "nowhere")


def sheet_lines(view: ArkhamView, me: InvestigatorView) -> list[str]:
    """Skills with focus, health and sanity with damage and horror, money, clues, remnants, assets, engaged
    monsters and conditions (public faces)."""
    marks = [m for m, on in (("leader", view.leader == me.seat), ("delayed", me.delayed),
                             ("has acted", me.acted and view.phase == "action")) if on]
    if me.name is None:
        return [f"**{me.player}**: no investigator in play ({me.status})."]
    lines = [f"**{me.name}**, {me.occupation} — {me.player}" + (f" ({', '.join(marks)})" if marks else "")]
    if me.status != "playing":
        lines.append(f"Status: {me.status}.")
    lines.append(f"In {_space_name(view, me.space)} · Health {me.health - me.damage}/{me.health} "
                 f"({me.damage} damage) · Sanity {me.sanity - me.horror}/{me.sanity} ({me.horror} horror)")
    lines.append(f"${me.money} · {plural(me.clues, 'clue')} · {plural(me.remnants, 'remnant')}")
    skills = []
    for skill in SKILL_ORDER:
        focused = me.focus.count(skill)
        skills.append(f"{skill.title()} {me.skills.get(skill, 0)}" + (" (focused)" if focused else ""))
    lines.append("Skills: " + " · ".join(skills) + f" — focus {len(me.focus)}/{me.focus_limit}")
    if me.ability:
        lines.append(f"Ability: {_clip(me.ability)}")
    engaged = [m for m in view.monsters if me.seat in m.engaged]
    if engaged:
        lines.append("Engaged with: " + ", ".join(f"{m.name} ({m.health - m.damage} health left)" for m in engaged))
    if me.assets:
        lines.append("Assets:")
        for a in me.assets:
            held = "".join(f", {n} {what} on it" for n, what in ((a.damage, "damage"), (a.horror, "horror")) if n)
            lines.append(f"- {a.name} ({a.kind}{held}): {_clip(a.text)}")
    else:
        lines.append("Assets: none")
    lines.append("Conditions: " + (", ".join(me.conditions) if me.conditions else "none"))
    return lines


def seat_text(view: ArkhamView, seat: int) -> list[str]:
    """`/game me` for Arkham Horror 3e: your sheet, then the scenario's state in one line."""
    me = next((i for i in view.investigators if i.seat == seat), None)
    if me is None:
        return ["You have no seat in this game."]
    return [*sheet_lines(view, me),
            f"{view.scenario}: doom {view.sheet_doom} on the sheet, {view.board_doom} on the board; "
            f"{plural(view.sheet_clues, 'clue')} on the sheet. "
            f"Round {view.round}, {view.phase} phase."]


def find_investigator(view: ArkhamView, query: str | None, asker: int | None) -> InvestigatorView:
    """The investigator `query` names: a seat ("seat:2"), a player's name or an investigator's name (or part
    of one); no query means the asker's own."""
    return find_seated(view.investigators, query, asker, lambda i: i.name or "")


def sheet_text(view: ArkhamView, query: str | None, asker: int | None) -> str:
    return "\n".join(sheet_lines(view, find_investigator(view, query, asker)))


def _find_space(view: ArkhamView, query: str) -> SpaceView:
    hits = best(query, view.spaces, lambda s: s.name, lambda s: s.id)
    if len(hits) == 1:
        return hits[0]
    if not hits:
        near = did_you_mean(query, [s.name for s in view.spaces])
        raise IllegalAction(f"No space of this scenario is called '{echo(query)}'." + (near or " Spaces: "
                            f"{listing(sorted(s.name for s in view.spaces))}."))
    raise IllegalAction(f"'{echo(query)}' fits several spaces: {listing([s.name for s in hits])}.")


def map_text(view: ArkhamView, query: str | None, asker: int | None) -> str:
    """A space of the town: its neighborhood or street, what it adjoins, and everything on it."""
    if not query:
        me = next((i for i in view.investigators if i.seat == asker), None)
        if me is None or me.space is None:
            raise IllegalAction("Say which space: space:<name>.")
        space = next(s for s in view.spaces if s.id == me.space)
    else:
        space = _find_space(view, query)
    hood = next((n for n in view.neighborhoods if n.id == space.neighborhood), None)
    where = f"{hood.name} neighborhood" if hood else f"{space.street or 'a'} street"
    lines = [f"**{space.name}** ({where})", "Adjacent: " + ", ".join(sorted(_space_name(view, a)
                                                                            for a in space.adjacent))]
    if hood is not None:
        lines.append(f"{hood.name}: {plural(hood.clues, 'clue')}"
                     + (", an anomaly" if hood.anomaly else ""))
    here = []
    if space.sealed:
        here.append("a seal (no doom is placed here)")
    if space.doom:
        here.append(f"{space.doom} doom")
    by_uid = {m.uid: m for m in view.monsters}
    for uid in space.monsters:
        m = by_uid[uid]
        here.append(f"{'epic ' if m.epic else ''}{m.name} ({m.status}, {m.health - m.damage}/{m.health} health)")
    by_seat = {i.seat: i for i in view.investigators}
    here += [f"{by_seat[s].name} ({by_seat[s].player})" for s in space.investigators if s in by_seat]
    lines.append("Here now: " + ("; ".join(here) if here else "nothing"))
    return "\n".join(lines)


def readable_cards() -> list[tuple[str, Any]]:
    """The cards whose faces anyone may read: investigators, assets, monsters. Encounters, events, headlines
    and archive cards stay out: they are read when they come into play."""
    c = default_content()
    return [*(("investigator", x) for x in c.investigators.values()), *(("asset", x) for x in c.assets.values()),
            *(("monster", x) for x in c.monsters.values())]


def card_text(query: str) -> str:
    hits = best(query, readable_cards(), lambda kc: kc[1].name, lambda kc: kc[1].id)
    distinct = {card.name: (kind, card) for kind, card in hits}
    if not distinct:
        near = did_you_mean(query, [card.name for _, card in readable_cards()])
        raise IllegalAction(f"No Arkham Horror card is called '{echo(query)}'.{near}")
    if len(distinct) > 1:
        raise IllegalAction(f"Several cards match '{echo(query)}': {listing(list(distinct))}. Say more of the name.")
    return "\n".join(card_lines(*next(iter(distinct.values()))))


def card_lines(kind: str, card: Any) -> list[str]:
    """A card's reference text: its name and kind, its numbers, its text."""
    lines = [f"**{card.name}** ({kind if kind != 'asset' else card.kind})"]
    if kind == "investigator":
        skills = " · ".join(f"{s.title()} {card.skills[s]}" for s in SKILL_ORDER)
        lines += [f"{card.occupation}. Health {card.health}, Sanity {card.sanity}, focus limit "
                  f"{card.focus_limit}. {skills}.", f"Ability: {card.ability_text}"]
    elif kind == "monster":
        lines.append(f"Attack {card.attack:+d}, evade {card.evade:+d}, health {card.health}, damage "
                     f"{card.damage}, horror {card.horror}, speed {card.speed}"
                     + (f"; {', '.join(card.keywords)}" if card.keywords else "") + ".")
        lines.append(f"Activation: {card.activation.text}")
        if getattr(card, "text", ""):
            lines.append(card.text)
    else:
        if card.kind == "item":
            lines.append(f"Price ${card.value}." + (f" Hands: {card.hands}." if card.hands else ""))
        lines.append(card.text)
    return [line for line in lines if line]


# ------------------------------------------------------------------ odds


def odds_text(view: ArkhamView, query: str | None, asker: int | None) -> str:
    """`/ah odds`: each skill's dice (a focused skill rolls one more) and the chance of 1, 2 or 3 successes
    (5s and 6s; blessed adds 4s, cursed leaves only 6s; rules summary, "Skill Tests"), then with every focus
    token and clue spent on a reroll (one die each), before the bonuses of cards and the test's own modifier."""
    me = find_investigator(view, query, asker)
    if me.name is None:
        raise IllegalAction(f"{me.player} has no investigator in play.")
    held = {c.casefold() for c in me.conditions}
    faces = 1 if "cursed" in held else 3 if "blessed" in held else 2
    why = ["cursed"] if faces == 1 else ["blessed"] if faces == 3 else []
    rerolls = len(me.focus) + me.clues
    parts = [f"{len(me.focus)} focus" if me.focus else "", f"{me.clues} clue{'s' if me.clues != 1 else ''}"
             if me.clues else ""]
    spend = "your " + " and ".join(p for p in parts if p)
    skills = {s: v + (1 if s in me.focus else 0) for s, v in me.skills.items()}
    names = {s: n for s, n in SKILL_NAMES.items()}
    lines = [f"**{me.name}**: your chances in a test, before cards and the test's own modifier.",
             faces_line(faces, why), *skill_lines(skills, names, faces, rerolls, spend)]
    return "\n".join(lines)
