#!/usr/bin/env python3
"""HTTP(S) server for mediaview's tests: real Range support plus injected faults.

Usage:
  testserver.py ROOT --port-file FILE [--log FILE] [--parent-pid PID]
                [--cert PEM --key PEM] [--max-lifetime S] [--max-idle S]

Serves files under ROOT on 127.0.0.1 with an OS-chosen port. The port file gets
one line per listener, "http PORT" and (with --cert/--key) "https PORT", written
atomically once every listener is bound, so a waiting script never reads half.

Fault injection is spelled as path prefixes. Prefixes that change *how* a file
is delivered can be chained (/redirect/1/trickle/4000/a.mp4); the others answer
on their own:

  /status/<code>/...          answer <code> with a short text body
  /redirect-loop/...          302 to itself, forever
  /redirect/<n>/<rest>        n hops of 302, then /<rest>
  /html/<name>                200 text/html page whatever <name>'s extension says
  /reset/<bytes>/<rest>       headers + first <bytes> of the body, then a TCP RST
  /stall/<bytes>/<rest>       headers + first <bytes>, then silence (<= 120 s)
  /trickle/<bytes-per-s>/<rest>  the body at that rate
  /lie-length/<rest>          Content-Length larger than the body, then close
  /delay/<ms>/<rest>          wait before sending anything (header timeouts)
  /no-range/<rest>            ignore Range, always 200 with the whole file
  /no-length/<rest>           no Content-Length; the end of the body is the close
  /http10/<rest>              an HTTP/1.0 answer with no Content-Length, ended by the close
  /chunked/<rest>             Transfer-Encoding: chunked, ending with the last (empty) chunk
  /cut-chunked/<bytes>/<rest> chunked, but closed (FIN) after <bytes> with no last chunk
  /redirect-file/<name>       302 to file:///etc/passwd (a redirect to a local file)
  /gzip-bomb/<name>           Content-Encoding: gzip, a small body inflating to 256 MiB of zeros

Each request is logged as one JSON object a line (time, method, path, Range
header, status, byte range, user agent), written and flushed before the body is
sent, so a test can see what was asked for even if the transfer never ends.

The server stops by itself when its parent dies (--parent-pid), when nothing
has been requested for --max-idle seconds, or after --max-lifetime seconds,
so a killed test run never leaves it behind for long.
"""

import argparse
import email.utils
import zlib
import json
import mimetypes
import os
import posixpath
import re
import socket
import ssl
import struct
import sys
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

STALL_SECONDS = 120
CHUNK = 64 * 1024

# mimetypes' table depends on /etc/mime.types, which a minimal system lacks;
# pin the types the tests rely on so Content-Type is the same everywhere.
EXTRA_TYPES = {
    ".jpg": "image/jpeg", ".jpeg": "image/jpeg", ".png": "image/png",
    ".gif": "image/gif", ".webp": "image/webp", ".bmp": "image/bmp",
    ".tif": "image/tiff", ".tiff": "image/tiff", ".apng": "image/apng",
    ".mp4": "video/mp4", ".m4v": "video/mp4", ".mov": "video/quicktime",
    ".webm": "video/webm", ".mkv": "video/x-matroska", ".avi": "video/x-msvideo",
    ".ts": "video/mp2t", ".m3u8": "application/vnd.apple.mpegurl",
    ".mp3": "audio/mpeg", ".m4a": "audio/mp4", ".aac": "audio/aac",
    ".ogg": "audio/ogg", ".oga": "audio/ogg", ".opus": "audio/ogg",
    ".flac": "audio/flac", ".wav": "audio/wav",
    ".html": "text/html; charset=utf-8", ".htm": "text/html; charset=utf-8",
    ".txt": "text/plain; charset=utf-8", ".json": "application/json",
}

HTML_PAGE = b"""<!DOCTYPE html>
<html><head><meta charset="utf-8"><title>Not media</title></head>
<body><h1>This is a web page</h1><p>A captive portal or an error page would
look like this. It is not an image, a video or a sound.</p></body></html>
"""

stop_event = threading.Event()      # set when the server is going down
last_activity = [time.monotonic()]  # list: mutated from handler threads
log_lock = threading.Lock()
log_file = None
gzip_bomb = []  # made at start on a thread of its own: compressing 256 MiB takes seconds
bomb_lock = threading.Lock()  # not the log lock: other answers must not wait for the bomb


def bomb_body():
    with bomb_lock:
        if not gzip_bomb:
            z = zlib.compressobj(9, zlib.DEFLATED, 31)  # 31: gzip framing
            block = bytes(1 << 20)
            parts = [z.compress(block) for _ in range(256)]
            parts.append(z.flush())
            gzip_bomb.append(b"".join(parts))
        return gzip_bomb[0]


