"""``python -m bot check``: is the bot ready for Discord?

Without a token: the slash commands exactly as the bot would sync them (its command tree and translator) and a
sample of every message of every game, each validated as Discord validates it (``bot.discord_rules``). With
``DISCORD_TOKEN``: also what Discord says about this bot (``bot.check_server``): its servers, its privileged
intents and, with ``--channel``, its permissions in that channel.
"""
from __future__ import annotations

import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from engines import Json

from .discord_rules import command_errors
from .discord_rules.problems import error_lines
from .i18n import t

SAMPLE_STEPS = 300  # decision points per sampled game: every kind of message shows up many times before that


@dataclass
class Finding:
    ok: bool
    text: str
    fix: str = ""  # what to do about a failure

    def line(self) -> str:
        return f"{'✅' if self.ok else '❌'} {self.text}" + (f"\n   → {self.fix}" if self.fix and not self.ok else "")


async def command_payloads() -> list[Json]:
    """The global commands as ``CommandTree.sync`` would send them: the bot's own ``setup_hook`` builds the tree
    (on a throw-away database), and its translator adds the localizations."""
    from .client import GameHostBot
    from .settings import Settings

    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            _env_file=None, discord_token=None, database_path=Path(folder) / "check.db", bot_move_delay=0)
        bot = GameHostBot(settings, sync_commands=False)
        try:
            await bot.setup_hook()
            tree = bot.tree
            return [await command.get_translated_payload(tree, tree.translator)  # type: ignore[arg-type]  # setup_hook set the translator
                    for command in tree._get_all_commands(guild=None)]
        finally:
            await bot.close()


async def offline_findings(lang: str, *, max_steps: Optional[int] = SAMPLE_STEPS) -> list[Finding]:
    from .discord_sample import all_samples

    payloads = await command_payloads()
    problems = error_lines(command_errors(payloads))
    findings = [Finding(not problems, t("check.commands", lang, count=len(payloads)), "\n     ".join(problems))]
    samples = await all_samples(max_steps=max_steps)
    refused = [s for s in samples if s.errors()]
    findings.append(Finding(not refused, t("check.messages", lang, count=len(samples),
                                           kinds=len({s.what.split(': ', 1)[1] for s in samples}))))
    for what, count in Counter(s.what.split(": ", 1)[1] for s in refused).items():
        example = next(s for s in refused if s.what.endswith(what))
        findings.append(Finding(False, t("check.message_refused", lang, what=example.what, count=count),
                                "\n     ".join(error_lines(example.errors()))))
    return findings


def report(findings: list[Finding], lang: str, out=print) -> int:
    """Prints every finding and the verdict; the exit code is 0 when all passed."""
    for finding in findings:
        out(finding.line())
    failed = sum(not f.ok for f in findings)
    out(t("check.failed", lang, count=failed) if failed else t("check.passed", lang))
    return 1 if failed else 0


async def run_check(lang: str, token: Optional[str], channel_id: Optional[int], out=print) -> int:
    findings = await offline_findings(lang)
    if token:
        from .check_server import server_findings

        findings += await server_findings(token, channel_id, lang)
    else:
        findings.append(Finding(True, t("check.no_token", lang)))
    return report(findings, lang, out)
