"""Every relative link in README.md and docs/ leads somewhere: to a file or folder of the repository and, with a
``#anchor``, to a heading of that markdown file as GitHub names it (lower case, punctuation dropped, spaces as
hyphens, a repeated heading numbered ``-1``, ``-2``, …). Links in code are not links; web addresses are not
checked (no test reaches the internet)."""
from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FENCE = re.compile(r"^```.*?^```", re.S | re.M)
CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.M)


def documents(root: Path) -> list[Path]:
    return [root / "README.md", *sorted((root / "docs").rglob("*.md"))]


def anchors(doc: Path) -> set[str]:
    """The anchors GitHub gives the headings of ``doc``."""
    seen: dict[str, int] = {}
    out = set()
    for heading in HEADING.findall(FENCE.sub("", doc.read_text(encoding="utf-8"))):
        slug = re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        out.add(slug if count == 0 else f"{slug}-{count}")
    return out


def broken_links(root: Path) -> list[str]:
    """Each relative link of the documents under ``root`` that leads nowhere, as ``file: target (why)``."""
    broken = []
    for doc in documents(root):
        text = CODE.sub("", FENCE.sub("", doc.read_text(encoding="utf-8")))
        for target in LINK.findall(text):
            if re.match(r"[a-z]+:", target):
                continue
            path, _, anchor = target.partition("#")
            linked = (doc.parent / path).resolve() if path else doc
            where = f"{doc.relative_to(root)}: {target}"
            if not linked.exists():
                broken.append(f"{where} (no such file)")
            elif anchor and (linked.suffix != ".md" or anchor not in anchors(linked)):
                broken.append(f"{where} (no such heading)")
    return broken


def test_every_relative_link_in_the_docs_leads_to_a_file_and_heading() -> None:
    assert not broken_links(ROOT)


def test_the_readme_links_the_manual() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for manual in ("running", "commands", "adding-a-game", "contributing"):
        assert f"](docs/{manual}.md" in text, manual


def test_a_missing_file_or_heading_is_found(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.md").write_text("# A\n## The `/play` options\n## Twice\n## Twice\n", encoding="utf-8")
    (tmp_path / "README.md").write_text(
        "[ok](docs/a.md#the-play-options) [ok](docs/a.md#twice-1) [ok](docs/) [web](https://example.org/x)\n"
        "`[code](nowhere.md)`\n"
        "[gone](docs/b.md) [no heading](docs/a.md#nothing) [third](docs/a.md#twice-2) [self](#a)\n",
        encoding="utf-8")
    assert broken_links(tmp_path) == [
        "README.md: docs/b.md (no such file)", "README.md: docs/a.md#nothing (no such heading)",
        "README.md: docs/a.md#twice-2 (no such heading)", "README.md: #a (no such heading)"]
