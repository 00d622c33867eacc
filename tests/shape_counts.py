"""Counts of the shapes the code should not have, read from its syntax tree (not grepped, so formatting cannot hide
one): a status or a bot level compared with a string, or given as one, instead of as a member of its enum; a
``# type: ignore`` for want of a typed bot; a ``dict[str, Any]`` where a typed shape (or the one JSON alias) belongs.

``python tests/shape_counts.py [ROOT]`` prints the counts and every site (ROOT: a checkout, this one by default);
``tests/test_shape.py`` holds them at zero (``dict[str, Any]`` at a ceiling that only goes down).
``python tests/shape_counts.py --typed [ROOT]`` asks mypy the first question by type instead (slow: a whole mypy
run).
"""
from __future__ import annotations

import ast
import re
import sys
import tokenize
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("bot", "cogs", "engines")
# What names a status or a bot level: ``table.status``, ``seat.level``, ``bot_level``, ``row["status"]``,
# ``end_reason``, ``first_round`` (an engine's decision ``kind`` is a ``Literal``: mypy's strict equality checks those).
SUBJECT = re.compile(r"^(\w+_)?status(es)?$|^(bot_)?levels?$|^end_reason$|^first_round$")


def subject_name(node: ast.expr) -> str | None:
    """The name an operand reads a value by (``a.b.status`` -> status, ``row["status"]`` -> status)."""
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return node.slice.value
    if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
        return node.args[0].value
    return None


def is_subject(node: ast.expr) -> bool:
    name = subject_name(node)
    return name is not None and SUBJECT.search(name) is not None


def string_collections(tree: ast.Module) -> set[str]:
    """Module-level names bound to a tuple, list or set of strings only (``QUICK = ("easy", "normal")``), or to a
    dict keyed by strings only: comparing with one of them, or looking one up in it, is comparing with strings."""
    names: set[str] = set()
    for node in tree.body:
        if (isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None
                and (is_strings(node.value, set()) or is_string_keyed(node.value, set()))):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names


def is_string_keyed(node: ast.expr, named: set[str]) -> bool:
    """A dict display keyed by strings only, or a module-level name bound to one."""
    if isinstance(node, ast.Dict):
        return bool(node.keys) and all(k is not None and is_string(k) for k in node.keys)
    return isinstance(node, ast.Name) and node.id in named


def string_lookup(node: ast.expr, named: set[str]) -> bool:
    """``{"running": …}[table.status]`` or ``{"running": …}.get(table.status)``: a comparison with strings too."""
    if isinstance(node, ast.Subscript):
        return is_subject(node.slice) and is_string_keyed(node.value, named)
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get"
            and bool(node.args) and is_subject(node.args[0]) and is_string_keyed(node.func.value, named))


def is_string(node: ast.expr) -> bool:
    """A string constant, or an expression that can be one: ``"finished" if over else …``, ``level or "normal"``."""
    if isinstance(node, ast.IfExp):
        return is_string(node.body) or is_string(node.orelse)
    if isinstance(node, ast.BoolOp):
        return any(is_string(value) for value in node.values)
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def is_strings(node: ast.expr, named: set[str]) -> bool:
    """A literal collection of strings, or a module-level name bound to one."""
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return bool(node.elts) and all(is_string(e) for e in node.elts)
    return isinstance(node, ast.Name) and node.id in named


