"""Table codes are short and unambiguous aloud; links and QR codes point at /m/<code>."""

from __future__ import annotations

from truco.protocol.lobby import table_path
from truco.server.codes import normalize_code
from truco.server.qr import qr_svg


def test_a_typed_code_is_normalized() -> None:
    assert normalize_code(" abc-def ") == "ABCDEF"
    assert normalize_code("AB CD EF") == "ABCDEF"


def test_a_code_with_an_ambiguous_character_is_refused() -> None:
    assert normalize_code("ABC0EF") is None
    assert normalize_code("ABCIEF") is None
    assert normalize_code("ABCDE") is None
    assert normalize_code("A" * 100) is None


def test_links_look_like_m_code() -> None:
    assert table_path("ABCDE") == "/m/ABCDE"


def test_the_qr_code_is_svg() -> None:
    svg = qr_svg("http://192.168.1.5:8000/m/ABCDE").decode()
    assert svg.startswith("<svg") and "</svg>" in svg
