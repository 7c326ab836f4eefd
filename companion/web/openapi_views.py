"""The component schemas of the API's answers (the view, the summary, the others), generated from their
types in companion/view_types.py by pydantic, for the OpenAPI document (web/openapi.py).

OpenAPI 3.1 schemas are JSON Schema 2020-12, which pydantic writes: only a few touches are left. Built once,
the first time the document is asked for; pydantic is imported only then, never on the poll path.
"""

from __future__ import annotations

from functools import cache
from typing import Any

REF = "#/components/schemas/{model}"
INLINE = "PerTeam"  # `PerTeam[X]` is an object with `white` and `black`: written out where it is used


@cache
def answer_schemas() -> dict[str, Any]:
    """Each answer's type and every type it uses, by name (the type's name in view_types)."""
    # Imported here: a server loads pydantic (a few MB a worker) only if someone asks for the document.
    from pydantic import TypeAdapter

    from .. import view_types

    # A tuple of the answers' types, made at run time from view_types.ANSWERS (a type no static checker reads).
    answers = tuple[view_types.ANSWERS]  # type: ignore[valid-type]
    defs = TypeAdapter(answers).json_schema(ref_template=REF, mode="serialization")["$defs"]
    inline = {REF.format(model=name): defs.pop(name) for name in list(defs) if name.startswith(INLINE)}
    return {name: _tidy(schema, inline) for name, schema in defs.items()}


def _tidy(value: Any, inline: dict[str, Any]) -> Any:
    """Inline `PerTeam` objects, close every object (no other fields), drop pydantic's titles (the names say
    it) and write descriptions on one line (docstrings wrap)."""
    if isinstance(value, list):
        return [_tidy(item, inline) for item in value]
    if not isinstance(value, dict):
        return value
    if value.get("$ref") in inline:
        value = {**inline[value["$ref"]], **{k: v for k, v in value.items() if k != "$ref"}}
    tidy = {key: _tidy(item, inline) for key, item in value.items() if not (key == "title" and isinstance(item, str))}
    if isinstance(tidy.get("description"), str):
        tidy["description"] = " ".join(tidy["description"].split())
    if tidy.get("type") == "object":
        tidy["additionalProperties"] = False
    return tidy
