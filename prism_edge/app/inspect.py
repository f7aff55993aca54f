"""``prism-edge inspect``: the schema as the model sees it, its paths, its grammar and the chunk
plan.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from prism_edge.app.common import (
    AUTO_METHOD,
    ChunkTokensOption,
    ExcludeOption,
    FollowLinksOption,
    IncludeOption,
    KeepBoilerplateOption,
    MethodChoice,
    ModelOption,
    TaskName,
    echo,
    err_console,
    filters_of,
    read_schema,
    reporting_errors,
    warn,
)
from prism_edge.app.output import JsonOption, Output
from prism_edge.app.planning import DEFAULT_MAX_TOKENS, chunk_plan, context_for
from prism_edge.core.schema import (
    path_templates,
    prompt_text,
    type_label,
)
from prism_edge.engine.reading import whole_text
from prism_edge.grammar.revision import revision_grammar
from prism_edge.methods import choose
from prism_edge.methods.outline import read
from prism_edge.methods.presets import TASKS, preset_grammars
from prism_edge.text.chunking import iter_chunks
from prism_edge.text.code import is_code
from prism_edge.text.inputs import Document, Filters, collect, with_text_tables


def load_tokenizer(model: str | None) -> Any:
    """A tokenizer for planning without loading weights (tests replace this)."""
    from prism_edge.backends.catalog import resolve_model
    from prism_edge.backends.llama_cpp import LlamaTokenizer

    return LlamaTokenizer(resolve_model(model))


def inspect(
    inputs: Annotated[list[str] | None, typer.Argument(help="Inputs to plan chunks for.")] = None,
    task: Annotated[TaskName | None, typer.Option(envvar="PRISM_EDGE_TASK")] = None,
    schema_file: Annotated[
        Path | None, typer.Option("--schema", exists=True, dir_okay=False, readable=True)
    ] = None,
    grammar: Annotated[bool, typer.Option("--grammar", help="Print the revision grammar.")] = False,
    add_only: Annotated[bool, typer.Option(help="The add-only grammar.")] = False,
    chunk_tokens: ChunkTokensOption = None,
    model: ModelOption = None,
    method: Annotated[
        MethodChoice, typer.Option(help="The method run would be asked for (auto: chosen).")
    ] = AUTO_METHOD,
    no_model: Annotated[
        bool, typer.Option("--no-model", help="Plan run --no-model's method.")
    ] = False,
    write_grammars: Annotated[
        Path | None, typer.Option(help="Write the built-in presets' grammars into this folder.")
    ] = None,
    keep_boilerplate: KeepBoilerplateOption = False,
    follow_links: FollowLinksOption = False,
    include: IncludeOption = None,
    exclude: ExcludeOption = None,
    as_json: JsonOption = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Show the schema as the model sees it, its paths, its grammar and the chunk plan."""
    with reporting_errors(debug):
        if write_grammars is not None:
            write_grammars.mkdir(parents=True, exist_ok=True)
            wrote = []
            for name, text in preset_grammars().items():
                (write_grammars / name).write_text(text, encoding="utf-8")
                wrote.append(str(write_grammars / name))
            Output(as_json).one({"wrote": wrote}, "\n".join(f"wrote {w}" for w in wrote))
            return
        if task == TaskName.auto:
            raise ValueError("--task auto generates its schema in `run`")
        schema = (
            read_schema(schema_file)
            if schema_file is not None
            else TASKS[(task or TaskName.summarize).value].schema
        )
        if grammar:
            text = revision_grammar(schema, schema.empty_memory(), add_only=add_only)
            if as_json:
                Output(as_json).one({"grammar": text}, None)
            else:
                echo(text, nl=False)
            return
        report: dict[str, Any] = {
            "schema": prompt_text(schema),
            "paths": [
                {"path": t.template, "type": type_label(t.type)} for t in path_templates(schema)
            ],
        }
        lines = [report["schema"], ""]
        lines += [f"{p['path']}  ->  {p['type']}" for p in report["paths"]]
        if inputs:
            plan, plan_lines = _plan(
                inputs, task, schema_file, chunk_tokens, model, method, no_model,
                keep_boilerplate, follow_links, filters_of(include, exclude),
            )  # fmt: skip
            report["plan"] = plan
            lines += ["", *plan_lines]
        Output(as_json).one(report, "\n".join(lines))


def _plan(
    inputs: list[str],
    task: TaskName | None,
    schema_file: Path | None,
    chunk_tokens: int | None,
    model: str | None,
    method: MethodChoice,
    no_model: bool,
    keep_boilerplate: bool,
    follow_links: bool,
    filters: Filters,
) -> tuple[dict[str, Any], list[str]]:
    """The plan ``run`` would make of ``inputs``: as data, and as ``inspect`` prints it."""
    collected = collect(
        inputs, keep_boilerplate=keep_boilerplate, follow_links=follow_links, filters=filters
    )
    warn(err_console(), collected.warnings)
    tokenizer = load_tokenizer(model)
    preset = TASKS[(task or TaskName.summarize).value] if schema_file is None else None
    scored = preset.scored_method if preset is not None else None
    choice = choose(method.value, scored, tokenizer, no_model)
    whole = _read_whole(choice.name, collected.documents)
    plan_of = "revisions" if whole else choice.name
    size, why = chunk_plan(plan_of, chunk_tokens)

    def count(text: str) -> int:
        return len(tokenizer.tokenize(text))

    sizes = [count(c) for c in iter_chunks(collected.documents, size, count)]
    context = context_for(size, DEFAULT_MAX_TOKENS)
    plan = {
        "method": choice.name,
        "reason": choice.reason,
        "evidence": choice.evidence,
        "reads_whole": whole or None,
        "chunk_tokens": size,
        "context": context,
        "tokenizer": tokenizer.name,
        "chunks": sizes,
    }
    if whole:
        lines = [
            f"plan (as run): method {choice.name} ({choice.reason}); {whole}",
            f"what a writing method would read instead (--method revisions): chunks of up to "
            f"{size} tokens{why}; context {context}",
        ]
    else:
        lines = [
            f"plan (as run): method {choice.name} ({choice.reason}); chunks of up to {size} "
            f"tokens{why}; context {context}"
        ]
    lines.append(
        f"chunks: {len(sizes)} ({sum(sizes)} tokens, budget {size} each, tokenizer "
        f"{tokenizer.name})"
    )
    lines += [f"  {i:>4}  {n} tokens" for i, n in enumerate(sizes, start=1)]
    return plan, lines


def _read_whole(method: str, documents: list[Document]) -> str:
    """What ``run`` reads without chunks (as :class:`~prism_edge.app.planning.Planned` decides):
    a code search by definitions over files into their index, a table question by the table
    method into a database; "" when the method reads chunks."""
    if method == "definitions" and all(d.name != "<stdin>" for d in documents):
        code = [d for d in documents if is_code(d.name)]
        return (
            f"{len(code)} code files read whole into their index, parsed only where they "
            f"changed ({len(documents) - len(code)} files not code), no chunks"
        )
    if method == "tables":
        tables = [d for d in with_text_tables(documents) if d.kind == "table"]
        return f"{len(tables)} tables read straight into a database, no chunks"
    if method == "outline":
        r = read(whole_text(documents))
        texts = f"{len(documents)} text" + ("" if len(documents) == 1 else "s")
        return (
            f"{texts} ({len(r.text):,} characters) read whole, kind {r.kind} ({r.kind_reason}), "
            "composed by the program, no chunks"
        )
    return ""
