"""What truly is any JSON, named once: a JSON object (``Json``) of pydantic's ``JsonValue``.

For what the code reads without knowing its shape: a game's options before its engine validates them, an action
before ``parse_action``, a stored row's JSON. What the code builds itself has a typed shape instead (a model, a
``TypedDict``). Not for a pydantic model's field whose values are not checked now: ``JsonValue`` validates (it
refuses a tuple), and a stored state's or record's digest must not change.
"""
from pydantic import JsonValue

Json = dict[str, JsonValue]

__all__ = ["Json", "JsonValue"]
