"""The one kind of process cache (companion/cache.py): bounded by weight, least recently used out first."""

from __future__ import annotations

from companion.cache import Cache, every_cache


def test_the_least_recently_used_goes_first_once_past_the_limit():
    cache: Cache[str, str] = Cache("a word", 10, weigh=lambda key, value: len(value))
    cache.put("a", "xxxx")
    cache.put("b", "xxxx")
    assert cache.get("a") == "xxxx"  # "a" used: "b" is now the oldest
    cache.put("c", "xxxx")
    assert cache.get("b") is None and cache.get("a") == "xxxx" and cache.get("c") == "xxxx"
    assert cache.weight == 8 <= cache.limit


def test_made_makes_once_and_counts():
    cache: Cache[int, str] = Cache("a number", 3)
    made = []
    for _ in range(3):
        assert cache.made(1, lambda: made.append(1) or "one") == "one"
    assert made == [1] and (cache.hits, cache.misses) == (2, 1)


def test_update_keeps_what_its_function_chooses_and_forget_frees_its_weight():
    cache: Cache[str, int] = Cache("a name", 100, weigh=lambda key, value: value)
    newer = lambda version: lambda kept: kept if kept and kept >= version else version  # noqa: E731
    assert cache.update("g", newer(5)) == 5 and cache.update("g", newer(3)) == 5 and cache.weight == 5
    cache.forget(["g", "never"])
    assert cache.weight == 0 and len(cache) == 0 and list(cache) == []


def test_every_cache_lists_the_live_caches():
    cache: Cache[str, str] = Cache("a test's", 1)
    assert any(c is cache for c in every_cache())
