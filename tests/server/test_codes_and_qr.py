"""Table codes are short and unambiguous aloud; links and QR codes point at /m/<code>."""

from __future__ import annotations

from truco.server.codes import ALPHABET, CODE_LENGTH, new_code, normalize_code, table_path
from truco.server.qr import qr_svg


def test_codes_avoid_letters_and_digits_that_look_alike() -> None:
    codes = {new_code() for _ in range(2000)}
    text = "".join(codes)
    for confusable in "0O1I":
        assert confusable not in text
    assert all(len(c) == CODE_LENGTH and set(c) <= set(ALPHABET) for c in codes)


def test_new_code_skips_taken_codes() -> None:
    taken = {new_code() for _ in range(50)}
    assert all(new_code(taken) not in taken for _ in range(200))


def test_a_typed_code_is_normalized() -> None:
    assert normalize_code(" abc-de ") == "ABCDE"
    assert normalize_code("AB CD E") == "ABCDE"


def test_a_code_with_an_ambiguous_character_is_refused() -> None:
    assert normalize_code("ABC0E") is None
    assert normalize_code("ABCIE") is None
    assert normalize_code("ABCD") is None
    assert normalize_code("A" * 100) is None


def test_links_look_like_m_code() -> None:
    assert table_path("ABCDE") == "/m/ABCDE"


def test_the_qr_code_is_svg() -> None:
    svg = qr_svg("http://192.168.1.5:8000/m/ABCDE").decode()
    assert svg.startswith("<svg") and "</svg>" in svg
