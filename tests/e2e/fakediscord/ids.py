"""Snowflake ids the way Discord makes them, so the bot's own arithmetic on them (shard = (guild_id >> 22) %
shard_count, creation time) works on the fake's ids exactly as on real ones."""

from __future__ import annotations

import itertools
import time

DISCORD_EPOCH_MS = 1_420_070_400_000


class Snowflakes:
    """Monotonic snowflakes: timestamp in the high bits, a counter in the low 12."""

    def __init__(self) -> None:
        self._counter = itertools.count(1)

    def next(self) -> int:
        ms = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (ms << 22) | (1 << 17) | (next(self._counter) & 0xFFF)

    @staticmethod
    def guild_id(index: int) -> int:
        """The id of the world's guild number `index`: it lands on shard `index % n` for any n ≤ 8 (the
        timestamp part is a multiple of 840 = lcm(1..8) plus `index`), so a test knows which shard serves
        which guild."""
        base_ms = 1_000_000_000_000 - 1_000_000_000_000 % 840
        return ((base_ms + index) << 22) | (1 << 17) | 1


def shard_of(guild_id: int, shard_count: int) -> int:
    """Discord's sharding formula."""
    return (guild_id >> 22) % shard_count
