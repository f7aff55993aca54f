"""Print the Nth command of the README's "Set-up" section (1-based), so CI runs it verbatim."""

from __future__ import annotations

import re
import sys
from pathlib import Path

text = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")
section = text.split("## Set-up", 1)[1].split("\n## ", 1)[0]
commands = re.findall(r"```bash\n(.*?)\n```", section, flags=re.S)
if len(commands) != 2:
    sys.exit(f"the README's Set-up section holds {len(commands)} commands, not 2")
print(commands[int(sys.argv[1]) - 1].strip())
