"""Code the tests and the benchmark share, outside the product (pyproject installs `companion` alone):
`tools/driver.py`, the one way to drive a game."""
