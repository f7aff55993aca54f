"""The ranker: a log-linear model over the candidates of a question, its weights learned from
WikiTableQuestions' training questions (``benchmarks/tables/train_ranker.py`` writes
``ranker.json`` beside this file, and reproduces it).

A candidate's score is the sum of its features' weights times their values; the answer is
the best-scored candidate, and how sure the ranker is comes from the softmax over all of them
(the best candidate's probability and its margin over the runner-up with another answer).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import operator
from collections.abc import Iterator, Mapping, Sequence
from importlib import resources

from prism_edge.methods.tables.features import Features, QuestionView, query_parts
from prism_edge.methods.tables.space import Query

WEIGHTS = "ranker.json"


@functools.cache
def weights() -> Mapping[str, float]:
    """The shipped weights (empty when the package has none: every score 0)."""
    try:
        text = resources.files(__package__).joinpath(WEIGHTS).read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    data = json.loads(text)
    return {str(k): float(v) for k, v in data["weights"].items()}


def score(features: Features, w: Mapping[str, float] | None = None) -> float:
    """The sum of the features' weights times their values, in the features' order (in C:
    a big table's tens of thousands of queries are each scored before the best are run)."""
    w = weights() if w is None else w
    products: Iterator[float] = map(
        operator.mul, map(w.get, features, itertools.repeat(0.0)), features.values()
    )
    return sum(products)


def query_score(q: QuestionView, query: Query, w: Mapping[str, float] | None = None) -> float:
    """``score(query_features(q, query), w)``, the same number: the products of the query's
    operation-and-columns features summed once a question, the sum carried on by those of
    its conditions' (summed in the same order, so to the last bit)."""
    w = weights() if w is None else w
    shaped, conditioned = query_parts(q, query)
    total = q.sums.get((id(shaped), id(w)))
    if total is None:
        total = q.sums[(id(shaped), id(w))] = score(shaped, w)
    products = q.products.get((id(conditioned), id(w)))
    if products is None:
        products = q.products[(id(conditioned), id(w))] = tuple(
            map(operator.mul, map(w.get, conditioned, itertools.repeat(0.0)), conditioned.values())
        )
    return sum(products, total)


def probabilities(scores: Sequence[float]) -> list[float]:
    """The softmax of the scores."""
    if not scores:
        return []
    top = max(scores)
    exps = [math.exp(s - top) for s in scores]
    total = sum(exps)
    return [e / total for e in exps]
