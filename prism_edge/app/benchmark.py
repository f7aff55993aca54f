"""``prism-edge bench``: methods side by side on the same chunks (the paper's Table 2, needles, the
chunk-size sweep).
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from prism_edge.app.common import (
    ApiKeyOption,
    BatchOption,
    CtxOption,
    ExcludeOption,
    FlashAttnOption,
    FollowLinksOption,
    GpuLayersOption,
    IncludeOption,
    JumpForwardOption,
    KeepBoilerplateOption,
    KvChoice,
    KvTypeOption,
    ModelOption,
    QuietOption,
    ServerModelOption,
    ServerOption,
    TaskName,
    ThreadsOption,
    echo,
    err_console,
    filters_of,
    given,
    gpu_layers_of,
    quiet_console,
    reporting_errors,
    sharing_cores,
    warn,
    writable_file,
)
from prism_edge.app.planning import context_for
from prism_edge.backends import factory
from prism_edge.backends.factory import Engine
from prism_edge.engine.session import counter
from prism_edge.eval.bench import (
    ALL_METHODS,
    SWEPT,
    BenchTask,
    Calibrations,
    default_methods,
    markdown_table,
    needle_methods,
    needle_report,
    needle_table,
    plot_sweep,
    run_methods,
    run_needles,
    sweep,
    sweep_table,
)
from prism_edge.eval.quality import load_entities, load_needles
from prism_edge.methods.presets import TASKS
from prism_edge.text.chunking import chunk_documents
from prism_edge.text.inputs import collect, with_text_tables


def bench(
    context: typer.Context,
    inputs: Annotated[list[str], typer.Argument(help="Files, folders, or - for stdin.")],
    task: Annotated[
        TaskName, typer.Option(envvar="PRISM_EDGE_TASK", help="A preset.")
    ] = TaskName.summarize,
    query: Annotated[str | None, typer.Option(help="The question (retrieval tasks).")] = None,
    chunk_tokens: Annotated[int, typer.Option(min=32, envvar="PRISM_EDGE_CHUNK_TOKENS")] = 2048,
    model: ModelOption = None,
    ctx: CtxOption = None,
    max_tokens: Annotated[int, typer.Option(min=16)] = 512,
    answer_tokens: Annotated[int, typer.Option(min=1)] = 256,
    methods: Annotated[
        str | None,
        typer.Option(
            help="Comma-separated, from: "
            + ", ".join(ALL_METHODS)
            + " (default: the paper's seven, what a user would pick instead and the best "
            "PRISM variants for the task: summarize adds lead sentences and PRISM amendments "
            "grounded, code-search BM25 and PRISM definitions)."
        ),
    ] = None,
    sweep_chunks: Annotated[
        str | None,
        typer.Option(help="Chunk sizes for the chunk-size figure, e.g. 512,1024,2048,4096."),
    ] = None,
    plot: Annotated[Path, typer.Option(help="Where the sweep figure goes.")] = Path(
        "prism-sweep.png"
    ),
    entities: Annotated[
        Path | None,
        typer.Option(
            help="Key entities, one a line (aliases after |): adds each answer's entity recall."
        ),
    ] = None,
    needles: Annotated[
        Path | None,
        typer.Option(
            help='JSON lines {"query", "expected"}: each query asked in turn; prints accuracy '
            "per method (default methods: the baselines, PRISM amendments and the task's "
            "scored method with and without the model)."
        ),
    ] = None,
    threads: ThreadsOption = None,
    gpu_layers: GpuLayersOption = None,
    batch: BatchOption = 512,
    flash_attn: FlashAttnOption = None,
    kv_type: KvTypeOption = KvChoice.f16,
    jump_forward: JumpForwardOption = False,
    keep_boilerplate: KeepBoilerplateOption = False,
    follow_links: FollowLinksOption = False,
    include: IncludeOption = None,
    exclude: ExcludeOption = None,
    server: ServerOption = None,
    server_model: ServerModelOption = None,
    api_key: ApiKeyOption = None,
    as_json: Annotated[bool, typer.Option("--json")] = False,
    json_out: Annotated[
        Path | None,
        typer.Option(
            "--output", "-o", "--json-out", dir_okay=False, help="Also write the JSON results here."
        ),
    ] = None,
    quiet: QuietOption = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Run PRISM variants and the baselines side by side; print the paper's Table 2 and the
    quality measures (entity recall, needle accuracy, PRISM's faithfulness proxy)."""
    console = quiet_console(quiet)
    with reporting_errors(debug):
        writable_file("--output", json_out)
        if server is not None and not given(context, "model"):
            model = None  # a default model gives way to a server on the line
        if sweep_chunks:
            writable_file("--plot", plot)
        needle_list = load_needles(needles) if needles else []
        # with needles, each one's description is the question (no --query needed)
        asked = query or (needle_list[0].query if needle_list else None)
        preset = TASKS[task.value]
        bench_task = BenchTask(
            preset, preset.question(asked), tuple(load_entities(entities)) if entities else ()
        )
        sizes = [int(s) for s in sweep_chunks.split(",") if s.strip()] if sweep_chunks else []
        collected = collect(
            inputs,
            keep_boilerplate=keep_boilerplate,
            follow_links=follow_links,
            filters=filters_of(include, exclude),
        )
        if preset.reads_tables:
            collected.documents = with_text_tables(collected.documents)
        warn(err_console(), collected.warnings)
        largest = max([chunk_tokens, *sizes])
        backend = factory.open_backend(
            model,
            server=server,
            server_model=server_model,
            api_key=api_key,
            n_ctx=ctx if server else ctx or context_for(largest, max_tokens),
            engine=Engine(
                threads, batch, flash_attn, kv_type.value, jump_forward, gpu_layers_of(gpu_layers)
            ),
        )
        warn(err_console(), sharing_cores(backend))
        default = needle_methods(preset.name) if needle_list else default_methods(preset.name)
        chosen = tuple(m.strip() for m in methods.split(",")) if methods else default
        full = "\n\n".join(d.text for d in collected.documents)
        chunks = chunk_documents(collected.documents, chunk_tokens, counter(backend))
        console.print(
            f"bench: {len(chunks)} chunks of up to {chunk_tokens} tokens, "
            f"{len(chosen)} methods, model {backend.name}, n_ctx {backend.n_ctx}",
            markup=False,
        )
        budgets = {"max_tokens": max_tokens, "answer_tokens": answer_tokens}
        if needle_list:

            def said(index: int, method: str, hit: bool, answer: str | None) -> None:
                mark = "right" if hit else "wrong"
                shown = " ".join((answer or "").split())[:80]
                console.print(
                    f"needle {index + 1}/{len(needle_list)} {method}: {mark}: {shown}", markup=False
                )

            rows = run_needles(
                backend,
                bench_task,
                chunks,
                full,
                needle_list,
                methods=chosen,
                on_answer=said,
                **budgets,
            )
            payload = needle_report(rows, needle_list)
            _emit(payload, json_out, as_json, needle_table(rows, needle_list))
            return
        # speed by KV depth, up to the context the methods may fill (the bound's rates), for
        # each engine setting the methods ran with
        calibrations = Calibrations(backend)
        table = run_methods(
            backend, bench_task, chunks, full, methods=chosen, calibrations=calibrations,
            **budgets,
        )  # fmt: skip
        calibrations.include_prefill_engine()
        for engine, profile in calibrations.take_fresh():
            label = f" ({engine})" if engine else ""
            console.print(f"calibration{label}: {profile.describe()}", markup=False)
        footprint = backend.footprint()
        reference = calibrations.reference
        payload = {
            "methods": [r.to_dict(calibrations.prefill_tok_s) for r in table],
            "calibration": None if reference is None else reference.to_dict(),
            "calibrations": calibrations.to_dict(),
            "chunks": len(chunks),
            "chunk_tokens": chunk_tokens,
            "footprint": None if footprint is None else dataclasses.asdict(footprint),
        }
        text = markdown_table(table, calibrations.prefill_tok_s, footprint)
        if sizes:
            # the table is saved (and shown) before the sweep, which can take as long again
            _emit(payload, json_out, False, None)
            console.print(text, markup=False)
            swept = next((row for row in table if row.name == SWEPT), None)
            done = {} if swept is None else {chunk_tokens: swept}
            points = sweep(
                backend, bench_task, collected.documents, sizes, done,
                calibrations=calibrations, **budgets,
            )  # fmt: skip
            plot_sweep(points, plot)
            payload.update(sweep=points, plot=str(plot))
            text += f"\n\n{sweep_table(points)}\nfigure: {plot}"
        _emit(payload, json_out, as_json, text)


def _emit(payload: dict[str, Any], json_out: Path | None, as_json: bool, text: str | None) -> None:
    """Print the JSON report, or ``text``; then write the JSON to ``json_out`` (if given)."""
    rendered = json.dumps(payload, ensure_ascii=False, indent=2)
    if as_json:
        echo(rendered)
    elif text is not None:
        echo(text)
    if json_out is not None:
        json_out.write_text(rendered + "\n", encoding="utf-8")
