"""Table QA, ten questions with exact answers over real tables that ship offline (by hand).

The tables are two of ``vega_datasets``' local files (``pip install vega-datasets``; the
``bench`` extra has it): Iowa's electricity by source and year, and the deaths of the 1992 Los
Angeles riots. Every expected answer is computed here from the files with the ``csv`` module,
so none is typed by hand. The script copies the tables into a folder, writes the questions as
needles, and runs ``prism-edge bench --task table-qa --needles`` on them: each question asked
of every method in turn, an answer counted right when it holds the expected value (a number
compared as a number).

    python benchmarks/tables/table_qa.py [--model smollm2-135m] [--methods ...] \
        [--out benchmarks/results/table-qa-smollm2]
"""

from __future__ import annotations

import argparse
import collections
import csv
import json
import shutil
import subprocess
import sys
from pathlib import Path


def tables() -> Path:
    import vega_datasets  # type: ignore[import-untyped]

    return Path(vega_datasets.__file__).parent / "_data"


def questions(folder: Path) -> list[dict[str, str]]:
    with (folder / "iowa-electricity.csv").open(encoding="utf-8") as f:
        iowa = list(csv.DictReader(f))
    with (folder / "la-riots.csv").open(encoding="utf-8") as f:
        riots = list(csv.DictReader(f))

    def year(row: dict[str, str]) -> str:
        return row["year"][:4]

    def generation(row: dict[str, str]) -> int:
        return int(row["net_generation"])

    first = [r for r in iowa if year(r) == "2001"]
    renewables = [r for r in iowa if r["source"] == "Renewables"]
    nuclear_2010 = next(r for r in iowa if year(r) == "2010" and r["source"] == "Nuclear Energy")
    fossil_2005 = next(r for r in iowa if year(r) == "2005" and r["source"] == "Fossil Fuels")
    a, b, c = riots[0], riots[1], riots[2]
    kinds = collections.Counter(r["type"] for r in riots).most_common(1)[0][0]
    places = collections.Counter(r["neighborhood"] for r in riots).most_common(1)[0][0]
    return [
        {
            "query": "Which source generated the most electricity in Iowa in 2001?",
            "expected": max(first, key=generation)["source"],
        },
        {
            "query": "What was the net generation of Nuclear Energy in Iowa in 2010?",
            "expected": nuclear_2010["net_generation"],
        },
        {
            "query": "In which year did Renewables generate the most electricity in Iowa?",
            "expected": year(max(renewables, key=generation)),
        },
        {
            "query": "What was the net generation of Fossil Fuels in Iowa in 2005?",
            "expected": fossil_2005["net_generation"],
        },
        {
            "query": f"How old was {a['first_name']} {a['last_name']} in the riots table?",
            "expected": a["age"],
        },
        {
            "query": f"In which neighborhood did {b['first_name']} {b['last_name']} die?",
            "expected": b["neighborhood"],
        },
        {
            "query": f"On what date did {c['first_name']} {c['last_name']} die?",
            "expected": c["death_date"],
        },
        {"query": "What was the most common type of death in the riots table?", "expected": kinds},
        {"query": "Which neighborhood had the most deaths in the riots?", "expected": places},
        {"query": "How many deaths does the riots table record?", "expected": str(len(riots))},
    ]


NEW_TABLES = ("airports.csv", "seattle-weather.csv", "stocks.csv")
"""Tables of the second set (written before any table method was built), and cars.json as JSON
lines (``cars.jsonl``): another reader."""


def new_questions(folder: Path) -> list[dict[str, str]]:
    """Ten questions over four other public tables, written before the table method existed;
    every expected answer computed here from the files. An average is stated to 2 decimals."""

    def rows(name: str) -> list[dict[str, str]]:
        with (folder / name).open(encoding="utf-8") as f:
            return list(csv.DictReader(f))

    airports, weather, stocks = (rows(n) for n in NEW_TABLES)
    cars = [json.loads(line) for line in (folder / "cars.jsonl").read_text().splitlines()]
    lax = next(r for r in airports if r["iata"] == "LAX")
    states = collections.Counter(r["state"] for r in airports).most_common(1)[0][0]
    japan = [c["Weight_in_lbs"] for c in cars if c["Origin"] == "Japan"]
    strongest = max((c for c in cars if c["Horsepower"] is not None), key=lambda c: c["Horsepower"])
    return [
        {
            "query": "How many airports are in the city of Chicago?",
            "expected": str(sum(r["city"] == "Chicago" for r in airports)),
        },
        {"query": "Which state has the most airports?", "expected": states},
        {"query": "What is the name of the airport with the code LAX?", "expected": lax["name"]},
        {
            "query": "What was the highest maximum temperature recorded in Seattle?",
            "expected": max((r["temp_max"] for r in weather), key=float),
        },
        {
            "query": "How many days of snow does the Seattle weather table record?",
            "expected": str(sum(r["weather"] == "snow" for r in weather)),
        },
        {
            "query": "What was the highest price of AAPL in the stocks table?",
            "expected": max((r["price"] for r in stocks if r["symbol"] == "AAPL"), key=float),
        },
        {
            "query": "How many price records does the stocks table hold for IBM?",
            "expected": str(sum(r["symbol"] == "IBM" for r in stocks)),
        },
        {
            "query": "How many cars have 8 cylinders?",
            "expected": str(sum(c["Cylinders"] == 8 for c in cars)),
        },
        {"query": "Which car has the most horsepower?", "expected": strongest["Name"]},
        {
            "query": "What is the average weight of cars from Japan?",
            "expected": f"{sum(japan) / len(japan):.2f}",
        },
    ]


