"""JSON Schema fragments as plain data (the OpenAPI document's vocabulary), shared by the field kinds
(rules.fields) and the document itself (web.openapi)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Schema = dict[str, Any]  # a JSON Schema fragment


def described(schema: Schema, description: str | None) -> Schema:
    return {**schema, "description": description} if description else schema


def nullable(schema: Schema) -> Schema:
    """The schema, or null (written as pydantic writes it for the answers)."""
    schema = dict(schema)
    description = schema.pop("description", None)
    return described({"anyOf": [schema, {"type": "null"}]}, description)


def obj(
    properties: dict[str, Schema],
    description: str | None = None,
    required: Iterable[str] | None = None,
    closed: bool = True,
) -> Schema:
    """An object with these properties: all required unless `required` names some; no others if `closed`."""
    schema: Schema = {"type": "object", "properties": properties}
    if closed:
        schema["additionalProperties"] = False
    names = list(properties) if required is None else list(required)
    if names:
        schema["required"] = names
    return described(schema, description)


def array(items: Schema, length: int | None = None, description: str | None = None, **extra: object) -> Schema:
    schema: Schema = {"type": "array", "items": items, **extra}
    if length is not None:
        schema["minItems"] = schema["maxItems"] = length
    return described(schema, description)


def enum(values: Iterable[str], description: str | None = None) -> Schema:
    return described({"type": "string", "enum": list(values)}, description)


def integer(description: str | None = None, minimum: int | None = None, maximum: int | None = None) -> Schema:
    schema: Schema = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return described(schema, description)


def string(description: str | None = None) -> Schema:
    return described({"type": "string"}, description)


def boolean(description: str | None = None) -> Schema:
    return described({"type": "boolean"}, description)
