"""The root certificate the app hands out (ROOT_CERT, companion/root_cert.py): the one certificate, never a key."""

from __future__ import annotations

import subprocess
import sys
import uuid

import pytest

from companion import create_app
from companion.qr import qr_svg

from .api import browser, table_path
from .conftest import database_url
from .server import ROOT


def authority(folder, name="Table Root", ca=True):
    """A certificate (and its key, beside it) as `openssl` makes them: a certificate authority's, or not."""
    folder.mkdir(parents=True, exist_ok=True)
    certificate, key = folder / f"{name}.crt", folder / f"{name}.key"
    constraints = "critical,CA:TRUE" if ca else "critical,CA:FALSE"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2",
         "-subj", f"/CN={name}", "-addext", f"basicConstraints={constraints}",
         "-keyout", str(key), "-out", str(certificate)],
        check=True, capture_output=True,
    )  # fmt: skip
    return certificate, key


def intermediate(folder, root, root_key):
    """A certificate authority's certificate that `root` signed (as Caddy's intermediate.crt is)."""
    key, request, certificate = folder / "intermediate.key", folder / "intermediate.csr", folder / "intermediate.crt"
    subprocess.run(
        ["openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
         "-subj", "/CN=Table Intermediate", "-keyout", str(key), "-out", str(request)],
        check=True, capture_output=True,
    )  # fmt: skip
    (folder / "ca.ext").write_text("basicConstraints=critical,CA:TRUE\n")
    subprocess.run(
        ["openssl", "x509", "-req", "-in", str(request), "-CA", str(root), "-CAkey", str(root_key), "-days", "2",
         "-extfile", str(folder / "ca.ext"), "-out", str(certificate)],
        check=True, capture_output=True,
    )  # fmt: skip
    return certificate


def make_app(tmp_path, **config):
    return create_app(
        {"TESTING": True, "SECRET_KEY": "t-" + uuid.uuid4().hex, "DATABASE_URL": database_url(tmp_path), **config}
    )


def test_the_app_hands_out_the_certificate_and_the_table_screen_offers_it(tmp_path):
    certificate, _ = authority(tmp_path / "ca")
    app = make_app(tmp_path, ROOT_CERT=str(certificate), PUBLIC_URL="https://192.168.1.20:8443/")
    client = app.test_client()
    answer = client.get("/root.crt")
    assert answer.status_code == 200 and answer.data.strip() == certificate.read_bytes().strip()
    assert answer.mimetype == "application/x-x509-ca-cert"
    table = browser(app)
    table.post("/games", data={"mode": "standard", "csrf_token": table.csrf})
    page = table.get(table_path_of(table)).get_data(as_text=True)
    assert qr_svg("http://192.168.1.20/root.crt") in page and "Table Root" in page
    assert "PRIVATE KEY" not in page


def table_path_of(client) -> str:
    """The table page of the game this browser just created (its cookie holds the game's key)."""
    with client.session_transaction() as session:
        game_id = next(iter(session["tables"]))
    return f"/table/{game_id}"


def test_without_a_root_certificate_there_is_none_to_fetch_nor_to_scan(app, client):
    assert client.get("/root.crt").status_code == 404
    from tools.driver import ApiGame

    game = ApiGame(client, start=False)
    assert "details class=\"trust\"" not in client.get(table_path(client, game.host)).get_data(as_text=True)


@pytest.mark.parametrize("pointed_at", ["key", "bundle", "leaf", "intermediate", "der", "two", "nothing", "text"])
def test_the_app_refuses_to_start_with_anything_but_one_authority_certificate(tmp_path, pointed_at):
    certificate, key = authority(tmp_path / "ca")
    leaf, _ = authority(tmp_path / "leaf", name="leaf", ca=False)
    path = tmp_path / "given"
    contents = {
        "key": key.read_bytes(),
        "bundle": certificate.read_bytes() + key.read_bytes(),
        "leaf": leaf.read_bytes(),
        "intermediate": intermediate(tmp_path / "ca", certificate, key).read_bytes(),
        "der": subprocess.run(
            ["openssl", "x509", "-in", str(certificate), "-outform", "DER"], capture_output=True, check=True
        ).stdout,
        "two": certificate.read_bytes() + leaf.read_bytes(),
        "text": b"hello\n",
    }
    if pointed_at != "nothing":
        path.write_bytes(contents[pointed_at])
    with pytest.raises(RuntimeError, match="ROOT_CERT"):
        make_app(tmp_path, ROOT_CERT=str(path))


def test_serve_refuses_a_key_in_one_sentence_before_starting_anything(tmp_path):
    _, key = authority(tmp_path / "ca")
    started = subprocess.run(
        [sys.executable, "-m", "companion.cli", "serve"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", "ROOT_CERT": str(key), "PORT": "1"},
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert started.returncode == 1
    assert started.stderr.startswith("Not starting: ROOT_CERT:") and "private key" in started.stderr
    assert "BEGIN" not in started.stdout + started.stderr
