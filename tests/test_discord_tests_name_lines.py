"""The Discord behaviour tests name the catalog line they check (``says(text, key, **fields)``, ``Key(key)``), never
its English wording: a string literal tested with ``in`` / ``not in`` that reads like words and is part of an English
catalog line is refused here, so a wording change in the catalogs cannot break a behaviour test."""
from __future__ import annotations

import ast
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PROSE = re.compile(r"[A-Za-z]{3,} [a-z]")  # at least two words: "bonus turn", "has started"


def english_lines() -> list[str]:
    lines: list[str] = []
    for path in (ROOT / "bot" / "locales" / "en").glob("*.json"):
        lines += [v for v in json.loads(path.read_text(encoding="utf-8")).values() if isinstance(v, str)]
    return lines


def asserted_wording(path: Path, catalog: list[str]) -> list[tuple[int, str]]:
    """(line, literal) of each ``"…" in x`` / ``"…" not in x`` whose literal is English prose from the catalog."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Compare) or not any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops):
            continue
        left = node.left
        if isinstance(left, ast.Constant) and isinstance(left.value, str) and PROSE.search(left.value) \
                and any(left.value in line for line in catalog):
            found.append((node.lineno, left.value))
    return sorted(found)


def test_discord_tests_assert_catalog_lines_not_english_wording() -> None:
    catalog = english_lines()
    found = {f"{path.name}:{line}": literal for path in sorted((ROOT / "tests").glob("test_discord_*.py"))
             for line, literal in asserted_wording(path, catalog)}
    assert found == {}, f"assert the catalog line (says(text, key, **fields)) instead of its wording: {found}"


def test_the_check_finds_asserted_wording(tmp_path: Path) -> None:
    sample = tmp_path / "test_discord_sample.py"
    sample.write_text('def test_x(r):\n    assert "bonus turn" in r.text and "alice" in r.text\n'
                      '    assert "nothing here at all" not in r.text\n', encoding="utf-8")
    assert asserted_wording(sample, ["Play the bonus turn", "there is nothing here at all"]) == [
        (2, "bonus turn"), (3, "nothing here at all")]
