"""The world map as a graph, and the questions the rules ask of it (digest 1.2, 3.1 Travel, 6 Defeated).

Built once per content version and cached: the map never changes during a game.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from functools import cache

from engine.eldritch.content import EldritchContent, content_of

#: Reference card values by player count (digest 1.4; facts: the four Reference cards): gates, surge, clues
REFERENCE: dict[int, tuple[int, int, int]] = {
    1: (1, 1, 1), 2: (1, 1, 1), 3: (1, 2, 2), 4: (1, 2, 2), 5: (2, 2, 3), 6: (2, 2, 3), 7: (2, 3, 4), 8: (2, 3, 4),
}


@dataclass(frozen=True)
class Route:
    """A way to travel: the destination, the spaces passed through and the tickets it costs."""

    dest: str
    via: tuple[str, ...]
    train: int
    ship: int

    @property
    def tickets(self) -> int:
        return self.train + self.ship


@dataclass(frozen=True)
class Board:
    neighbours: dict[str, tuple[tuple[str, str], ...]]  # space -> ((neighbour, path type), ...)
    names: dict[str, str]
    types: dict[str, str]
    cities: frozenset[str]
    #: start -> its distances, filled as asked (the map never changes; callers never change the dicts)
    _distances: dict[str, dict[str, int]] = field(default_factory=dict, compare=False, repr=False)
    _kinds: dict[str, frozenset[str]] = field(default_factory=dict, compare=False, repr=False)  # path types there

    def adjacent(self, space: str) -> list[str]:
        return [n for n, _ in self.neighbours[space]]

    def has_path(self, space: str, kind: str) -> bool:
        kinds = self._kinds.get(space)
        if kinds is None:
            kinds = self._kinds[space] = frozenset(t for _, t in self.neighbours[space])
        return kind in kinds

    def distances(self, start: str) -> dict[str, int]:
        """Fewest paths from `start` to every space (breadth-first; any path type counts). Do not change the
        dict returned: it is remembered for the next caller."""
        got = self._distances.get(start)
        if got is None:
            got = self._distances[start] = self._bfs(start)
        return got

    def _bfs(self, start: str) -> dict[str, int]:
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for n, _ in self.neighbours[here]:
                if n not in dist:
                    dist[n] = dist[here] + 1
                    queue.append(n)
        return dist

    def nearest(self, start: str, among: set[str] | frozenset[str]) -> str | None:
        """The nearest space of `among` (digest 1.2). Ties are broken by the space's id, so the result is
        the same every time (decision: the digest's gap on ties; docs/eldritch.md)."""
        dist = self.distances(start)
        found = [(d, s) for s, d in dist.items() if s in among]
        return min(found)[1] if found else None

    def step_toward(self, start: str, goal: str) -> str:
        """The next space on a shortest route from start to goal (ties by id)."""
        if start == goal:
            return start
        back = self.distances(goal)
        options = sorted((back.get(n, 999), n) for n, _ in self.neighbours[start])
        return options[0][1]

    def routes(self, start: str, train: int, ship: int) -> dict[str, Route]:
        """Every space reachable by one Travel action: one step along any path, then one more step along a
        train path per train ticket spent and along a ship path per ship ticket (digest 3.1). The cheapest
        route to each destination (fewest tickets, then trains before ships)."""
        best: dict[str, Route] = {}
        first = [(Route(n, (), 0, 0)) for n, _ in self.neighbours[start]]
        queue = deque(first)
        seen: set[tuple[str, int, int]] = set()
        while queue:
            r = queue.popleft()
            key = (r.dest, r.train, r.ship)
            if key in seen:
                continue
            seen.add(key)
            if r.dest != start:
                old = best.get(r.dest)
                if old is None or (r.tickets, r.ship) < (old.tickets, old.ship):
                    best[r.dest] = r
            for n, kind in self.neighbours[r.dest]:
                if kind == "train" and r.train < train:
                    queue.append(Route(n, (*r.via, r.dest), r.train + 1, r.ship))
                elif kind == "ship" and r.ship < ship:
                    queue.append(Route(n, (*r.via, r.dest), r.train, r.ship + 1))
        return best

    def within(self, start: str, steps: int) -> list[str]:
        return sorted(s for s, d in self.distances(start).items() if 0 < d <= steps)


@cache
def _board(version: str) -> Board:
    return build(content_of(version))


def build(c: EldritchContent) -> Board:
    nb: dict[str, list[tuple[str, str]]] = {s: [] for s in c.spaces}
    for p in c.paths:
        nb[p.a].append((p.b, p.type))
        nb[p.b].append((p.a, p.type))
    return Board(
        neighbours={s: tuple(sorted(v)) for s, v in nb.items()},
        names={s.id: s.name if s.type != "sea" or not s.name.isdigit() else s.name for s in c.spaces.values()},
        types={s.id: s.type for s in c.spaces.values()},
        cities=frozenset(s.id for s in c.spaces.values() if s.type == "city"),
    )


def board_of(version: str) -> Board:
    return _board(version)


def reference(players: int) -> tuple[int, int, int]:
    """(gates, monster surge, clues) from the Reference card for this many players."""
    return REFERENCE[max(1, min(8, players))]


def space_label(c: EldritchContent, space: str) -> str:
    s = c.spaces[space]
    return f"space {s.name}" if s.name.isdigit() else s.name
