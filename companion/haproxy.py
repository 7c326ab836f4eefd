"""HAProxy's admin socket (its management guide's "runtime API"), for a rolling restart: `decrypto drain
app1` stops HAProxy sending new connections to a server while those under way carry on, `decrypto drain
app1 --ready` takes it back once its health checks pass (docs/haproxy.cfg opens the socket)."""

from __future__ import annotations

import socket

BACKEND = "decrypto"  # docs/haproxy.cfg's backend
ADMIN_SOCKET = "/run/haproxy/decrypto.sock"  # docs/haproxy.cfg's `stats socket`


def command(admin_socket: str, line: str) -> str:
    """One command on the admin socket, and its answer."""
    with socket.socket(socket.AF_UNIX) as admin:
        admin.settimeout(10)
        try:
            admin.connect(admin_socket)
        except OSError as unreachable:  # said with the setting that fixes it
            raise OSError(
                f"HAProxy's admin socket {admin_socket} answers nothing ({unreachable.strerror or unreachable}): "
                "is HAProxy running with docs/haproxy.cfg's `stats socket`? Name another with --socket PATH."
            ) from None
        admin.sendall(line.encode() + b"\n")
        answer = b""
        while chunk := admin.recv(65536):
            answer += chunk
    return answer.decode()


def set_state(admin_socket: str, server: str, state: str) -> None:
    """ "drain": no new connection goes to `server`, those under way carry on; "ready": back in."""
    answer = command(admin_socket, f"set server {BACKEND}/{server} state {state}").strip()
    if answer:
        raise ValueError(f"HAProxy, for {BACKEND}/{server}: {answer}")  # (an unknown server, say)
