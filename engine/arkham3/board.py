"""The map (digest 2.1) and read-only helpers over the state: content lookup, the space graph, shortest
paths, who and what is where, monster statistics, the unstable space.

The map is a graph of spaces: neighborhood spaces (`<tile>.<space>`) and street spaces (`street.<slug>`),
with undirected borders from the tiles (inner borders) and the scenario (links), plus any archive map change
already in play. A tile's central area is not a space: clues and the anomaly token sit on the tile.
"""

from __future__ import annotations

from collections import deque
from functools import lru_cache

from engine.arkham3.content import ArchiveCard, AssetCard, Content, MonsterCard, ScenarioPack, Street, content_of
from engine.arkham3.state import ArkhamState, Inv, Monster

SKILL_NAMES = {"lore": "Lore", "influence": "Influence", "observation": "Observation", "strength": "Strength",
               "will": "Will"}


def content(state: ArkhamState) -> Content:
    return content_of(state.content_version)


def scenario(state: ArkhamState) -> ScenarioPack:
    return content(state).scenarios[state.scenario]


# ---------------------------------------------------------------- the graph

class Graph:
    """One map's spaces, borders and all shortest distances (small maps: BFS from every space once)."""

    def __init__(self, c: Content, tiles: tuple[str, ...], streets: tuple[Street, ...],
                 links: tuple[tuple[str, str], ...]) -> None:
        self.names: dict[str, str] = {}
        self.tile_of: dict[str, str | None] = {}
        self.street_type: dict[str, str] = {}
        self.adj: dict[str, list[str]] = {}
        for t in tiles:
            tile = c.tiles[t]
            for s in tile.spaces:
                sid = f"{t}.{s.id}"
                self.names[sid] = s.name
                self.tile_of[sid] = t
                self.adj[sid] = []
            for a, b in tile.adjacent:
                self._link(f"{t}.{a}", f"{t}.{b}")
        for st in streets:
            self.names[st.id] = st.name
            self.tile_of[st.id] = None
            self.street_type[st.id] = st.type
            self.adj[st.id] = []
        for a, b in links:
            self._link(a, b)
        for k in self.adj:
            self.adj[k].sort()
        self.spaces = sorted(self.adj)
        self.dist: dict[str, dict[str, int]] = {s: self._bfs(s) for s in self.spaces}

    def _link(self, a: str, b: str) -> None:
        if b not in self.adj[a]:
            self.adj[a].append(b)
            self.adj[b].append(a)

    def _bfs(self, start: str) -> dict[str, int]:
        out = {start: 0}
        q = deque([start])
        while q:
            cur = q.popleft()
            for n in self.adj[cur]:
                if n not in out:
                    out[n] = out[cur] + 1
                    q.append(n)
        return out

    def distance(self, a: str, b: str) -> int:
        return self.dist[a].get(b, 999)

    def step_toward(self, a: str, b: str) -> str:
        """The next space on a shortest path from a to b ([GAP] among equal paths: the first by space id)."""
        d = self.distance(a, b)
        for n in self.adj[a]:
            if self.distance(n, b) == d - 1:
                return n
        return a

    def spaces_of(self, tile: str) -> list[str]:
        return [s for s in self.spaces if self.tile_of[s] == tile]


@lru_cache(maxsize=64)
def _graph(version: str, scenario_id: str, changes: tuple[int, ...]) -> Graph:
    c = content_of(version)
    pack = c.scenarios[scenario_id]
    sc = pack.sheet
    tiles, streets, links = list(sc.neighborhoods), list(sc.streets), list(sc.links)
    for n in changes:
        change = pack.archive[n].map
        assert change is not None
        tiles += [t for t in change.neighborhoods if t not in tiles]
        streets += change.streets
        links += change.links
    return Graph(c, tuple(tiles), tuple(streets), tuple(links))


def graph(state: ArkhamState) -> Graph:
    """The map now: the scenario sheet's, plus every archive map change in play (digest 9, adding a tile)."""
    return _graph(state.content_version, state.scenario, tuple(state.map_changes))


def is_street(space: str) -> bool:
    return space.startswith("street.")


def tile_of(state: ArkhamState, space: str) -> str | None:
    return graph(state).tile_of.get(space)


def space_name(state: ArkhamState, space: str | None) -> str:
    if space is None:
        return "nowhere"
    return graph(state).names.get(space, space)


def tile_doom(state: ArkhamState, tile: str) -> int:
    return sum(n for s, n in state.doom.items() if tile_of(state, s) == tile)


def board_doom(state: ArkhamState) -> int:
    return sum(state.doom.values())


def unstable(state: ArkhamState) -> list[str]:
    """The doom-icon spaces of the top card of the event discard; the starting space if it is empty (2.1)."""
    if not state.event_discard:
        return [scenario(state).sheet.start]
    card = scenario(state).events[state.event_discard[-1]]
    on_map = [s for s in card.doom if s in graph(state).adj]
    return on_map or [scenario(state).sheet.start]


# ---------------------------------------------------------------- investigators

