"""Table questions: the program computes, the model chooses (the paper's third task).

A 135M model can neither look up nor aggregate rows, but it can choose among answers it is
shown. So every table chunk (whole records, the header repeated) is read by the program into an
SQLite database in a temporary file (linear in the rows, bounded in memory), and the memory (the
preset's ``table_descriptions``) is filled with exact facts as the chunks pass: each column with
its type, and per column its count, its least and greatest value, its sum and mean for numbers
and, at the end, its distinct count and most frequent values; the columns that join two tables
(``relationships``: a shared column name, or ``x_id`` beside a table ``x``, whose values overlap).

At the end the question is read by the program: the columns and tables its words name, and the
cells it names (a name, a code, a number, a date's year). From those, candidate answers are
computed with SQL over the whole table (or two joined through a relationship): a count, the
largest, smallest, mean or total of a column, the value of a column in the named row, the row
with the largest or smallest of a column, the most common value, each under the named cells as
filters. The model scores each candidate's description as the way to answer the question
(pointwise mutual information: the description after the question against the description
alone); the best is the answer, with the fact it came from and the runners-up in the ranking. A
question that names a value, a name or a number the tables do not hold, or nothing in them at
all, is answered "not in the table", never guessed.

The package, by concern: ``store`` (the tables in SQLite, their facts, their joins),
``question`` (what a question names), ``candidates`` (the answers it allows, computed) and
``method`` (the method: reading, choosing, the memory).
"""

from prism_edge.methods.tables.method import FIELD, NOT_IN_TABLE, TableFacts
from prism_edge.methods.tables.store import Store

__all__ = ["FIELD", "NOT_IN_TABLE", "Store", "TableFacts"]
