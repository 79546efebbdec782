"""A web server on localhost for download tests, stopped when the `with` block ends."""

from __future__ import annotations

import contextlib
import shutil
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


@dataclass(frozen=True)
class Reply:
    status: int = 200
    body: bytes = b""
    file: Path | None = None
    """Streamed from disk instead of `body` (model zips are hundreds of megabytes)."""
    content_type: str = "application/zip"
    cut_after: int | None = None
    """Announce the full length but hang up after this many bytes (a dropped connection)."""


@contextlib.contextmanager
def serving(routes: dict[str, Reply]) -> Iterator[str]:
    """Serve `routes` (path -> Reply) on 127.0.0.1; yields the base URL."""

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            reply = routes.get(self.path, Reply(status=404, body=b"not found",
                                                content_type="text/plain"))
            length = reply.file.stat().st_size if reply.file else len(reply.body)
            self.send_response(reply.status)
            self.send_header("Content-Type", reply.content_type)
            self.send_header("Content-Length", str(length))
            self.end_headers()
            with contextlib.suppress(ConnectionError):
                if reply.file is not None:
                    with reply.file.open("rb") as source:
                        shutil.copyfileobj(source, self.wfile, 1024 * 1024)
                else:
                    self.wfile.write(reply.body[:reply.cut_after])
            if reply.cut_after is not None:
                self.close_connection = True

        def log_message(self, format: str, *args: object) -> None:
            pass  # keep test output clean

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, name="test-http", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