def inv(state: ArkhamState, seat: int) -> Inv:
    i = state.table[seat].inv
    assert i is not None, f"seat {seat} has no investigator"
    return i


def has_inv(state: ArkhamState, seat: int | None) -> bool:
    return seat is not None and 0 <= seat < len(state.table) and state.table[seat].inv is not None \
        and state.table[seat].inv.space is not None  # type: ignore[union-attr]


def player_order(state: ArkhamState) -> list[int]:
    """The leader first, then clockwise (digest 'player order')."""
    n = len(state.table)
    return [(state.leader + k) % n for k in range(n)]


def on_board(state: ArkhamState) -> list[int]:
    return [s for s in player_order(state) if has_inv(state, s)]


def at(state: ArkhamState, space: str) -> list[int]:
    return [s for s in on_board(state) if inv(state, s).space == space]


def who(state: ArkhamState, seat: int | None) -> str:
    if seat is None:
        return "The investigators"
    i = state.table[seat].inv
    if i is None:
        return state.seat_name(seat)
    return content(state).investigators[i.card].name


def max_health(state: ArkhamState, seat: int) -> int:
    return content(state).investigators[inv(state, seat).card].health


def max_sanity(state: ArkhamState, seat: int) -> int:
    return content(state).investigators[inv(state, seat).card].sanity


# ---------------------------------------------------------------- monsters

def monster_card(state: ArkhamState, m: Monster) -> MonsterCard:
    if m.card.startswith("archive:"):
        card: ArchiveCard = scenario(state).archive[int(m.card.split(":")[1])]
        assert card.epic is not None
        return card.epic
    return content(state).monsters[m.card]


def monster_health(state: ArkhamState, m: Monster) -> int:
    """HEALTH, with Elite X counted per investigator who started the game (12.11)."""
    card = monster_card(state, m)
    return card.health + card.elite * state.started_with


def monster_name(state: ArkhamState, m: Monster) -> str:
    return monster_card(state, m).name


def has_kw(state: ArkhamState, m: Monster, kw: str) -> bool:
    return kw in monster_card(state, m).keywords


def monster_space(state: ArkhamState, m: Monster) -> str | None:
    """Where the monster is: its space, or its (first) engaged investigator's space."""
    if m.space is not None:
        return m.space
    if m.engaged and has_inv(state, m.engaged[0]):
        return inv(state, m.engaged[0]).space
    return None


def engaged_with(state: ArkhamState, seat: int) -> list[Monster]:
    return [m for m in state.monsters if seat in m.engaged]


def restricting(state: ArkhamState, seat: int) -> list[Monster]:
    """Engaged monsters that limit actions and encounters (every one but a watcher, digest 7)."""
    return [m for m in engaged_with(state, seat) if not has_kw(state, m, "watcher")]


def monsters_at(state: ArkhamState, space: str) -> list[Monster]:
    return [m for m in state.monsters if monster_space(state, m) == space]


def find_monster(state: ArkhamState, uid: int) -> Monster | None:
    for m in state.monsters:
        if m.uid == uid:
            return m
    return None


def monster_label(state: ArkhamState, m: Monster) -> str:
    hp = monster_health(state, m)
    where = "engaged with " + ", ".join(who(state, s) for s in m.engaged) if m.engaged else m.status
    return f"{monster_name(state, m)} ({m.damage}/{hp} damage, {where})"


# ---------------------------------------------------------------- tests

def skill_value(state: ArkhamState, seat: int, skill: str) -> int:
    i = inv(state, seat)
    return content(state).investigators[i.card].skills[skill] + (1 if skill in i.focus else 0)  # type: ignore


def asset_card(state: ArkhamState, card: str) -> AssetCard:
    return content(state).assets[card]


def test_bonus(state: ArkhamState, seat: int, skill: str, purpose: str) -> tuple[int, list[str]]:
    """Dice from cards used in this test: every card without hand icons, plus the best cards with at most
    two hand icons in total (digest 5; [ruling] the engine picks the best combination for you, since using
    a bonus card costs nothing). Returns (dice, card names)."""
    i = inv(state, seat)
    free: list[tuple[int, str]] = []
    handed: list[tuple[int, int, str]] = []
    for a in i.assets:
        card = asset_card(state, a.card)
        dice = card.bonus.get(skill, 0)  # type: ignore[call-overload]
        if not dice or not ("any" in card.bonus_for or purpose in card.bonus_for):
            continue
        if card.hands:
            handed.append((dice, card.hands, card.name))
        else:
            free.append((dice, card.name))
    best: tuple[int, list[str]] = (0, [])
    n = len(handed)
    for mask in range(1 << n):
        hands = dice = 0
        names: list[str] = []
        for k in range(n):
            if mask >> k & 1:
                hands += handed[k][1]
                dice += handed[k][0]
                names.append(handed[k][2])
        if hands <= 2 and dice > best[0]:
            best = (dice, names)
    total = best[0] + sum(d for d, _ in free)
    return total, best[1] + [nm for _, nm in free]
