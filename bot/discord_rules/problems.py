"""Collects field errors at their paths and builds Discord's "Invalid Form Body" answer from them."""
from __future__ import annotations

from typing import Any, Optional, Sequence

from engines import Json

Path = tuple[Any, ...]
Answer = tuple[int, dict]


class Problems:
    """Field errors found in one request body, each at its path (``("embeds", 0, "title")``)."""

    def __init__(self, prefix: Path = ()) -> None:
        self.prefix = tuple(prefix)  # e.g. ("data",) for the message inside an interaction callback
        self.found: list[tuple[Path, str, str]] = []

    def __bool__(self) -> bool:
        return bool(self.found)

    def add(self, path: Path, code: str, message: str) -> None:
        self.found.append((self.prefix + tuple(path), code, message))

    def length(self, path: Path, value: Any, high: int, low: int = 0, *, required: bool = False) -> None:
        """A string field: present when ``required``, and ``low``..``high`` characters long when present."""
        if value is None:
            if required:
                self.add(path, "BASE_TYPE_REQUIRED", "This field is required")
            return
        if not isinstance(value, str):
            self.add(path, "STRING_TYPE_CONVERT", "Could not interpret value as string.")
        elif low and not low <= len(value) <= high:
            self.add(path, "BASE_TYPE_BAD_LENGTH", f"Must be between {low} and {high} in length.")
        elif len(value) > high:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")

    def count(self, path: Path, items: Optional[Sequence], high: int, low: int = 0) -> None:
        """An array field of ``low``..``high`` items (absent counts as empty)."""
        n = len(items or [])
        if n > high:
            self.add(path, "BASE_TYPE_MAX_LENGTH", f"Must be {high} or fewer in length.")
        elif n < low:
            self.add(path, "BASE_TYPE_MIN_LENGTH", f"Must be {low} or more in length.")

    def between(self, path: Path, value: Any, low: int, high: int) -> None:
        """An optional integer field within ``low``..``high``."""
        if value is None:
            return
        if not isinstance(value, int) or isinstance(value, bool):
            self.add(path, "NUMBER_TYPE_COERCE", f"Value \"{value}\" is not int.")
        elif value < low:
            self.add(path, "NUMBER_TYPE_MIN", f"Int value should be greater than or equal to {low}.")
        elif value > high:
            self.add(path, "NUMBER_TYPE_MAX", f"Int value should be less than or equal to {high}.")

    def answer(self) -> Optional[Answer]:
        if not self.found:
            return None
        errors: Json = {}
        for path, code, message in self.found:
            node = errors
            for key in path:
                child = node.setdefault(str(key), {})
                assert isinstance(child, dict)  # a path's parts are objects; only "_errors" holds a list
                node = child
            found = node.setdefault("_errors", [])
            assert isinstance(found, list)
            found.append({"code": code, "message": message})
        return 400, {"code": 50035, "message": "Invalid Form Body", "errors": errors}


def error_lines(answer: Optional[Answer]) -> list[str]:
    """``path: CODE message`` for each error of an answer (for people reading a failure)."""
    if answer is None:
        return []
    body = answer[1]
    if "errors" not in body:
        return [f"{body.get('code')}: {body.get('message')}"]
    lines: list[str] = []

    def walk(node: dict, path: list[str]) -> None:
        for key, value in node.items():
            if key == "_errors":
                lines.extend(f"{'.'.join(path)}: {e['code']} {e['message']}" for e in value)
            else:
                walk(value, [*path, key])

    walk(body["errors"], [])
    return lines
