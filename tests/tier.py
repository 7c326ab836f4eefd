"""The tier this run is (`scripts/test --fast` sets TEST_TIER=fast) and the one thing it changes: property
tests try a fifth of their examples in the fast tier, and all of them in the full run and CI."""

import os

FAST = os.environ.get("TEST_TIER") == "fast"


def examples(full: int) -> int:
    """A property test's number of examples: `full`, or a fifth of it in the fast tier."""
    return full // 5 if FAST else full
