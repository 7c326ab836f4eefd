"""scripts/cluster.py's own pieces that need no PostgreSQL (the cluster itself: tests/test_cluster.py)."""

from __future__ import annotations

import socket

from scripts.cluster import waiting_connections


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