def copy_new_tables(folder: Path) -> None:
    for name in NEW_TABLES:
        shutil.copyfile(tables() / name, folder / name)
    cars = json.loads((tables() / "cars.json").read_text(encoding="utf-8"))
    lines = "".join(json.dumps(car) + "\n" for car in cars)
    (folder / "cars.jsonl").write_text(lines, encoding="utf-8")


FRESH_JSON = ("iris.json", "barley.json", "driving.json", "crimea.json")
"""The third set's tables (copied as JSON lines) beside us-employment.csv: written after the
second set had been measured once, before any change that measurement suggested."""


def copy_fresh_tables(folder: Path) -> None:
    shutil.copyfile(tables() / "us-employment.csv", folder / "us-employment.csv")
    for name in FRESH_JSON:
        records = json.loads((tables() / name).read_text(encoding="utf-8"))
        lines = "".join(json.dumps(r) + "\n" for r in records)
        (folder / name.replace(".json", ".jsonl")).write_text(lines, encoding="utf-8")


def fresh_questions(folder: Path) -> list[dict[str, str]]:
    """Ten questions over five more public tables, every expected answer computed here."""

    def records(name: str) -> list[dict[str, object]]:
        text = (folder / name).read_text(encoding="utf-8")
        return [json.loads(line) for line in text.splitlines()]

    iris, barley, driving, crimea = (records(n.replace(".json", ".jsonl")) for n in FRESH_JSON)
    with (folder / "us-employment.csv").open(encoding="utf-8") as f:
        jobs = list(csv.DictReader(f))

    def num(value: object) -> float:
        return float(str(value))

    def exact(value: float) -> str:
        return str(int(value)) if value == int(value) else str(value)

    best_variety = max(barley, key=lambda r: num(r["yield"]))["variety"]
    dearest = max(driving, key=lambda r: num(r["gas"]))["year"]
    lowest = min(jobs, key=lambda r: num(r["manufacturing"]))["month"]
    return [
        {
            "query": "How many flowers of the species setosa does the iris table hold?",
            "expected": str(sum(r["species"] == "setosa" for r in iris)),
        },
        {
            "query": "What is the largest petal length of the species versicolor?",
            "expected": exact(
                max(num(r["petalLength"]) for r in iris if r["species"] == "versicolor")
            ),
        },
        {"query": "Which barley variety had the highest yield?", "expected": str(best_variety)},
        {
            "query": "How many barley records are from the year 1932?",
            "expected": str(sum(r["year"] == 1932 for r in barley)),
        },
        {
            "query": "What was the largest nonfarm employment in the table?",
            "expected": exact(max(num(r["nonfarm"]) for r in jobs)),
        },
        {"query": "In which month was manufacturing employment lowest?", "expected": lowest},
        {
            "query": "How many miles were driven per person in 1956?",
            "expected": exact(next(num(r["miles"]) for r in driving if r["year"] == 1956)),
        },
        {"query": "In which year was gas the most expensive?", "expected": str(dearest)},
        {
            "query": "What was the total number of deaths from disease in the Crimean War?",
            "expected": exact(sum(num(r["disease"]) for r in crimea)),
        },
        {
            "query": "How many barley records come from the site Morris?",
            "expected": str(sum(r["site"] == "Morris" for r in barley)),
        },
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--model", default=None)
    parser.add_argument("--methods", default=None)
    parser.add_argument("--chunk-tokens", default="1024")
    parser.add_argument("--out", type=Path, default=Path("benchmarks/results/table-qa-smollm2"))
    parser.add_argument(
        "--set",
        choices=("first", "new", "fresh"),
        default="first",
        help="first: the ten questions over Iowa's electricity and the LA riots; new: ten over "
        "airports, Seattle's weather, stocks and cars (JSON lines), written before the method",
    )
    args = parser.parse_args()
    work = args.out.parent / (args.out.name + "-inputs")
    work.mkdir(parents=True, exist_ok=True)
    if args.set == "first":
        for name in ("iowa-electricity.csv", "la-riots.csv"):
            shutil.copyfile(tables() / name, work / name)
        asked = questions(work)
    elif args.set == "new":
        copy_new_tables(work)
        asked = new_questions(work)
    else:
        copy_fresh_tables(work)
        asked = fresh_questions(work)
    needles = args.out.with_suffix(".jsonl")
    needles.write_text("".join(json.dumps(q) + "\n" for q in asked), encoding="utf-8")
    command = [
        sys.executable, "-m", "prism_edge", "bench", str(work), "--task", "table-qa",
        "--needles", str(needles), "--chunk-tokens", args.chunk_tokens,
        "--json-out", str(args.out.with_suffix(".json")),
    ]  # fmt: skip
    if args.model:
        command += ["--model", args.model]
    if args.methods:
        command += ["--methods", args.methods]
    print("$", " ".join(command), flush=True)
    # stderr passes through: each answer is shown (and kept in a redirected log) as it comes
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    args.out.with_suffix(".txt").write_text(
        "$ " + " ".join(command) + "\n" + done.stdout, encoding="utf-8"
    )
    print(done.stdout)
    raise SystemExit(done.returncode)


if __name__ == "__main__":
    main()
