"""A QR code of a table's link, as SVG, so a friend can scan it from the host's phone."""

from __future__ import annotations

import io

import segno


def qr_svg(url: str) -> bytes:
    """An SVG QR code for ``url`` (medium error correction, 4-module quiet zone)."""
    qr = segno.make(url, error="m", micro=False)
    out = io.BytesIO()
    qr.save(out, kind="svg", scale=8, border=4, xmldecl=False, title="truco table link")
    return out.getvalue()
