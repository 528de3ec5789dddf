"""Eldritch Horror's read-only commands: an investigator's sheet (`/eh sheet`, `/game me`), a space of the
world map (`/eh map`) and any card's public face (`/eh card`).

They read the spectator's view (engine/eldritch/view.py) and the shipped content, so they show only what the
rules let everyone see: the fronts of Spells and Conditions, never their backs (digest 8).
"""

from __future__ import annotations

from typing import Any

from bot.games.dice_odds import faces_line, skill_lines
from bot.games.lookup import best, did_you_mean, echo, find_seated, listing
from engine.core.errors import IllegalAction
from engine.core.text import plural
from engine.eldritch.content import EldritchContent, content_of, default_content
from engine.eldritch.view import EldritchView, InvestigatorView, SpaceView, world_map

SKILL_ORDER = ("lore", "influence", "observation", "strength", "will")
#: how much of a card's text a sheet line shows (the whole text is one `/eh card` away)
SHEET_TEXT_MAX = 160


def _clip(text: str, limit: int = SHEET_TEXT_MAX) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


def space_label(space: SpaceView | Any) -> str:
    return f"space {space.name}" if space.name.isdigit() else space.name


def _space(view: EldritchView, space_id: str) -> SpaceView:
    return next(s for s in view.spaces if s.id == space_id)


def sheet_lines(view: EldritchView, me: InvestigatorView) -> list[str]:
    """One investigator's sheet: where, health and sanity, skills with improvements, tickets, Clues,
    possessions and Conditions by their fronts, the abilities, and what this round still allows."""
    marks = [m for m, on in (("Lead Investigator", me.lead), ("Delayed", me.delayed), ("defeated", me.defeated),
                             ("eliminated", me.eliminated)) if on]
    head = f"**{me.name or me.player}**" + (f", {me.occupation}" if me.occupation else "") + f" — {me.player}"
    lines = [head + (f" ({', '.join(marks)})" if marks else "")]
    if me.card is None or me.eliminated:
        lines.append("No investigator in play: a new one is chosen at the start of the next Mythos phase."
                     if me.card is None else "This investigator has left the game.")
        return lines
    lines.append(f"At {space_label(_space(view, me.space))} · Health {me.health}/{me.max_health} · "
                 f"Sanity {me.sanity}/{me.max_sanity} · Clues {me.clues} · "
                 f"Tickets: {me.train} train, {me.ship} ship")
    skills = []
    for skill in SKILL_ORDER:
        value = me.skills.get(skill, 0)
        up = me.improvements.get(skill, 0)
        skills.append(f"{skill.title()} {value}" + (f" (improved {up:+d})" if up else ""))
    lines.append("Skills: " + " · ".join(skills))
    if view.phase == "action" and me.actions_left and not me.defeated:
        lines.append(f"Actions left this turn: {me.actions_left}")
    lines.append(f"Ability: {_clip(me.ability)}")
    lines.append(_action_line(me.action))
    for title, faces in (("Possessions", me.possessions), ("Conditions", me.conditions)):
        if not faces:
            lines.append(f"{title}: none")
            continue
        lines.append(f"{title}:")
        lines += [f"- {f.name} ({f.kind}): {_clip(f.text)}" if f.text else f"- {f.name} ({f.kind})" for f in faces]
    return lines


def _action_line(text: str) -> str:
    """The sheet's action ability, labelled once (its text may already begin with "Action:")."""
    text = _clip(text)
    return text if text.casefold().startswith("action") else f"Action: {text}"


def seat_text(view: EldritchView, seat: int) -> list[str]:
    """`/game me` for Eldritch Horror: your sheet, then the state of the world in one line."""
    me = next((i for i in view.investigators if i.seat == seat), None)
    if me is None:
        return ["You have no seat in this game."]
    world = (f"{view.ancient_one.name}{' (awakened)' if view.awakened else ''}: doom {view.doom}, omen "
             f"{view.omen}; Mysteries solved {len(view.solved)}/{view.mysteries_needed}"
             + (f"; active: {view.mystery.name} ({view.mystery_progress})" if view.mystery else "")
             + f". Round {view.round}, {view.phase} phase.")
    return [*sheet_lines(view, me), world]


