"""The documentation stays true: the CLI reference is the commands' own --help, the README
stays short and every page it links to exists."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_cli_reference_is_the_current_help():
    spec = importlib.util.spec_from_file_location("make", ROOT / "docs" / "make_cli_reference.py")
    assert spec is not None and spec.loader is not None
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    written = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    assert written == make.reference(), "docs/cli.md is stale: python docs/make_cli_reference.py"


def test_the_readme_is_short_and_its_links_lead_somewhere():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) < 150
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme)
    local = [link for link in links if not link.startswith("http")]
    assert local and all((ROOT / link).exists() for link in local), local
    for page in sorted((ROOT / "docs").glob("*.md")):
        text = page.read_text(encoding="utf-8")
        for link in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text):
            if not link.startswith("http"):
                assert (page.parent / link).exists(), f"{page.name}: {link}"
