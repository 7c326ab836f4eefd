"""Decrypto Companion: play Decrypto around a real table, with phones."""

from .app import create_app

__all__ = ["create_app"]
