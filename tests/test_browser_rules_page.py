"""The rules page read on a phone and a laptop, in real Chromium: its contents' numbers stand beside the first
line of their entry, and its two columns start level."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from .browser import PHONE, TABLE, shot

pytestmark = pytest.mark.browser

# Each entry of the contents: its box, and the box of its link's first line.
ENTRIES = """() => Array.from(document.querySelectorAll('.rules-contents li'), li => {
  const link = li.querySelector('a'), range = document.createRange();
  range.selectNodeContents(link);
  const first = range.getClientRects()[0], box = li.getBoundingClientRect(), a = link.getBoundingClientRect();
  const column = li.closest('nav').getBoundingClientRect();
  return {text: link.innerText, left: box.left, columnLeft: Math.max(column.left, box.left - 48), top: box.top, bottom: box.bottom, linkLeft: a.left,
          lineTop: first.top, lineBottom: first.bottom};
})"""


def ink_rows(page, x0: float, x1: float, y0: float, y1: float) -> list[int]:
    """The rows (page pixels) between y0 and y1 where something is drawn between x0 and x1: the number."""
    png = page.screenshot(clip={"x": x0, "y": y0, "width": x1 - x0, "height": y1 - y0}, full_page=True)
    image = Image.open(io.BytesIO(png)).convert("L")
    background = image.getpixel((0, 0))
    return [
        y0 + y
        for y in range(image.height)
        if any(abs(image.getpixel((x, y)) - background) > 60 for x in range(image.width))
    ]


@pytest.mark.parametrize("size", [PHONE, {"width": 320, "height": 640}, TABLE])
def test_the_contents_numbers_stand_beside_their_entries_first_line(browser, live_server, size):
    page = browser.new_context(viewport=size).new_page()
    page.goto(f"{live_server.url}/rules")
    shot(page, f"90-rules-{size['width']}")
    entries = page.evaluate(ENTRIES)
    assert len(entries) == 11
    for number, entry in enumerate(entries, start=1):
        ink = ink_rows(page, entry["columnLeft"], entry["linkLeft"] - 2, entry["top"], entry["bottom"])
        assert ink, f"no number drawn beside “{entry['text']}”"
        assert entry["lineTop"] - 1 <= min(ink) and max(ink) <= entry["lineBottom"] + 1, (
            f"{number}. is drawn at {min(ink):.0f}–{max(ink):.0f}px, beside “{entry['text']}” whose first line is at "
            f"{entry['lineTop']:.0f}–{entry['lineBottom']:.0f}px"
        )
    # Each column's first entry at the same height.
    tops = {}
    for entry in entries:
        tops.setdefault(round(entry["left"]), entry["top"])
    assert max(tops.values()) - min(tops.values()) <= 1, f"the columns start at {tops}"
    page.context.close()
