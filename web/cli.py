"""`mapsmith serve`: run the web app with waitress and show phones how to reach it."""

from __future__ import annotations

import argparse
import socket

# the waitress settings and why: web/server.py
from .server import DEFAULT_CONNECTION_LIMIT, DEFAULT_PER_CLIENT, DEFAULT_THREADS


def lan_address() -> str:
    """The address other devices on the Wi-Fi can reach (no packet is sent: UDP connect only picks a route)."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        sock.connect(("10.255.255.255", 1))
        return sock.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        sock.close()


def terminal_qr(text: str) -> str:
    import io

    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(text)
    qr.make(fit=True)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()


def bind(app, args: argparse.Namespace):
    """The waitress server, already listening: a busy port is found before anything is announced."""
    from .server import make_server

    return make_server(app, host=args.host, port=args.port, threads=args.threads, connections=args.connections,
                       per_client=args.connections_per_client, warm_photos=True)


def serve(args: argparse.Namespace) -> int:
    import errno
    import sys

    from . import create_app

    if not 0 < args.port < 65536:
        print(f"mapsmith serve: error: --port must be from 1 to 65535, not {args.port}", file=sys.stderr)
        return 2
    app = create_app()
    try:
        server = bind(app, args)
    except OSError as exc:
        if exc.errno == errno.EADDRINUSE:
            print(f"mapsmith serve: error: port {args.port} is already in use (is Mapsmith already running?); "
                  f"choose another one, e.g. --port {args.port + 1}", file=sys.stderr)
        else:
            print(f"mapsmith serve: error: cannot listen on {args.host}:{args.port}: {exc.strerror or exc}",
                  file=sys.stderr)
        return 2
    host = args.host
    shown = lan_address() if host in ("0.0.0.0", "::", "") else host
    url = f"http://{shown}:{args.port}/"
    app.config.setdefault("PUBLIC_URL", url)
    print(f"Mapsmith is running. Open {url} on the phones (same Wi-Fi).", flush=True)
    print(f"Mapsmith çalışıyor. Telefonlarda {url} adresini açın (aynı Wi-Fi).")
    if not args.no_qr:
        print(terminal_qr(url), flush=True)
    print(f"Database: {app.config['DATABASE'] if '://' not in app.config['DATABASE'] else 'PostgreSQL'}", flush=True)
    try:
        server.run()
    except KeyboardInterrupt:
        pass
    finally:
        server.close()
    return 0


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("serve", help="run the web app for the phones at the table")
    p.add_argument("--host", default="0.0.0.0", help="address to listen on (default: all, so phones can connect)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (default 8000)")
    p.add_argument("--threads", type=int, default=DEFAULT_THREADS,
                   help=f"worker threads (default {DEFAULT_THREADS})")
    p.add_argument("--connections", type=int, default=DEFAULT_CONNECTION_LIMIT,
                   help="open connections held at most (default 10000; capped by the open-file limit)")
    p.add_argument("--connections-per-client", type=int, default=DEFAULT_PER_CLIENT,
                   help="open connections one address may hold (default 500; 0 = no limit; loopback is exempt)")
    p.add_argument("--no-qr", action="store_true", help="do not print the QR code")
    p.set_defaults(func=serve)
