"""Draw the browser game's PNG icons from its maskable SVG icon, once, with chromium.

The PNGs are committed (src/unomas/server/static/icon-192.png, icon-512.png and
apple-touch-icon.png, 180 px): iOS and some installers ignore SVG icons. Run it again only
when the SVG changes:

    .venv/bin/python tools/make_icons.py [path/to/chromium]
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parent.parent / "src" / "unomas" / "server" / "static"
SIZES = {"icon-192.png": 192, "icon-512.png": 512, "apple-touch-icon.png": 180}


def main(chromium: str) -> None:
    """Render the maskable SVG (full bleed: it has its own background) at each size."""
    svg = (STATIC / "icon-maskable.svg").read_text(encoding="utf-8")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=["--headless", "--no-sandbox"])
        for name, size in SIZES.items():
            page = browser.new_page(viewport={"width": size, "height": size})
            page.set_content(
                f"<style>body{{margin:0}} svg{{display:block;width:{size}px;height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(STATIC / name), omit_background=False)
            page.close()
        browser.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else shutil.which("chromium") or "chromium")