def content_type(path):
    ext = posixpath.splitext(path)[1].lower()
    if ext in EXTRA_TYPES:
        return EXTRA_TYPES[ext]
    guessed, _ = mimetypes.guess_type(path)
    return guessed or "application/octet-stream"


def parse_range(header, size):
    """Return (start, end) inclusive, None for "whole file", or "416".

    Only single ranges are honoured; a multi-range request gets the whole file,
    which RFC 9110 allows and which is what many real servers do."""
    if not header:
        return None
    m = re.fullmatch(r"\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*", header)
    if not m:
        return None  # malformed or multi-range: ignore, as the RFC permits
    first, last = m.group(1), m.group(2)
    if first == "" and last == "":
        return None
    if first == "":  # suffix range: the last N bytes
        n = int(last)
        if n == 0 or size == 0:
            return "416"
        return (max(0, size - n), size - 1)
    start = int(first)
    end = int(last) if last != "" else size - 1
    if last != "" and end < start:
        return None  # syntactically invalid: ignore the header
    if start >= size:
        return "416"
    return (start, min(end, size - 1))


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive, as FFmpeg's http protocol uses it
    server_version = "mediaview-testserver/1"
    timeout = 60  # an idle keep-alive connection must not pin a thread forever

    def setup(self):
        super().setup()
        if isinstance(self.connection, ssl.SSLSocket):
            # The TLS handshake happens here, in the request's own thread, so a
            # client that refuses our certificate fails alone (handle_error).
            self.connection.do_handshake()

    def setup(self):
        # A small send buffer, as a real link's window is: the bytes a test counts as sent
        # are then close to what the client read, not megabytes parked in loopback buffers.
        self.request.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 128 * 1024)
        super().setup()

    def log_message(self, fmt, *args):
        pass  # the JSON log replaces the stderr noise

    def log_json(self, status, **extra):
        record = {
            "time": round(time.time(), 3),
            "method": self.command,
            "path": self.path,
            "range": self.headers.get("Range"),
            "status": status,
            "scheme": "https" if self.server.is_tls else "http",
            "user_agent": self.headers.get("User-Agent"),
        }
        record.update(extra)
        if log_file is not None:
            with log_lock:
                log_file.write(json.dumps(record) + "\n")
                log_file.flush()

    # -- entry points -------------------------------------------------------
    def do_GET(self):
        self.dispatch(send_body=True)

    def do_HEAD(self):
        self.dispatch(send_body=False)

    # -- simple answers -------------------------------------------------------
    def simple(self, status, body, ctype="text/plain; charset=utf-8",
               headers=(), send_body=True, close=False):
        self.log_json(status)
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        for k, v in headers:
            self.send_header(k, v)
        if close:
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if send_body:
            self.wfile.write(body)

    def dispatch(self, send_body):
        last_activity[0] = time.monotonic()
        path = urllib.parse.unquote(urllib.parse.urlsplit(self.path).path)
        parts = [p for p in path.split("/") if p != ""]
        mode = {"reset": None, "stall": None, "trickle": None, "lie": False,
                "no_range": False, "no_length": False, "http10": False, "chunked": False,
                "cut_chunked": None}
        try:
            while parts:
                head = parts[0]
                if head == "status" and len(parts) >= 2:
                    code = int(parts[1])
                    body = f"{code} injected by the test server\n".encode()
                    return self.simple(code, body, send_body=send_body)
                if head == "redirect-loop":
                    return self.simple(302, b"loop\n",
                                       headers=[("Location", self.path)],
                                       send_body=send_body)
                if head == "redirect" and len(parts) >= 2:
                    n = int(parts[1])
                    rest = "/".join(parts[2:])
                    target = f"/redirect/{n - 1}/{rest}" if n > 1 else f"/{rest}"
                    return self.simple(302, b"redirect\n",
                                       headers=[("Location", urllib.parse.quote(target))],
                                       send_body=send_body)
                if head == "redirect-file":
                    return self.simple(302, b"redirect\n", headers=[("Location", "file:///etc/passwd")],
                                       send_body=send_body)
                if head == "gzip-bomb":
                    name = "/".join(parts[1:]) or "bomb.mp4"
                    return self.simple(200, bomb_body(), ctype=content_type(name),
                                       headers=[("Content-Encoding", "gzip")], send_body=send_body)
                if head == "cut-chunked" and len(parts) >= 2:
                    mode["chunked"] = True
                    mode["cut_chunked"] = int(parts[1])
                    parts = parts[2:]
                    continue
                if head == "html":
                    return self.simple(200, HTML_PAGE, ctype="text/html; charset=utf-8",
                                       send_body=send_body)
                if head in ("reset", "stall", "trickle", "delay") and len(parts) >= 2:
                    value = int(parts[1])
                    if head == "delay":
                        stop_event.wait(value / 1000.0)
                    else:
                        mode[head] = value
                    parts = parts[2:]
                    continue
                if head == "lie-length":
                    mode["lie"] = True
                elif head == "no-range":
                    mode["no_range"] = True
                elif head == "no-length":
                    mode["no_length"] = True
                elif head == "http10":
                    mode["http10"] = True
                elif head == "chunked":
                    mode["chunked"] = True
                else:
                    break
                parts = parts[1:]
        except ValueError:
            return self.simple(400, b"bad number in fault prefix\n", send_body=send_body)
        self.serve_file(parts, mode, send_body)

    # -- files ------------------------------------------------------------------
    def serve_file(self, parts, mode, send_body):
        if any(p in ("..", ".") for p in parts):
            return self.simple(403, b"forbidden\n", send_body=send_body)
        full = os.path.join(self.server.root, *parts)
        if not parts or not os.path.isfile(full):
            return self.simple(404, b"not found\n", send_body=send_body)
        try:
            f = open(full, "rb")
        except OSError:
            return self.simple(403, b"unreadable\n", send_body=send_body)
        with f:
            st = os.fstat(f.fileno())
            size = st.st_size
            rng = None if mode["no_range"] else parse_range(self.headers.get("Range"), size)
            if rng == "416":
                return self.simple(416, b"range not satisfiable\n",
                                   headers=[("Content-Range", f"bytes */{size}")],
                                   send_body=send_body)
            start, end = rng if rng else (0, size - 1)
            length = end - start + 1 if size else 0
            status = 206 if rng else 200
            self.log_json(status, start=start, end=end, size=size)
            if mode["http10"]:
                # The status line says HTTP/1.0: no keep-alive, the close ends the body.
                self.protocol_version = "HTTP/1.0"
                self.close_connection = True
            self.send_response(status)
            self.send_header("Content-Type", content_type(full))
            if not mode["no_range"]:
                self.send_header("Accept-Ranges", "bytes")
            self.send_header("Last-Modified", email.utils.formatdate(st.st_mtime, usegmt=True))
            if rng:
                self.send_header("Content-Range", f"bytes {start}-{end}/{size}")
            if mode["chunked"]:
                self.send_header("Transfer-Encoding", "chunked")
                if mode["cut_chunked"] is not None:
                    self.close_connection = True
            elif mode["no_length"] or mode["http10"]:
                self.close_connection = True
                self.send_header("Connection", "close")
            elif mode["lie"]:
                # Claim more than exists; the client must notice the short body.
                self.send_header("Content-Length", str(length + max(1000, length)))
                self.close_connection = True
                self.send_header("Connection", "close")
            else:
                self.send_header("Content-Length", str(length))
            if mode["reset"] is not None or mode["stall"] is not None:
                self.close_connection = True
            self.end_headers()
            if not send_body:
                return
            f.seek(start)
            limit = length
            for key in ("reset", "stall"):
                if mode[key] is not None:
                    limit = min(limit, mode[key])
            if mode["chunked"]:
                self.copy_chunked(f, limit, mode["cut_chunked"])
                return
            sent = self.copy_body(f, limit, mode["trickle"])
            # What really left for this request (a client that stops reading closes early),
            # so tests can count the bytes a feature downloads.
            self.log_json("sent", bytes=sent, start=start)
            if mode["reset"] is not None:
                self.reset_connection()
            elif mode["stall"] is not None:
                stop_event.wait(STALL_SECONDS)

    def copy_body(self, f, remaining, rate):
        """Writes up to `remaining` bytes of `f`; returns how many were written."""
        total = remaining
        try:
            if rate:
                # Ten small writes a second look like a slow link, not a burst.
                step = max(1, rate // 10)
                while remaining > 0 and not stop_event.is_set():
                    data = f.read(min(step, remaining))
                    if not data:
                        break
                    self.wfile.write(data)
                    remaining -= len(data)
                    last_activity[0] = time.monotonic()
                    time.sleep(len(data) / rate)
            else:
                while remaining > 0:
                    data = f.read(min(CHUNK, remaining))
                    if not data:
                        break
                    self.wfile.write(data)
                    remaining -= len(data)
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            self.close_connection = True
        return total - remaining

    def copy_chunked(self, f, remaining, cut):
        """The body in 16 KiB chunks; with `cut`, a close after that many bytes, mid-chunk,
        and no last chunk, as a crashed upstream behind a proxy would leave it."""
        sent = 0
        try:
            while remaining > 0:
                data = f.read(min(16 * 1024, remaining))
                if not data:
                    break
                if cut is not None and sent + len(data) > cut:
                    part = data[:cut - sent]
                    self.wfile.write(b"%x\r\n" % len(data) + part)
                    self.wfile.flush()
                    self.close_connection = True
                    return
                self.wfile.write(b"%x\r\n" % len(data) + data + b"\r\n")
                sent += len(data)
                remaining -= len(data)
            if cut is None:
                self.wfile.write(b"0\r\n\r\n")
            self.close_connection = True
        except (BrokenPipeError, ConnectionResetError, ssl.SSLError, OSError):
            self.close_connection = True

    def reset_connection(self):
        """Abort with RST rather than FIN, as a crashed peer or middlebox would.

        SO_LINGER with a zero timeout makes close() discard and reset. Every
        makefile() reference must be closed too, or the fd stays open and
        socketserver's later shutdown(SHUT_WR) would send a polite FIN first."""
        self.close_connection = True
        try:
            self.wfile.flush()
            sock = self.connection
            if isinstance(sock, ssl.SSLSocket):
                # Skip the TLS close_notify: a reset peer does not say goodbye.
                sock = socket.socket(fileno=sock.detach())
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.rfile.close()
            self.wfile.close()
            sock.close()
        except OSError:
            pass


class Server(ThreadingHTTPServer):
    daemon_threads = True        # stalled handlers must not block exit
    allow_reuse_address = False  # port 0: never share
    request_queue_size = 64

    def __init__(self, root, context=None):
        super().__init__(("127.0.0.1", 0), Handler)
        self.root = root
        self.is_tls = context is not None
        self.context = context

    def get_request(self):
        sock, addr = super().get_request()
        # Headers and body go out in separate writes; without NODELAY, Nagle
        # plus the client's delayed ACK adds ~40 ms to every small response.
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.context is not None:
            # No handshake here: accept() runs in the serving thread, and one
            # slow or broken client must not block everyone (see Handler.setup).
            sock = self.context.wrap_socket(sock, server_side=True,
                                            do_handshake_on_connect=False,
                                            suppress_ragged_eofs=True)
        return sock, addr

    def handle_error(self, request, client_address):
        pass  # clients hanging up mid-body are the point of many tests


def watchdog(parent_pid, max_lifetime, max_idle):
    """Return when the server should stop on its own."""
    started = time.monotonic()
    while not stop_event.wait(1.0):
        now = time.monotonic()
        if now - started > max_lifetime or now - last_activity[0] > max_idle:
            break
        if parent_pid:
            try:
                os.kill(parent_pid, 0)
            except ProcessLookupError:
                break
            except PermissionError:
                pass


def main():
    global log_file
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("root")
    ap.add_argument("--port-file", required=True)
    ap.add_argument("--log")
    ap.add_argument("--parent-pid", type=int, default=0)
    ap.add_argument("--cert")
    ap.add_argument("--key")
    ap.add_argument("--max-lifetime", type=float, default=7200)
    ap.add_argument("--max-idle", type=float, default=7200)
    args = ap.parse_args()

    root = os.path.realpath(args.root)
    threading.Thread(target=bomb_body, daemon=True).start()
    if args.log:
        log_file = open(args.log, "a", buffering=1)

    servers = [Server(root)]
    if args.cert and args.key:
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.load_cert_chain(args.cert, args.key)
        servers.append(Server(root, ctx))

    lines = [f"{'https' if s.is_tls else 'http'} {s.server_address[1]}\n" for s in servers]
    tmp = args.port_file + ".tmp"
    with open(tmp, "w") as pf:
        pf.writelines(lines)
    os.replace(tmp, args.port_file)

    threads = [threading.Thread(target=s.serve_forever, kwargs={"poll_interval": 0.5},
                                daemon=True) for s in servers]
    for t in threads:
        t.start()
    try:
        watchdog(args.parent_pid, args.max_lifetime, args.max_idle)
    except KeyboardInterrupt:
        pass
    # Wake stalled handlers first; they are daemon threads and die with us.
    stop_event.set()
    for s in servers:
        s.shutdown()  # returns within one poll_interval
        s.server_close()


def on_sigterm(signum, frame):
    # testenv.sh stops us with SIGTERM; end as cleanly as on Ctrl-C.
    raise KeyboardInterrupt


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGTERM, on_sigterm)
    sys.exit(main())