def string_comparisons(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every comparison of a status/level/kind with a string: ``==``/``!=``/``is`` with a string, ``in`` a literal
    collection of strings, a lookup in a dict keyed by strings, and ``case "…":`` in a ``match`` on one."""
    named = string_collections(tree)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Subscript, ast.Call)) and string_lookup(node, named):
            yield node.lineno, ast.unparse(node)
        elif isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            for op, left, right in zip(node.ops, operands, operands[1:], strict=False):
                if isinstance(op, (ast.In, ast.NotIn)):
                    hit = is_subject(left) and is_strings(right, named)
                else:
                    hit = (is_subject(left) and is_string(right)) or (is_string(left) and is_subject(right))
                if hit:
                    yield node.lineno, ast.unparse(node)
        elif isinstance(node, ast.Match) and is_subject(node.subject):
            for case in node.cases:
                if any(isinstance(p, ast.MatchValue) and is_string(p.value) for p in ast.walk(case.pattern)):
                    yield case.pattern.lineno, f"match {ast.unparse(node.subject)}: case {ast.unparse(case.pattern)}"


def named_subject(name: str | None) -> bool:
    return name is not None and SUBJECT.search(name) is not None


def string_writes(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every status/level given as a string: ``status="running"`` passed, ``row.status = "finished"`` assigned,
    ``level: str = "normal"`` as a parameter's default (what a comparison by member would then miss)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            for keyword in node.keywords:
                if named_subject(keyword.arg) and (is_string(keyword.value) or is_strings(keyword.value, set())):
                    yield keyword.value.lineno, f"{keyword.arg}={ast.unparse(keyword.value)}"
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if (node.value is not None and (is_string(node.value) or is_strings(node.value, set()))
                    and any(is_subject(t) for t in targets)):
                yield node.lineno, ast.unparse(node)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            args = node.args
            positional = [*args.posonlyargs, *args.args]
            pairs = [*zip(positional[len(positional) - len(args.defaults):], args.defaults, strict=True),
                     *((a, d) for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None)]
            for arg, default in pairs:
                if named_subject(arg.arg) and is_string(default):
                    yield default.lineno, f"def {node.name}(... {arg.arg}={ast.unparse(default)})"


# Discord's limits a cut, a split or a page could retype (bot/discord_rules/limits.py names them): characters of
# labels, values, thread names, custom ids (100), a button label (80), a placeholder (150), embed parts (256, 1024,
# 2048, 4096), message content (2000), text inputs (4000), the embeds of a message (6000), options and choices (25).
LIMIT_VALUES = frozenset({25, 80, 100, 150, 256, 1024, 2000, 2048, 4000, 4096, 6000})
LIMITS_MODULE = Path("bot/discord_rules/limits.py")


def is_limit(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and type(node.value) is int and node.value in LIMIT_VALUES


def is_len(node: ast.expr) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "len"


def limit_literals(tree: ast.Module, lines: list[str]) -> Iterator[tuple[int, str]]:
    """Every literal of one of Discord's limits where the code applies a limit: a slice's bound or step
    (``name[:100]``, ``hand[i:i + 25]``), a comparison with a length, ``range``'s step (or any bound of a range up
    to a length), ``min``/``max``, and a
    module constant whose line says it is Discord's (``EMBED_CHARS = 4096  # Discord's limit ...``); and the
    token's 15 minutes as ``15 * 60``."""
    for node in ast.walk(tree):
        found: list[ast.expr] = []
        if isinstance(node, ast.Slice):
            found = [n for n in (node.lower, node.upper, node.step) if n is not None]
            found += [side for n in found if isinstance(n, ast.BinOp) for side in (n.left, n.right)]
        elif isinstance(node, ast.Compare) and any(map(is_len, [node.left, *node.comparators])):
            found = [node.left, *node.comparators]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in ("min", "max"):
            found = list(node.args)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "range":
            found = node.args[2:] if not any(map(is_len, node.args)) else list(node.args)  # a step, or up to a length
        elif isinstance(node, ast.Assign) and node in tree.body and "Discord" in lines[node.lineno - 1]:
            found = [node.value]
        elif (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult)
              and {getattr(node.left, "value", None), getattr(node.right, "value", None)} == {15, 60}):
            yield node.lineno, ast.unparse(node)
        for literal in found:
            if is_limit(literal):
                yield literal.lineno, lines[literal.lineno - 1].strip()


def limit_sites(root: Path = ROOT) -> list[str]:
    out = []
    for path in python_files(root):
        if path.relative_to(root) == LIMITS_MODULE:
            continue
        text = path.read_text(encoding="utf-8")
        found = sorted(set(limit_literals(ast.parse(text), text.splitlines())))
        out += [f"{path.relative_to(root)}:{line}: {code}" for line, code in found]
    return out


def untyped_bot(path: Path) -> Iterator[tuple[int, str]]:
    """Every ``# type: ignore`` for want of a typed bot: a cog reading the bot's shared parts through
    ``commands.Bot`` or ``interaction.client`` instead of ``GameHostBot`` (``cogs.common.as_host``)."""
    with path.open("rb") as source:
        for token in tokenize.tokenize(source.readline):
            if token.type == tokenize.COMMENT and "type: ignore" in token.string and "GameHostBot" in token.string:
                yield token.start[0], token.string


def python_files(root: Path) -> Iterator[Path]:
    for package in PACKAGES:
        yield from sorted((root / package).rglob("*.py"))


def sites(find: Callable[[ast.Module], Iterator[tuple[int, str]]], root: Path = ROOT) -> list[str]:
    out = []
    for path in python_files(root):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out += [f"{path.relative_to(root)}:{line}: {text}" for line, text in sorted(find(tree))]
    return out


