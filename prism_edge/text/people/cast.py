"""A play's own list of characters, when its head has one."""

from __future__ import annotations

import re

_CAST_HEAD = re.compile(
    r"^\s*(?:dramatis\s+person\w*|persons\s+represented|the\s+persons(?:\s+of\s+the\s+play)?|"
    r"characters(?:\s+in\s+the\s+play)?|cast(?:\s+of\s+characters)?)\s*[.:]?\s*$",
    re.IGNORECASE | re.M,
)
_CAST_LINE = re.compile(
    r"^\s*(?P<name>[A-Z][\w'’.]*(?:\s+[A-Z][\w'’.]*){0,3}),\s+(?P<what>\S.{2,90})$"
)


def cast_list(text: str) -> dict[str, str]:
    """A play's list of characters, when its head has one (under "Dramatis Personae",
    "Persons Represented", "Characters"): each name (as the play writes it in its speeches,
    title case) with its line ("DUNCAN, King of Scotland")."""
    head = _CAST_HEAD.search(text[: len(text) // 5 + 2000])
    if head is None:
        return {}
    out: dict[str, str] = {}
    blank = 0
    for line in text[head.end() :].split("\n")[1:80]:
        if not line.strip():
            blank += 1
            if blank >= 3 and out:
                break
            continue
        blank = 0
        m = _CAST_LINE.match(line)
        if m:
            name = " ".join(w.capitalize() if w.isupper() else w for w in m.group("name").split())
            out.setdefault(name, " ".join(line.split()))
        elif re.match(r"^\s*(?:act|scene)\b", line, re.IGNORECASE):
            break
    return out
