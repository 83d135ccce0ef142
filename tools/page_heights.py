"""The height of each article as a reader scrolls it, with its disclosures closed (issue 43 point 9: "each article at
390 px is no taller than on 2026-12-01"): serves a built site, opens every article in both languages in Chromium at
390 px and at 1280 px wide, waits for the fonts, and prints ``document.documentElement.scrollHeight`` with the sideways
overflow of the page and of each table's scroller. Usage, after a build into ``site/``:

    .venv/bin/python -m tools.page_heights [site]

Run by hand; the e2e tests hold the layout rules, this prints the figures a note quotes."""
from __future__ import annotations

import json
import os
import sys
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

from playwright.sync_api import sync_playwright

PAGES = {"ar/vram-guide": "articles/vram-guide/", "en/vram-guide": "en/articles/vram-guide/",
         "ar/five-ways": "articles/five-ways/", "en/five-ways": "en/articles/five-ways/"}
WIDTHS = {"390": (390, 844), "1280": (1280, 900)}
MEASURE = """() => ({
  height: document.documentElement.scrollHeight,
  pageOverflow: document.documentElement.scrollWidth - innerWidth,
  openDisclosures: [...document.querySelectorAll("article details[open]")].length,
  closedDisclosures: [...document.querySelectorAll("article details:not([open])")].length,
  tablesOverflowing: [...document.querySelectorAll("article .calc-table-wrap")]
      .filter(w => w.offsetParent !== null && w.scrollWidth - w.clientWidth > 1)
      .map(w => [w.querySelector("table")?.className, w.scrollWidth, w.clientWidth]),
})"""


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def main(site: str = "site") -> None:
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}/"
    out = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                    args=["--no-sandbox"], headless=True)
        for name, path in PAGES.items():
            for width, (w, h) in WIDTHS.items():
                page = browser.new_page(viewport={"width": w, "height": h}, device_scale_factor=1)
                page.goto(base + path, wait_until="load")
                page.evaluate("document.fonts.ready")
                page.wait_for_timeout(800)
                out[f"{name} @ {width}px"] = page.evaluate(MEASURE)
                page.close()
        browser.close()
    server.shutdown()
    print(json.dumps(out, indent=1, ensure_ascii=False))


if __name__ == "__main__":
    main(*sys.argv[1:])
