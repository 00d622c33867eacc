"""No user-facing text outside the catalogs: every string literal in cogs/ and bot/render/ that reads like
words must be a docstring, a log message, or a slash-command string (localised by the Translator and
checked by test_command_localisation)."""
from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
WORDS = re.compile(r"[A-Za-z]{2,}[,.!?']?\s+[A-Za-z]{2,}")
TRANSLATED_CALLS = {"describe", "Group", "command", "Choice", "choices", "rename"}  # app_commands: Translator
NOT_SHOWN = {"getLogger", "debug", "info", "warning", "error", "exception", "critical", "compile", "fullmatch",
             "match", "search", "sub", "split", "ValueError", "RuntimeError", "TypeError", "KeyError",
             "AssertionError", "NotImplementedError", "t", "has_key"}


def call_name(node: ast.Call) -> str:
    f = node.func
    return f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""


def offending_literals(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    allowed: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Module)):
            body = getattr(node, "body", [])
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                allowed.add(id(body[0].value))
        if isinstance(node, ast.Call) and call_name(node) in TRANSLATED_CALLS | NOT_SHOWN:
            for sub in ast.walk(node):
                allowed.add(id(sub))
        if isinstance(node, ast.Assert):
            for sub in ast.walk(node):
                allowed.add(id(sub))
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):  # attribute docstrings
            allowed.add(id(node.value))
    # Constants written once and passed to slash-command decorators are Translator strings too.
    translated_names = {sub.id for node in ast.walk(tree) if isinstance(node, ast.Call)
                        and call_name(node) in TRANSLATED_CALLS for sub in ast.walk(node) if isinstance(sub, ast.Name)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id in translated_names
                                                for t in node.targets):
            allowed.add(id(node.value))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in allowed:
            if WORDS.search(node.value):
                found.append((node.lineno, node.value))
    return found


def test_no_user_facing_literal_outside_the_catalogs() -> None:
    paths = sorted((ROOT / "cogs").rglob("*.py")) + sorted((ROOT / "bot" / "render").rglob("*.py"))
    assert len(paths) > 5
    problems = [f"{p.relative_to(ROOT)}:{line}: {text!r}" for p in paths for line, text in offending_literals(p)]
    assert not problems, "user-facing text must come from the catalogs via t():\n" + "\n".join(problems)


def test_the_scan_catches_a_literal(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('async def f(i):\n    """Doc string is fine."""\n'
                      '    await i.response.send_message("Your turn now")\n')
    assert offending_literals(sample) == [(3, "Your turn now")]
