"""scripts/cluster.py's own pieces that need no PostgreSQL (the cluster itself: tests/test_cluster.py)."""

from __future__ import annotations

import http.server
import os
import socket
import subprocess
import sys
import threading

from scripts.cluster import waiting_connections

from .guide import guide_lines
from .server import ROOT


def test_waiting_connections_counts_what_the_kernel_completed_and_no_one_took_in():
    """A rolling restart waits on this before stopping a drained server: a connection still waiting there
    when the server closes its listening socket is reset, and HAProxy answers its request 502."""
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        port = listener.getsockname()[1]
        assert waiting_connections(port) is None  # bound, not listening
        listener.listen(8)
        assert waiting_connections(port) == 0
        clients = [socket.create_connection(("127.0.0.1", port)) for _ in range(2)]
        try:
            assert waiting_connections(port) == 2
            taken, _ = listener.accept()
            taken.close()
            assert waiting_connections(port) == 1
        finally:
            for client in clients:
                client.close()


def test_decrypto_drain_takes_a_server_out_of_haproxy_and_back(tmp_path):
    """A rolling restart's step, as docs/operating.md runs it: `decrypto drain app1` on HAProxy's admin socket
    (docs/haproxy.cfg), then `--ready`; an unknown server is refused in HAProxy's words, a socket that is not
    there with the option that names another."""
    from scripts.cluster import HAProxy, haproxy_config

    from .server import free_port

    class Healthy(http.server.BaseHTTPRequestHandler):  # a server HAProxy's health checks find up
        def do_GET(self):
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args):
            pass

    backends = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), Healthy) for _ in range(2)]
    for backend in backends:
        threading.Thread(target=backend.serve_forever, daemon=True).start()
    socket_path = tmp_path / "admin.sock"
    servers = {f"app{i}": f"127.0.0.1:{backend.server_port}" for i, backend in enumerate(backends, start=1)}
    proxy = HAProxy(haproxy_config(f"127.0.0.1:{free_port()}", servers, socket_path), tmp_path, socket_path)
    proxy.start()
    try:
        proxy.wait_until_up("app1")
        env = {**os.environ}
        drain, ready = [line for line in guide_lines() if line.startswith(".venv/bin/decrypto drain ")]
        for line, state in ((drain, "DRAIN"), (ready, None)):  # as docs/operating.md writes them, the socket ours
            done = subprocess.run(
                ["bash", "-c", f"{line} --socket {socket_path}"],
                cwd=ROOT,
                env=env,
                capture_output=True,
                text=True,
                check=False,
            )
            assert done.returncode == 0, done.stderr
            status = proxy.servers()["app1"]["status"]
            assert (state in status) if state else "DRAIN" not in status, status
        refused = subprocess.run(
            [sys.executable, "-m", "companion.cli", "drain", "app9", "--socket", str(socket_path)],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert refused.returncode == 1 and "app9" in refused.stderr
        nowhere = subprocess.run(
            [sys.executable, "-m", "companion.cli", "drain", "app1", "--socket", str(tmp_path / "none.sock")],
            cwd=ROOT, env=env, capture_output=True, text=True, check=False,
        )  # fmt: skip
        assert nowhere.returncode == 1 and "none.sock" in nowhere.stderr and "--socket" in nowhere.stderr
        assert "Traceback" not in nowhere.stderr
    finally:
        proxy.stop()
        for backend in backends:
            backend.shutdown()
