"""``prism-edge schema generate``: a memory schema written by the model."""

from __future__ import annotations

from typing import Annotated

import typer

from prism_edge.app.common import (
    ApiKeyOption,
    CtxOption,
    ModelOption,
    OutputOption,
    ServerModelOption,
    ServerOption,
    command_app,
    echo,
    err_console,
    given,
    reporting_errors,
    writable_file,
)
from prism_edge.backends import factory
from prism_edge.methods.schemagen import DEFAULT_DOMAIN, generate_schema

SCHEMA_CTX = 4096
"""Room for the few-shot prompt and the schema it writes (600 tokens at most)."""

schema_app = command_app(help="Memory schemas.", no_args_is_help=True)


@schema_app.command("generate", short_help="Have the model write a schema.")
def schema_generate(
    context: typer.Context,
    example_query: Annotated[str, typer.Option(help="A query of the kind users will ask.")],
    domain: Annotated[
        str, typer.Option(help="What the documents and queries are about.")
    ] = DEFAULT_DOMAIN,
    output: OutputOption = None,
    model: ModelOption = None,
    ctx: CtxOption = None,
    server: ServerOption = None,
    server_model: ServerModelOption = None,
    api_key: ApiKeyOption = None,
    seed: Annotated[int | None, typer.Option()] = None,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Have the model write a memory schema (the paper's few-shot prompt, grammar-constrained)."""
    with reporting_errors(debug):
        writable_file("--output", output)
        if server is not None and not given(context, "model"):
            model = None  # a default model gives way to a server on the line
        backend = factory.open_backend(
            model,
            server=server,
            server_model=server_model,
            api_key=api_key,
            n_ctx=ctx if server else ctx or SCHEMA_CTX,
        )
        generated = generate_schema(backend, domain, example_query, seed=seed)
        if output is not None:
            output.write_text(generated.source, encoding="utf-8")
            err_console().print(f"wrote {output}", markup=False)
        echo(generated.source, nl=False)
