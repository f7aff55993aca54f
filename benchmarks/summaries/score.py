"""Scores a summary against the references a text carries (issue 52), for every text of the
summary development sets: the 26 of ``texts.py`` and the eleven of ``dev_set.py``.

    python benchmarks/summaries/score.py run --label NAME [--methods default,lexrank,lead]

For each text and method: the title and the kind right; the key entities named in sentences
(a line that only lists names does not count) and the share whose role a sentence states
(role words from the cast list's descriptions, or the earlier entity lists); the share of
the text's parts (at most eight groups of consecutive chapters, acts or sections; five equal
spans where the text has no headings) holding a sentence of the summary, and whether the
summary's sentences follow the text's order; words listed as names that are no names; the
seconds taken. Rule texts and held-out texts are reported apart
(``benchmarks/summaries/SPLIT.md``); results go to ``benchmarks/results/summaries-NAME.*``.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import dev_set

from prism_edge.eval.quality import Entity, entity_recall, load_entities, role_accuracy
from prism_edge.text.grounding import FUNCTION_WORDS, whole_word

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "benchmarks" / "data" / "summaries"
RESULTS = ROOT / "benchmarks" / "results"
GROUPS = 8
EQUAL_SPANS = 5

OLD_KINDS = {
    "jungle-book": ("story", "The Jungle Book"),
    "moby-dick": ("story", "Moby Dick"),
    "pride-and-prejudice": ("story", "Pride and Prejudice"),
    "macbeth": ("play", "Macbeth"),
    "debian-handbook": ("manual", "The Debian Administrator's Handbook"),
    "python-tutorial": ("manual", "The Python Tutorial"),
    "reuters-oil": ("report", None),
    "persuasion": ("story", "Persuasion"),
    "rape-of-lucrece": ("poem", "The Rape of Lucrece"),
    "julius-caesar": ("play", "Julius Caesar"),
    "debian-history": ("report", "A Brief History of Debian"),
}

NOT_NAMES = frozenset(
    [
        "come",
        "look",
        "sure",
        "yes",
        "no",
        "well",
        "oh",
        "alas",
        "nay",
        "five",
        "seven",
        "one",
        "two",
        "three",
        "four",
        "six",
        "eight",
        "nine",
        "ten",
        "first",
        "second",
        "english",
        "french",
        "german",
        "latin",
        "greek",
        "spanish",
        "italian",
        "overview",
        "introduction",
        "contents",
        "best",
        "latitude",
        "longitude",
        "chapter",
        "section",
        "note",
        "see",
        "example",
        "summary",
    ]
)
"""Words the issue's reader found listed as names (and their like): independent of the
summarizer's own word lists."""


@dataclass(frozen=True)
class Case:
    name: str
    kind: str
    held_out: bool
    text: str
    title: str | None
    entities: list[Entity]
    parts: list[tuple[int, int]]
    new: bool


def cases() -> list[Case]:
    out = []
    for path in sorted(DATA.glob("*.json")):
        ref = json.loads(path.read_text())
        text = path.with_suffix(".txt").read_text()
        entities = [Entity(e["name"], (), tuple(e["roles"])) for e in ref["entities"] if e["roles"]]
        parts = [(int(p["start"]), int(p["end"])) for p in ref["parts"]]
        out.append(
            Case(ref["name"], ref["kind"], ref["held_out"], text, ref["title"], entities,
                 parts, True)
        )  # fmt: skip
    for t in dev_set.TEXTS:
        path = dev_set.DATA / f"{t.name}.txt"
        kind, title = OLD_KINDS[t.name]
        out.append(
            Case(t.name, kind, t.held_out, path.read_text(), title,
                 load_entities(path.with_suffix(".entities")), [], False)
        )  # fmt: skip
    return out


_TITLES = frozenset(
    ["sir", "lady", "lord", "master", "mistress", "duke", "king", "queen", "prince"]
)


def _aliases(name: str) -> tuple[str, ...]:
    """A cast name of several words as the play also writes it: without its last word
    ("Sir Toby" for "Sir Toby Belch"), and each word that is no title ("Toby", "Belch";
    "Launcelot" for "Launcelot Gobbo")."""
    words = name.split()
    if len(words) < 2:
        return ()
    out = [" ".join(words[:-1])] if words[0].casefold() in _TITLES else []
    out += [w for w in words if w.casefold() not in _TITLES]
    return tuple(dict.fromkeys(a for a in out if a != name))


