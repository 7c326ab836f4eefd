"""Code the tests and the benchmark share, outside the product (pyproject installs `companion` alone):
`tools/driver.py`, the one way to drive a game; `tools/api_docs.py`, docs/api.md's lists of what the code
declares (`scripts/update-docs`)."""
