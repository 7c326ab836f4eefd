"""JSON Schema fragments as plain data (the OpenAPI document's vocabulary), shared by the field kinds
(rules.fields) and the document itself (web.openapi)."""

from __future__ import annotations


def described(schema: dict, description: str | None) -> dict:
    return {**schema, "description": description} if description else schema


def nullable(schema: dict) -> dict:
    """The schema, or null (written as pydantic writes it for the answers)."""
    schema = dict(schema)
    description = schema.pop("description", None)
    return described({"anyOf": [schema, {"type": "null"}]}, description)


def obj(properties: dict, description: str | None = None, required=None, closed: bool = True) -> dict:
    """An object with these properties: all required unless `required` names some; no others if `closed`."""
    schema = {"type": "object", "properties": properties}
    if closed:
        schema["additionalProperties"] = False
    required = list(properties) if required is None else list(required)
    if required:
        schema["required"] = required
    return described(schema, description)


def array(items: dict, length: int | None = None, description: str | None = None, **extra) -> dict:
    schema = {"type": "array", "items": items, **extra}
    if length is not None:
        schema["minItems"] = schema["maxItems"] = length
    return described(schema, description)


def enum(values, description: str | None = None) -> dict:
    return described({"type": "string", "enum": list(values)}, description)


def integer(description: str | None = None, minimum: int | None = None, maximum: int | None = None) -> dict:
    schema = {"type": "integer"}
    if minimum is not None:
        schema["minimum"] = minimum
    if maximum is not None:
        schema["maximum"] = maximum
    return described(schema, description)


def string(description: str | None = None) -> dict:
    return described({"type": "string"}, description)


def boolean(description: str | None = None) -> dict:
    return described({"type": "boolean"}, description)
