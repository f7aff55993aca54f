"""Can a small local model say who someone is, where the text does not say it beside the name?
(issue 52, roles stated; point 7: the model where it could help, measured against the program.)

    flock /tmp/llama.lock python benchmarks/summaries/model_roles.py --model smollm2-135m
    flock /tmp/llama.lock python benchmarks/summaries/model_roles.py --model gemma3-270m

For every key entity with role words (a play's cast list, the earlier entity lists) of every
text of the development sets: the program's clause for it (``describe``, as the summary's
who-is-who line shows it) and the model's answer to "Who is NAME?" asked over the sentences of
the text that name NAME (the most telling first, as many as fit in about 300 words). Each
states the role when it holds one of the entity's role words (whole word, plural allowed), as
``role_accuracy`` counts. Reported for rule texts and held-out texts apart, with the share the
model states where the program does not (what using it for those entities would add).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import score as scoring

from prism_edge.backends import factory
from prism_edge.methods.outline import compose
from prism_edge.prompts import Part, Prompt
from prism_edge.text.grounding import whole_word
from prism_edge.text.people import describe
from prism_edge.text.people.words import role_weight
from prism_edge.text.prose import description_score

RESULTS = Path(__file__).resolve().parents[2] / "benchmarks" / "results"
CONTEXT_WORDS = 300
ASK = (
    "\n\nQuestion: In this text, who is {name}? Answer with a short phrase that says who "
    "{name} is.\nAnswer: {name} is"
)
"""No example answer: a small model copies it (asked with "for example: the king's daughter",
SmolLM2 called Desdemona "The king's daughter")."""


def _states(answer: str, roles: tuple[str, ...]) -> bool:
    return any(re.search(rf"(?<!\w){re.escape(r)}s?(?!\w)", answer, re.IGNORECASE) for r in roles)


def _holds_role(text: str) -> bool:
    """Whether ``text`` holds any role word (the program's own list, not the reference's)."""
    return any(role_weight(w.strip(".,;:!?'\"’“”()").casefold()) > 0 for w in text.split())


def _context(name: str, said: list[compose.Sentence]) -> str:
    named = whole_word(name)
    held = [s.text for s in said if name in s.text and named.search(s.text)]
    held.sort(key=lambda t: -description_score(t, name))
    out: list[str] = []
    words = 0
    for text in held:
        n = len(text.split())
        if n > 80 or words + n > CONTEXT_WORDS:
            continue
        out.append(text)
        words += n
    return "\n".join(out)


def report(rows: list[dict[str, object]], model_name: str, model: str, seconds: float) -> str:
    """The table of :func:`main`'s rows, rule texts and held-out texts apart."""
    lines = [
        f"# Roles stated by the program's clause and by the model ({model_name})",
        "",
        f"`flock /tmp/llama.lock python benchmarks/summaries/model_roles.py --model {model}`"
        f" ({seconds:.0f} s in all)",
        "",
        "| texts | entities | program states the role | model states it | model where the "
        "program does not | either (a bound: who knows which) | the model's answer where the "
        "program's clause holds no role word and the model's does: roles stated, answers used, "
        "of them right |",
        "|---|---|---|---|---|---|---|",
    ]
    for label, held in (("rule", False), ("held out", True)):
        part = [row for row in rows if row["held_out"] is held]
        n = len(part)
        if not n:
            continue
        prog = sum(bool(row["program_states"]) for row in part)
        model = sum(bool(row["model_states"]) for row in part)
        extra = sum(bool(row["model_states"]) and not row["program_states"] for row in part)
        used = [
            row
            for row in part
            if not _holds_role(str(row["program"])) and _holds_role(str(row["model"]))
        ]
        right = sum(bool(row["model_states"]) for row in used)
        policy = right + sum(bool(row["program_states"]) for row in part if row not in used)
        lines.append(
            f"| {label} | {n} | {prog} ({prog / n:.2f}) | {model} ({model / n:.2f}) | "
            f"{extra} | {prog + extra} ({(prog + extra) / n:.2f}) | {policy} ({policy / n:.2f}), "
            f"{len(used)}, {right} |"
        )
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="smollm2-135m")
    parser.add_argument("--out", default=None)
    parser.add_argument(
        "--report", action="store_true", help="the table again from the stored answers, no model"
    )
    args = parser.parse_args()
    out = RESULTS / (args.out or f"summaries-model-roles-{args.model}")
    if args.report:
        stored = json.loads(out.with_suffix(".json").read_text())
        text = report(stored["rows"], stored["model_name"], args.model, stored["seconds"])
        out.with_suffix(".md").write_text(text)
        print(text, end="")
        return
    backend = factory.open_backend(args.model, n_ctx=2048)
    rows: list[dict[str, object]] = []
    started = time.perf_counter()
    try:
        for case in scoring.cases():
            entities = [e for e in case.entities if e.roles]
            if not entities:
                continue
            r = compose.read(case.text)
            said = list(r.sentences)
            speaker_of = compose._speaker_names(r) if r.kind == "play" else None
            people = [e.name for e in entities]
            for e in entities:
                d = describe(e.name, said, story=True, speaker_of=speaker_of, people=people)
                clause = "" if d is None else d.clause
                context = _context(e.name, said)
                if not context:
                    answer = ""
                else:
                    prompt = Prompt(
                        (
                            Part("Text:\n"),
                            Part(context, "document"),
                            Part(ASK.format(name=e.name)),
                        )
                    )
                    answer = backend.complete(prompt, max_tokens=16).text.split("\n")[0]
                rows.append(
                    {
                        "text": case.name,
                        "held_out": case.held_out,
                        "entity": e.name,
                        "roles": list(e.roles),
                        "program": clause,
                        "program_states": _states(clause, e.roles),
                        "model": answer.strip(),
                        "model_states": _states(answer, e.roles),
                    }
                )
                print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
    finally:
        backend.close()
    seconds = time.perf_counter() - started
    stored = {"model_name": backend.name, "seconds": round(seconds), "rows": rows}
    out.with_suffix(".json").write_text(json.dumps(stored, indent=1) + "\n")
    text = report(rows, backend.name, args.model, seconds)
    out.with_suffix(".md").write_text(text)
    print(text, end="")


if __name__ == "__main__":
    main()