def find_investigator(view: EldritchView, query: str | None, asker: int | None) -> InvestigatorView:
    """The investigator `query` names: a seat ("seat:2"), a player's name or an investigator's name (or part
    of one); no query means the asker's own."""
    return find_seated(view.investigators, query, asker, lambda i: i.name, lambda i: i.card or "")


def sheet_text(view: EldritchView, query: str | None, asker: int | None) -> str:
    return "\n".join(sheet_lines(view, find_investigator(view, query, asker)))


# ------------------------------------------------------------------ the map


def find_space(version: str, query: str) -> str:
    """A space's id from its name, its number ("12", "space 12") or the real place it stands for."""
    spaces = world_map(version).spaces
    q = query.strip().casefold().removeprefix("space").strip()
    exact = [s for s in spaces if q in (s.id.casefold(), s.name.casefold())]
    hits = exact or best(query, spaces, lambda s: s.name if not s.name.isdigit() else f"space {s.name}",
                         lambda s: s.id) or best(query, spaces, lambda s: s.place)
    if len(hits) == 1:
        return hits[0].id
    names = [space_label(s) for s in hits]
    if not hits:
        near = did_you_mean(query, [s.name for s in spaces if not s.name.isdigit()])
        raise IllegalAction(f"No space is called '{echo(query)}'."
                            + (near or " Try a city's name or a space's number."))
    raise IllegalAction(f"'{echo(query)}' fits several spaces: {listing(names)}. Say more of the name.")


def map_text(view: EldritchView | None, query: str | None, asker: int | None) -> str:
    """One space: its type and region, its paths by kind, and (in a game) everything on it."""
    version = view.content_version if view is not None else default_content().version
    if not query:
        me = next((i for i in view.investigators if i.seat == asker), None) if view is not None else None
        if me is None or me.card is None:
            raise IllegalAction("Say which space: a city's name or a space's number (London, 12).")
        space_id = me.space
    else:
        space_id = find_space(version, query)
    board = world_map(version)
    here = next(s for s in board.spaces if s.id == space_id)
    kind = here.type + (f", {here.region.replace('_', ' & ').title()}" if here.region else "")
    lines = [f"**{space_label(here)}** ({kind})" + (f" — {here.place}" if here.place else "")]
    by_name = {s.id: space_label(s) for s in board.spaces}
    for path in ("train", "ship", "uncharted"):
        ends = sorted(by_name[p.b if p.a == space_id else p.a] for p in board.paths
                      if path == p.type and space_id in (p.a, p.b))
        if ends:
            lines.append(f"{path.title()} paths to: {', '.join(ends)}")
    if here.gate_colour:
        lines.append(f"A Gate can open here ({here.gate_colour} omen).")
    if here.expedition:
        lines.append("Expeditions may be sent here.")
    if view is None:
        return "\n".join(lines)
    on = _space(view, space_id)
    contents = []
    if on.gate:
        contents.append(f"an open {on.gate} Gate")
    monsters = [m for m in view.monsters if m.space == space_id]
    for m in monsters:
        wounds = f", {m.damage} damage on it" if m.damage else ""
        contents.append(f"{'Epic Monster ' if m.epic else ''}{m.name} (toughness {m.toughness}{wounds})")
    if on.clues:
        contents.append(plural(on.clues, "Clue"))
    if on.rumor:
        contents.append(f"the rumor {on.rumor}")
    if on.expedition:
        contents.append("the active expedition")
    contents += [f"{name}, defeated" for name in on.defeated]
    contents += [f"{i.name} ({i.player})" for i in view.investigators
                 if i.space == space_id and i.card and not i.eliminated and not i.defeated]
    lines.append("Here now: " + ("; ".join(contents) if contents else "nothing"))
    return "\n".join(lines)


# ------------------------------------------------------------------ cards


def _card_tables(c: EldritchContent) -> list[tuple[str, dict[str, Any]]]:
    """The cards whose faces anyone may read. Encounter decks stay out: their cards are read when drawn."""
    return [("investigator", c.investigators), ("Ancient One", c.ancient_ones), ("Monster", c.monsters),
            ("Asset", c.assets), ("Artifact", c.artifacts), ("Spell", c.spells), ("Condition", c.conditions),
            ("Mythos", c.mythos), ("Mystery", c.mysteries)]


