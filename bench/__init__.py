"""The performance benchmark: `bench/run` (see docs/performance.md)."""
