"""A static file server for the built site: what any plain web server would do, nothing more.

Used by ``make serve`` and by the end-to-end tests (on port 0). ``--prefix /guide/`` serves the site under a
sub-path, to prove that every link is relative. WebAssembly and JavaScript modules get their proper MIME types
(browsers refuse to compile wasm or run a module worker served as text/plain).
"""
from __future__ import annotations

import argparse
import functools
import http.server
import mimetypes
import threading
from pathlib import Path

mimetypes.add_type("application/wasm", ".wasm")
mimetypes.add_type("text/javascript", ".mjs")
mimetypes.add_type("text/javascript", ".js")
mimetypes.add_type("application/json", ".json")
mimetypes.add_type("font/woff2", ".woff2")
mimetypes.add_type("image/svg+xml", ".svg")


class _Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"

    def translate_path(self, path: str) -> str:
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "__outside_prefix__")
        return super().translate_path("/" + path[len(self.prefix):])

    def send_error(self, code, message=None, explain=None):
        # Serve the site's own 404 page, as a real static host does.
        page = Path(self.directory) / "404.html"
        if code == 404 and page.is_file():
            body = page.read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            if self.command != "HEAD":
                self.wfile.write(body)
            return
        super().send_error(code, message, explain)

    def log_message(self, format, *args):  # quiet: tests read the browser's view, not the access log
        pass


def make_server(directory: str | Path, host: str = "127.0.0.1", port: int = 0, prefix: str = "/"):
    """Return a ThreadingHTTPServer (not yet serving). ``server.server_address[1]`` is the port."""
    if not prefix.startswith("/") or not prefix.endswith("/"):
        raise ValueError("prefix must start and end with '/'")
    handler = type("Handler", (_Handler,), {"prefix": prefix})
    handler = functools.partial(handler, directory=str(directory))
    return http.server.ThreadingHTTPServer((host, port), handler)


def serve_in_thread(directory: str | Path, prefix: str = "/"):
    """Start a server on a free port in a daemon thread; return (server, base_url)."""
    server = make_server(directory, prefix=prefix)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}{prefix}"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", default="site")
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/")
    args = parser.parse_args(argv)
    server = make_server(args.directory, args.host, args.port, args.prefix)
    host, port = server.server_address[:2]
    print(f"Serving {args.directory}/ at http://{host}:{port}{args.prefix}  (Ctrl+C to stop)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
