"""Retake the reviewed screenshots in docs/screenshots/ from the mock page (real table views), at
390×844 (``<name>.png``) and 360×740 (``<name>-360.png``), 1×, whole page.

    .venv/bin/python -m tests.browser.docs_shots

Look at every picture before committing it. When Pillow can be imported the pictures are reduced to
a 256-colour palette (a tenth of the size); without it they are kept as Chromium writes them.
"""

from __future__ import annotations

import functools
import http.server
import threading
from pathlib import Path

from tests.browser.conftest import CHROMIUM_ARGS, ROOT, SYSTEM_CHROMIUM, WEB, _QuietHandler, free_port

OUT = ROOT / "docs" / "screenshots"
SIZES = {"": (390, 844), "-360": (360, 740)}
SHOTS = {  # docs name -> mock screen (and query)
    "home": "home",
    "join": "join",
    "waiting-room": "waiting_away",
    "table-4-your-turn": "my_turn",
    "table-6": "table6",
    "table-6-pica-pica": "pica_dueling",
    "table-6-pica-pica-their-turn": "pica",
    "pica-pica-summary": "summary_pica",
    "envido-tantos": "table",
    "vote-split": "vote",
    "vote-bot-hint": "vote_bot",
    "hand-summary": "summary",
    "disconnected": "disconnected",
    "cancelled": "cancelled",
    "match-end": "match_end",
    "senas": "senas",
    "sena-received": "sena_received",
    "casual-host": "casual_host",
    "casual-summary": "summary_casual",
    "spectator": "spectator",
    "english": "vote&lang=en",
}


def _quantize(path: Path) -> None:
    try:
        from PIL import Image  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return
    with Image.open(path) as im:
        small = im.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT,
                                           dither=Image.Dither.NONE)
    small.save(path, optimize=True)


def main() -> None:
    from playwright.sync_api import sync_playwright

    handler = functools.partial(_QuietHandler, directory=str(WEB))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{httpd.server_address[1]}"
    OUT.mkdir(parents=True, exist_ok=True)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=SYSTEM_CHROMIUM, args=CHROMIUM_ARGS)
        for suffix, (w, h) in SIZES.items():
            page = browser.new_page(viewport={"width": w, "height": h}, device_scale_factor=1)
            for name, screen in SHOTS.items():
                lang = "" if "lang=" in screen else "&lang=es"
                page.goto(f"{url}/dev/mock.html?screen={screen}{lang}")
                page.wait_for_selector("body[data-ready='1']")
                page.wait_for_timeout(150)
                path = OUT / f"{name}{suffix}.png"
                page.screenshot(path=str(path), full_page=True)
                _quantize(path)
            # the deck sheet, as wide as the phone allows
            page.set_viewport_size({"width": 900 if not suffix else w, "height": 640 if not suffix else h})
            page.goto(f"{url}/dev/deck.html")
            page.wait_for_selector("body[data-ready='1']")
            path = OUT / f"deck{suffix}.png"
            page.screenshot(path=str(path), full_page=True)
            _quantize(path)
            page.close()
        browser.close()
    httpd.shutdown()
    print("wrote", len(SHOTS) + 1, "screenshots at", len(SIZES), "sizes to", OUT)


if __name__ == "__main__":
    main()
