"""A minified JavaScript bundle read into a code-search index (issue 54, defect 16): wall time,
peak memory (the process's maximum resident set) and index bytes, for the code at two
checkouts side by side in one run, each in a fresh process.

    python benchmarks/code_search/minified_bundle.py /work/main /work/wt-reliability

The bundle is generated (one line of about 2.3 MB: a UMD wrapper around functions, classes
and arrow functions), with the same text formatted one definition a line as the control.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

CHILD = r"""
import json, resource, sys, time
from pathlib import Path
import prism_edge
from prism_edge.engine.index import CodeIndex
from prism_edge.methods.definitions import DefinitionSearch
from prism_edge.text.inputs import collect

path, cache = sys.argv[1], sys.argv[2]
start = time.perf_counter()
index = CodeIndex(Path(cache), "0" * 16)
for _ in index.update(collect([path], hold_code=False).documents):
    pass
search = DefinitionSearch(index.located())
search.ranked("limit a number to a range")
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
found = index.located()
assert prism_edge.__file__.startswith(sys.argv[3]), prism_edge.__file__
print(json.dumps({"s": seconds, "mb": peak, "defs": len(found), "index_bytes": index.written,
                  "source_chars": sum(len(l.definition.source) for l in found)}))
"""


def bundle(count: int, one_line: bool) -> str:
    parts = [
        f"function f{i}(a,b){{var c=a+b*{i};if(c>{i}){{return c-{i}}}return g(c,function(z)"
        f"{{return z*{i}}})}}class K{i} extends B{{m{i}(x){{return x+{i}}}}}var v{i}=(q)=>{{"
        f"return q+{i}}};"
        for i in range(count)
    ]
    joiner = "" if one_line else "\n"
    head = '!function(e,t){"object"==typeof exports?module.exports=t():e.lib=t()}(this,function(){'
    return "/*! lib v1 */\n" + head + joiner.join(parts) + "return {}});\n"


def main() -> None:
    checkouts = sys.argv[1:] or [str(Path(__file__).resolve().parents[2])]
    with tempfile.TemporaryDirectory() as tmp:
        rows = []
        for one_line in (True, False):
            source = Path(tmp) / ("lib.min.js" if one_line else "lib.js")
            source.write_text(bundle(13_000, one_line), encoding="utf-8")
            for checkout in checkouts:
                cache = Path(tmp) / f"cache-{len(rows)}"
                out = subprocess.run(
                    [sys.executable, "-c", CHILD, str(source), str(cache), checkout],
                    env={"PYTHONPATH": checkout, "PATH": "/usr/bin:/bin"}, cwd=tmp,
                    capture_output=True, text=True, check=True,
                )  # fmt: skip
                row = json.loads(out.stdout)
                row.update(file=source.name, mb_file=source.stat().st_size / 1e6, code=checkout)
                rows.append(row)
                print(
                    f"{source.name:<10} {row['mb_file']:.1f} MB  {checkout:<24} {row['s']:6.1f} s  "
                    f"peak {row['mb']:7.0f} MB  {row['defs']:,} definitions  "
                    f"index {row['index_bytes'] / 1e6:6.1f} MB  "
                    f"heads {row['source_chars'] / 1e6:5.1f} M chars",
                    flush=True,
                )


if __name__ == "__main__":
    main()
