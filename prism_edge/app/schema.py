"""``prism-edge schema generate``: a memory schema written by the model."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from prism_edge.app.common import echo, err_console, reporting_errors
from prism_edge.backends import factory
from prism_edge.methods.schemagen import DEFAULT_DOMAIN, generate_schema

schema_app = typer.Typer(help="Memory schemas.", no_args_is_help=True)


@schema_app.command("generate")
def schema_generate(
    example_query: Annotated[str, typer.Option(help="A query of the kind users will ask.")],
    domain: Annotated[
        str, typer.Option(help="What the documents and queries are about.")
    ] = DEFAULT_DOMAIN,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="Write it here.")] = None,
    model: Annotated[str | None, typer.Option("--model", "-m")] = None,
    seed: Annotated[int | None, typer.Option()] = None,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Have the model write a memory schema (the paper's few-shot prompt, grammar-constrained)."""
    with reporting_errors(debug):
        backend = factory.open_backend(model, n_ctx=4096)
        generated = generate_schema(backend, domain, example_query, seed=seed)
        if output is not None:
            output.write_text(generated.source, encoding="utf-8")
            err_console().print(f"wrote {output}", markup=False)
        echo(generated.source, nl=False)
