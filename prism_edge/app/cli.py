"""The prism-edge command line: the Typer app, its main options and its commands.

Each command lives in its own module of this package and translates arguments into library
calls and errors into one line; library code never prints, the runner yields events and
``render`` shows them. The answer goes to stdout; the plan, progress, warnings and errors go to
stderr.
"""

from __future__ import annotations

import gc
import os
import sys
from typing import Annotated

_collecting = gc.isenabled()
gc.disable()  # as in prism_edge/__init__.py: the commands' imports make no cycle
try:
    import typer

    from prism_edge.app import ask, benchmark, defaults, inspect, logs, models, run, runs, schema
    from prism_edge.app.common import ERROR, command_app, echo, err_console
finally:
    if _collecting:
        gc.enable()

app = command_app(
    name="prism-edge",
    help="Answer questions about inputs far longer than a small local model's context (PRISM).",
    epilog=defaults.help_text(),
    no_args_is_help=True,
    add_completion=True,
)


def version_report() -> str:
    """Versions, the CPU features llama.cpp was built for and sees, and the AMX guard."""
    from importlib.metadata import PackageNotFoundError, version

    from prism_edge.backends import native
    from prism_edge.backends.llama_cpp import gpu_offload_supported

    try:
        ours = version("prism-edge")
    except PackageNotFoundError:
        ours = "unknown (not installed)"
    info = native.build_info()
    flags = native.cpu_flags()
    amx_cpu = sorted(f for f in flags if f.startswith("amx"))
    lines = [
        f"prism-edge {ours}",
        f"llama-cpp-python {info.package_version}",
        f"llama.cpp {info.library_version}",
        f"llama.cpp system info: {info.system_info}",
        "CPU AMX (/proc/cpuinfo): " + (" ".join(amx_cpu) if amx_cpu else "none"),
        "GPU offload: "
        + (
            "built in (a local model runs on the GPU: --gpu-layers auto)"
            if gpu_offload_supported()
            else "not in this build (models run on the CPU; docs/install.md: a GPU build)"
        ),
    ]
    setting = os.environ.get(native.REPACK_ENV)
    if setting:
        lines.append(f"AMX guard: overridden ({native.REPACK_ENV}={setting})")
    elif not info.has_amx_kernels:
        lines.append("AMX guard: inactive (this llama.cpp build has no AMX kernels)")
    else:
        lines.append(
            "AMX guard: active (AMX kernels in this build: each model is probed once in a "
            "child process; repacking stays on only where the probe runs cleanly)"
        )
        for model, decision in native.cached_decisions(info):
            state = "on" if decision.extra_buffers else "off"
            lines.append(f"  {model}: repacking {state} ({decision.reason})")
    return "\n".join(lines)


def _print_version(value: bool) -> None:
    if value:
        echo(version_report())
        raise typer.Exit()


@app.callback()
def _main_options(
    ctx: typer.Context,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Versions, llama.cpp's CPU features and the AMX guard; then exit.",
        ),
    ] = False,
) -> None:
    """Answer questions about inputs far longer than a small local model's context (PRISM)."""
    if ctx.invoked_subcommand not in defaults.COMMANDS:
        return  # the defaults apply to these only: `models default` repairs a broken file
    try:
        values = defaults.load()
    except defaults.ConfigError as exc:
        err_console().print(f"error: {exc} (hint: {exc.hint})", markup=False)
        raise typer.Exit(ERROR) from None
    ctx.default_map = {**defaults.default_map(values), **(ctx.default_map or {})}


# the commands, in the order --help lists them, each with a line that fits its listing
app.command(short_help="Answer a question about files, folders or stdin.")(run.run)
app.command(short_help="Compare methods side by side on the same input.")(benchmark.bench)
app.command(short_help="Show the schema, grammar and plan run would use.")(inspect.inspect)
app.add_typer(logs.logs_app, name="logs", short_help="The run history: list, search, show.")
app.command(short_help="Ask a recorded run's memory a new question.")(ask.ask)
app.add_typer(models.models_app, name="models", short_help="Models: list, show, pull, remove.")
app.add_typer(schema.schema_app, name="schema", short_help="Memory schemas: generate one.")
app.add_typer(runs.runs_app, name="runs", short_help="Saved run states and indexes.")


def main() -> None:
    # the objects the imports made live as long as the command: the collector's passes leave
    # them out from now on (over a table question's many candidates, those passes took 0.05 s)
    gc.freeze()
    try:
        app(prog_name="prism-edge")
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


if __name__ == "__main__":  # pragma: no cover
    main()
