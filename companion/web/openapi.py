"""The OpenAPI 3 description of the JSON API, served at /api/openapi.json."""


def openapi_document() -> dict:
    return {"openapi": "3.0.3", "info": {"title": "Decrypto Companion API", "version": "1"}, "paths": {}}
