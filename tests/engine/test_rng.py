"""The game RNG (engine/core/rng.py): SplitMix64 with its whole state in one JSON-serializable int.

The reference outputs are computed here, independently of the engine, from the published algorithm
(Steele, Lea, Flood, OOPSLA 2014; Vigna's splitmix64.c): state += 0x9E3779B97F4A7C15, then the mix
z = (z ^ z>>30) * 0xBF58476D1CE4E5B9; z = (z ^ z>>27) * 0x94D049BB133111EB; z ^ z>>31, all mod 2**64.
"""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.rng import Rng

M64 = 2**64


def reference_splitmix64(seed: int, n: int) -> list[int]:
    x = seed % M64
    out = []
    for _ in range(n):
        x = (x + 0x9E3779B97F4A7C15) % M64
        z = x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % M64
        out.append(z ^ (z >> 31))
    return out


def test_reference_implementation_matches_the_published_first_output() -> None:
    # splitmix64.c seeded with 0: the first output is 0xE220A8397B1DCDAF (a widely quoted test vector)
    assert reference_splitmix64(0, 1) == [0xE220A8397B1DCDAF]


@pytest.mark.parametrize("seed", [0, 1])
def test_first_outputs_match_reference(seed: int) -> None:
    rng = Rng.from_seed(seed)
    assert [rng.next_u64() for _ in range(8)] == reference_splitmix64(seed, 8)


def test_known_values_seed_0_and_1() -> None:
    r0, r1 = Rng.from_seed(0), Rng.from_seed(1)
    assert [r0.next_u64() for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    assert [r1.next_u64() for _ in range(3)] == [0x910A2DEC89025CC1, 0xBEEB8DA1658EEC67, 0xF893A2EEFB32555E]


@given(st.integers(min_value=-(2**70), max_value=2**70))
def test_any_seed_matches_reference_and_outputs_are_64_bit(seed: int) -> None:
    rng = Rng.from_seed(seed)
    outs = [rng.next_u64() for _ in range(4)]
    assert outs == reference_splitmix64(seed, 4)
    assert all(0 <= x < M64 for x in outs)
    assert 0 <= rng.state < M64


def test_state_is_the_whole_generator() -> None:
    a = Rng.from_seed(42)
    a.next_u64()
    b = Rng(state=a.state)
    assert [a.next_u64() for _ in range(5)] == [b.next_u64() for _ in range(5)]


@given(seed=st.integers(0, M64 - 1), n=st.integers(1, 2**64))
def test_below_is_in_range(seed: int, n: int) -> None:
    rng = Rng.from_seed(seed)
    for _ in range(20):
        assert 0 <= rng.below(n) < n


@pytest.mark.parametrize("n", [0, -1, -(2**64)])
def test_below_rejects_non_positive(n: int) -> None:
    with pytest.raises(ValueError):
        Rng.from_seed(1).below(n)


def test_below_one_is_always_zero() -> None:
    rng = Rng.from_seed(7)
    assert {rng.below(1) for _ in range(100)} == {0}


# chi-square critical values at p = 0.001 (df = n - 1), from the standard table
CHI2_CRIT_001 = {2: 10.83, 3: 13.82, 6: 20.52, 7: 22.46, 10: 27.88}


@pytest.mark.parametrize("n", sorted(CHI2_CRIT_001))
def test_below_is_roughly_uniform(n: int) -> None:
    """60 000 draws with a fixed seed; the chi-square statistic stays below the p = 0.001 critical value."""
    rng = Rng.from_seed(20240601 + n)
    draws = 60_000
    counts = Counter(rng.below(n) for _ in range(draws))
    assert set(counts) == set(range(n))
    expected = draws / n
    chi2 = sum((counts[k] - expected) ** 2 / expected for k in range(n))
    assert chi2 < CHI2_CRIT_001[n], f"chi-square {chi2:.2f} for n={n}: {dict(counts)}"


def test_below_has_no_modulo_bias_for_huge_n() -> None:
    """n = 3·2^62: plain `x % n` would put half the mass on [0, 2^62); rejection sampling spreads it."""
    n = 3 * 2**62
    rng = Rng.from_seed(99)
    low = sum(1 for _ in range(6000) if rng.below(n) < 2**62)
    assert 1700 < low < 2300  # about a third, not a half


@given(seed=st.integers(0, M64 - 1), items=st.lists(st.integers(), max_size=40))
def test_shuffle_is_a_permutation(seed: int, items: list[int]) -> None:
    shuffled = list(items)
    Rng.from_seed(seed).shuffle(shuffled)
    assert Counter(shuffled) == Counter(items)


def test_shuffle_reaches_every_order_of_three_evenly() -> None:
    rng = Rng.from_seed(3)
    counts: Counter[tuple[int, ...]] = Counter()
    for _ in range(6000):
        xs = [0, 1, 2]
        rng.shuffle(xs)
        counts[tuple(xs)] += 1
    assert len(counts) == 6
    chi2 = sum((c - 1000) ** 2 / 1000 for c in counts.values())
    assert chi2 < CHI2_CRIT_001[6]


@given(seed=st.integers(0, M64 - 1))
def test_shuffle_and_choice_are_deterministic(seed: int) -> None:
    a, b = Rng.from_seed(seed), Rng.from_seed(seed)
    xs, ys = list(range(30)), list(range(30))
    a.shuffle(xs)
    b.shuffle(ys)
    assert xs == ys
    assert a.choice("abcdefg") == b.choice("abcdefg")
    assert a.sample(range(10), 4) == b.sample(range(10), 4)


@given(seed=st.integers(0, M64 - 1), k=st.integers(0, 12))
def test_sample_is_k_distinct_items(seed: int, k: int) -> None:
    pool = list(range(12))
    got = Rng.from_seed(seed).sample(pool, k)
    assert len(got) == k and len(set(got)) == k and set(got) <= set(pool)
    assert pool == list(range(12))  # the input is not shuffled in place


@given(seed=st.integers(0, M64 - 1), before=st.integers(0, 50), after=st.integers(1, 50))
def test_sequence_continues_identically_after_a_json_round_trip(seed: int, before: int, after: int) -> None:
    live = Rng.from_seed(seed)
    for _ in range(before):
        live.below(1000)
    text = live.model_dump_json()
    restored = Rng.model_validate_json(text)
    assert restored == live
    assert restored.model_dump_json() == text
    mixed_live = [live.next_u64() if i % 2 else live.below(7) for i in range(after)]
    mixed_restored = [restored.next_u64() if i % 2 else restored.below(7) for i in range(after)]
    assert mixed_live == mixed_restored
    assert live.state == restored.state
