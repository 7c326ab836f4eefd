"""QR codes as inline SVG (no image requests, crisp at any size)."""

from functools import lru_cache

import qrcode
import qrcode.image.svg


@lru_cache(maxsize=256)
def qr_svg(data: str) -> str:
    image = qrcode.make(
        data,
        image_factory=qrcode.image.svg.SvgPathFillImage,
        box_size=10,
        border=4,
        error_correction=qrcode.constants.ERROR_CORRECT_M,
    )
    svg = image.to_string(encoding="unicode")
    return svg[svg.index("<svg") :]  # drop the XML declaration: the SVG goes inline into HTML