def _groups(parts: list[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    if not parts:
        size = length / EQUAL_SPANS
        return [(int(k * size), int((k + 1) * size)) for k in range(EQUAL_SPANS)]
    if len(parts) <= GROUPS:
        return parts
    total = sum(b - a for a, b in parts)
    groups: list[tuple[int, int]] = []
    start = parts[0][0]
    done = 0
    for a, b in parts:
        done += b - a
        if done >= total * (len(groups) + 1) / GROUPS and len(groups) < GROUPS - 1:
            groups.append((start, b))
            start = b
    groups.append((start, parts[-1][1]))
    return groups


def _norm(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", text).split()).casefold()


def locate(sentence: str, text_norm: str, offsets: list[int]) -> int | None:
    """Where ``sentence`` (a summary's quote) is in the text: its first eight words found in
    the normalized text, as a character offset of the original; None when not found."""
    words = _norm(sentence).split()
    if len(words) < 4:
        return None
    probe = " ".join(words[:8])
    at = text_norm.find(probe)
    if at < 0:
        probe = " ".join(words[-8:])
        at = text_norm.find(probe)
    return offsets[at] if at >= 0 else None


def _normalized_with_offsets(text: str) -> tuple[str, list[int]]:
    out: list[str] = []
    offsets: list[int] = []
    space = True
    for i, c in enumerate(text):
        if c.isalnum() or c == "_":
            out.append(c.casefold())
            offsets.append(i)
            space = False
        elif not space:
            out.append(" ")
            offsets.append(i)
            space = True
    return "".join(out), offsets


def _sentences_of(block: str) -> list[str]:
    pieces = []
    for line in block.splitlines():
        line = re.sub(r"^[^:]{1,60}:\s+", "", line.strip(" -"))
        line = line.replace("“", " ").replace("”", " ")
        pieces += [p for p in re.split(r"(?<=[.!?])\s+(?=\S)", line) if len(p.split()) >= 4]
    return pieces


def _list_line(line: str) -> bool:
    """A line that only lists names: after its label, three or more commas and mostly
    capitalised words."""
    body = re.sub(r"^[^:]{1,40}:\s*", "", line.strip(" -"))
    words = [w for w in re.findall(r"[^\W\d_][\w'’-]*", body) if w.casefold() not in FUNCTION_WORDS]
    caps = sum(w[:1].isupper() for w in words)
    return body.count(",") >= 3 and bool(words) and caps >= 0.6 * len(words)


def listed_names(summary: str) -> list[str]:
    labels = re.findall(r"^- ([^:]{1,60}):", summary, re.M)
    also = re.search(r"^Also named: (.*?)\.?$", summary, re.M)
    return labels + (also.group(1).split(", ") if also else [])


def non_names(summary: str, text: str, narrative: bool) -> list[str]:
    bad = []
    for name in listed_names(summary):
        words = name.split()
        if name.casefold() in NOT_NAMES:
            bad.append(name)
        elif narrative and len(words) == 1 and name[:1].isupper():
            lower = len(whole_word(name.lower()).findall(text))
            upper = len(whole_word(name).findall(text))
            if lower >= upper:
                bad.append(name)
    return bad


def score(case: Case, summary: str, seconds: float, kind: str | None) -> dict[str, object]:
    lines = summary.splitlines()
    in_sentences = "\n".join(line for line in lines if not _list_line(line))
    recall = entity_recall(in_sentences, case.entities) if case.entities else None
    roles = role_accuracy(in_sentences, case.entities) if case.entities else None
    text_norm, offsets = _normalized_with_offsets(case.text)
    part_block = summary
    for marker in ("What happens:", "Its parts:"):
        if marker in summary:
            part_block = summary.split(marker, 1)[1].split("\n\n")[0]
    located = [locate(s, text_norm, offsets) for s in _sentences_of(part_block)]
    found = [p for p in located if p is not None]
    groups = _groups(case.parts, len(case.text))
    covered = sum(any(a <= p < b for p in found) for a, b in groups)
    title_ok = None
    if case.title:
        want = {w.casefold() for w in re.findall(r"\w+", case.title)} - FUNCTION_WORDS
        head = {w.casefold() for w in re.findall(r"\w+", "\n".join(lines[:2]))}
        title_ok = len(want & head) >= 0.75 * len(want)
    narrative = case.kind in {"play", "poem", "story"}
    return {
        "name": case.name,
        "held_out": case.held_out,
        "new": case.new,
        "kind": case.kind,
        "kind_said": kind,
        "kind_ok": None if kind is None else kind == case.kind,
        "title_ok": title_ok,
        "entities": None if recall is None else recall.value,
        "roles": None if roles is None else roles.value,
        "parts": covered / len(groups),
        "in_order": found == sorted(found),
        "non_names": non_names(summary, case.text, narrative),
        "words": len(summary.split()),
        "seconds": seconds,
    }


Summarizer = Callable[[str, int | None], tuple[str, str | None]]


def default_summary(text: str, words: int | None) -> tuple[str, str | None]:
    from prism_edge.methods.outline import Length, outline

    o = outline(text, Length(words=words) if words else None)
    return o.render(), o.kind


def lead(text: str, words: int | None) -> tuple[str, str | None]:
    return " ".join(text.split()[: words or 350]), None


def lexrank(text: str, words: int | None) -> tuple[str, str | None]:
    from lexrank_words import lexrank_summary

    return lexrank_summary(text, words or 350), None


METHODS: dict[str, Summarizer] = {"default": default_summary, "lead": lead, "lexrank": lexrank}


def run(label: str, methods: Sequence[str], only: Sequence[str], split: str) -> None:
    rows = []
    for case in cases():
        if only and case.name not in only:
            continue
        if (split == "rule" and case.held_out) or (split == "held-out" and not case.held_out):
            continue
        for method in methods:
            start = time.perf_counter()
            summary, kind = METHODS[method](case.text, None)
            seconds = time.perf_counter() - start
            row = score(case, summary, seconds, kind)
            row["method"] = method
            rows.append(row)
            if method == "default":
                out = RESULTS / f"summaries-{label}"
                out.mkdir(parents=True, exist_ok=True)
                (out / f"{case.name}.txt").write_text(summary + "\n")
        print(case.name, flush=True, file=sys.stderr)
    (RESULTS / f"summaries-{label}.json").write_text(json.dumps(rows, indent=1) + "\n")
    report = table(rows, methods)
    (RESULTS / f"summaries-{label}.md").write_text(report)
    print(report)


def _mean(values: list[float | None]) -> str:
    known = [v for v in values if v is not None]
    return f"{sum(known) / len(known):.2f}" if known else "n/a"


def table(rows: list[dict[str, object]], methods: Sequence[str]) -> str:
    out = []
    for held, label in ((False, "texts that choose rules"), (True, "HELD-OUT texts")):
        if not any(r["held_out"] == held for r in rows):
            continue
        out.append(f"## {label}\n")
        out.append(
            "| text | kind | method | title | kind said | entities in sentences | roles stated | "
            "parts covered | in order | non-names | words | s |"
        )
        out.append("|" + "---|" * 12)
        chosen = [r for r in rows if r["held_out"] == held]
        for r in chosen:
            out.append(
                f"| {r['name']} | {r['kind']} | {r['method']} | {_flag(r['title_ok'])} | "
                f"{r['kind_said'] or ''} | {_num(r['entities'])} | {_num(r['roles'])} | "
                f"{_num(r['parts'])} | {_flag(r['in_order'])} | "
                f"{', '.join(r['non_names']) or '-'} | {r['words']} | {r['seconds']:.2f} |"  # type: ignore[arg-type]
            )
        out.append("")
        for method in methods:
            mine = [r for r in chosen if r["method"] == method]
            if not mine:
                continue
            titles = [r["title_ok"] for r in mine if r["title_ok"] is not None]
            kinds = [r["kind_ok"] for r in mine if r["kind_ok"] is not None]
            out.append(
                f"- **{method}** ({len(mine)} texts): entities in sentences "
                f"{_mean([r['entities'] for r in mine])}, roles "  # type: ignore[misc]
                f"{_mean([r['roles'] for r in mine])}, parts covered "  # type: ignore[misc]
                f"{_mean([r['parts'] for r in mine])}, every part covered in "  # type: ignore[misc]
                f"{sum(r['parts'] == 1.0 for r in mine)}/{len(mine)}, in order "
                f"{sum(bool(r['in_order']) for r in mine)}/{len(mine)}, titles "
                f"{sum(titles)}/{len(titles)}, kinds {sum(kinds)}/{len(kinds)}, non-names "
                f"{sum(len(r['non_names']) for r in mine)}, slowest "  # type: ignore[arg-type]
                f"{max(float(r['seconds']) for r in mine):.2f} s"  # type: ignore[arg-type]
            )
        out.append("")
    return "\n".join(out) + "\n"


def _num(value: object) -> str:
    return "n/a" if value is None else f"{float(value):.2f}"  # type: ignore[arg-type]


def _flag(value: object) -> str:
    return "n/a" if value is None else ("yes" if value else "NO")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run")
    go.add_argument("--label", required=True)
    go.add_argument("--methods", default="default")
    go.add_argument("--only", default="")
    go.add_argument(
        "--split", choices=("rule", "held-out", "all"), default="rule",
        help="rule: the texts rules are chosen on (while building); all: both, apart",
    )  # fmt: skip
    args = parser.parse_args()
    run(args.label, args.methods.split(","), [n for n in args.only.split(",") if n], args.split)


if __name__ == "__main__":
    main()