def comment_sites(find: Callable[[Path], Iterator[tuple[int, str]]], root: Path = ROOT) -> list[str]:
    return [f"{path.relative_to(root)}:{line}: {text}" for path in python_files(root) for line, text in find(path)]


# A mapping of strings to anything, however spelt: ``dict``/``Dict``/``Mapping``/``MutableMapping`` of ``str`` to
# ``Any``/``typing.Any``, in an annotation, an alias, a ``cast`` or a quoted forward reference.
MAPPINGS = frozenset({"dict", "Dict", "Mapping", "MutableMapping"})


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    return node.attr if isinstance(node, ast.Attribute) else None


def is_str_to_any(node: ast.AST) -> bool:
    return (isinstance(node, ast.Subscript) and _name(node.value) in MAPPINGS and isinstance(node.slice, ast.Tuple)
            and len(node.slice.elts) == 2 and _name(node.slice.elts[0]) == "str" and _name(node.slice.elts[1]) == "Any")


def quoted(node: ast.AST) -> ast.AST | None:
    """A string that reads as a type expression (``"dict[str, Any]"``), parsed; None for any other string."""
    if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and "Any" in node.value):
        return None
    try:
        return ast.parse(node.value, mode="eval")
    except SyntaxError:
        return None


def str_to_any(tree: ast.Module) -> Iterator[tuple[int, str]]:
    """Every ``dict[str, Any]`` (or a ``Mapping`` of ``str`` to ``Any``) the code spells."""
    for node in ast.walk(tree):
        if is_str_to_any(node):
            yield node.lineno, f"{ast.unparse(node)} (column {node.col_offset + 1})"
        elif (inner := quoted(node)) is not None:
            yield from ((node.lineno, f"{ast.unparse(n)} (quoted)") for n in ast.walk(inner) if is_str_to_any(n))


COUNTS: dict[str, Callable[[Path], list[str]]] = {
    "status/level compared with a string": lambda root: sites(string_comparisons, root),
    "status/level given as a string": lambda root: sites(string_writes, root),
    "type ignores for want of a typed bot": lambda root: comment_sites(untyped_bot, root),
    "Discord limits as literals outside bot/discord_rules/limits.py": limit_sites,
    "dict[str, Any]": lambda root: sites(str_to_any, root),
}


# The enums of statuses and levels, by the module that declares them; ``typed_comparisons`` makes them plain.
STATUS_ENUMS = {"bot/storage/rows.py": ("GameStatus", "EndReason", "TablesIn"), "bot/levels.py": ("BotLevel",),
                "bot/tournaments/models.py": ("TournamentStatus", "EntrantStatus", "TableStatus", "FirstRound")}


def typed_comparisons(root: Path = ROOT) -> list[str]:
    """The same question asked of the types, not the names: in a copy of ``root`` whose status and level enums
    are plain ``Enum`` (a ``StrEnum`` equals its text, so mypy lets ``status == "running"`` pass), every
    comparison of one with a string is a mypy "Non-overlapping" error (strict equality). Slow (a whole mypy
    run): ``python tests/shape_counts.py --typed [ROOT]``."""
    import shutil
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        copy = Path(folder) / "tree"
        for part in (*PACKAGES, "pyproject.toml"):
            (shutil.copytree if (root / part).is_dir() else shutil.copy)(root / part, copy / part)
        for module, names in STATUS_ENUMS.items():
            path = copy / module
            if not path.exists():
                continue
            text = path.read_text(encoding="utf-8")
            text = text.replace("from enum import StrEnum", "from enum import Enum, StrEnum")
            for name in names:
                text = text.replace(f"class {name}(StrEnum):", f"class {name}(Enum):")
            path.write_text(text, encoding="utf-8")
        run = subprocess.run([sys.executable, "-m", "mypy", "--strict-equality", "--no-incremental"], cwd=copy,
                             capture_output=True, text=True)
    return [line for line in run.stdout.splitlines() if "Non-overlapping" in line]


def main(argv: list[str]) -> None:
    if argv[:1] == ["--typed"]:
        root = Path(argv[1]).resolve() if len(argv) > 1 else ROOT
        found = typed_comparisons(root)
        print("\n".join(found))
        print(f"status/level enums compared with a string, by type (mypy, the enums made plain): {len(found)}")
        return
    root = Path(argv[0]).resolve() if argv else ROOT
    for what, count in COUNTS.items():
        found = count(root)
        print("\n".join(found))
        print(f"{what}: {len(found)}")


if __name__ == "__main__":
    main(sys.argv[1:])