def _card_lines(kind: str, card: Any) -> list[str]:
    lines = [f"**{card.name}** ({kind})"]
    if kind == "investigator":
        skills = " · ".join(f"{s.title()} {card.skills[s]}" for s in SKILL_ORDER)
        lines += [f"{card.occupation}. Health {card.health}, Sanity {card.sanity}. {skills}.",
                  f"Ability: {card.passive.text}", _action_line(card.action_text)]
        return lines
    if card.text:
        lines.append(card.text)
    if kind == "Monster" and card.cultist:
        lines.append("Its tests, horror, damage and toughness are on the Ancient One's sheet.")
    elif kind == "Monster":
        stats = []
        if card.will_mod is not None:
            stats.append(f"Will test {card.will_mod:+d}, horror {card.horror}")
        if card.strength_mod is not None:
            stats.append(f"Strength test {card.strength_mod:+d}, damage {card.damage}")
        tough = f"toughness {card.toughness}" + (" + 1 per investigator" if card.per_investigator else "")
        lines.append("; ".join([*stats, tough]) + (f"; resists {card.resist} damage" if card.resist else "")
                     + ("; Epic" if card.epic else ""))
    elif kind == "Asset":
        lines.append(f"Cost {card.cost}." + (f" Traits: {', '.join(card.traits)}." if card.traits else ""))
    elif kind == "Mythos":
        lines.append(f"{card.color.title()} {card.kind} card, {card.difficulty}.")
    elif kind == "Ancient One":
        lines.append(f"Doom starts at {card.doom}; {card.mysteries} Mysteries to solve.")
    elif kind in ("Spell", "Condition"):
        lines.append("(Its back stays hidden until the card tells you to flip it.)")
    return lines


def card_text(query: str, view: EldritchView | None = None, asker: int | None = None) -> str:
    """Any public card by its name or part of it; among equal matches your own cards, then the cards in
    play, come first. A name that fits several cards equally well lists them instead of guessing."""
    c = content_of(view.content_version) if view is not None else default_content()
    own: set[str] = set()
    in_play: set[str] = set()
    if view is not None:
        me = next((i for i in view.investigators if i.seat == asker), None)
        if me is not None:
            own = {me.card or "", *(f.id for f in me.possessions), *(f.id for f in me.conditions)}
        in_play = {view.ancient_one.id, *(f.id for f in view.ongoing), *(f.id for f in view.reserve),
                   *(m.kind for m in view.monsters), *([view.mystery.id] if view.mystery else [])}
    cards = [(kind, card) for kind, table in _card_tables(c) for card in table.values()]
    hits = best(query, cards, lambda kc: kc[1].name, lambda kc: kc[1].id,
                lambda kc: 0 if kc[1].id in own else 1 if kc[1].id in in_play else 2)
    distinct = {card.name: (kind, card) for kind, card in hits}  # copies of one card read the same
    if not distinct:
        raise IllegalAction(f"No Eldritch Horror card is called '{echo(query)}'."
                            f"{did_you_mean(query, [card.name for _, card in cards])}")
    if len(distinct) > 1:
        raise IllegalAction(f"Several cards match '{echo(query)}': {listing(list(distinct))}. Say more of the name.")
    kind, card = next(iter(distinct.values()))
    return "\n".join(_card_lines(kind, card))


# ------------------------------------------------------------------ odds


def odds_text(view: EldritchView, query: str | None, asker: int | None) -> str:
    """`/eh odds`: each skill's dice and the chance of 1, 2 or 3 successes (5s and 6s; a Blessing adds 4s, a
    Curse leaves only 6s; Rulebook, "Tests"), then with every Clue spent on a reroll (one die each), before the
    bonuses a card or a test's own modifier may add."""
    me = find_investigator(view, query, asker)
    if me.card is None:
        raise IllegalAction(f"{me.player} has no investigator in play.")
    held = {c.name.casefold() for c in me.conditions}
    blessed, cursed = any("bless" in n for n in held), any("curse" in n for n in held)
    faces = 3 if blessed and not cursed else 1 if cursed and not blessed else 2
    why = ["blessed"] if faces == 3 else ["cursed"] if faces == 1 else []
    spend = f"your {me.clues} Clue{'s' if me.clues != 1 else ''}"
    lines = [f"**{me.name}**: your chances in a test, before cards and the test's own modifier.",
             faces_line(faces, why),
             *skill_lines(me.skills, {}, faces, me.clues, spend)]
    return "\n".join(lines)
