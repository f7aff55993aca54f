"""Table questions: the program reads every record into a database, enumerates the queries the
question's words allow, runs them, and a ranker learned from questions people wrote chooses
the answer (the paper's third task, made a semantic parser).

A 135M model can neither look up nor aggregate rows. So every table is read by the program
into SQLite (its cells as text, their numbers and dates computed for the columns a question
touches), and the memory (the preset's ``table_descriptions``) holds each table's exact facts
and the columns that join two tables. At the end the question is read for what it mentions
(cells it names whole or in part, numbers it compares with, words), the typed query space
(:mod:`.space`: a value, a count, a sum, an average, an extreme or the row holding it, the
most common value, the first, last, next or previous row, a difference, over the rows the
mentions select, over one table or two joined) is enumerated and run, and a log-linear ranker
(:mod:`.ranker`) whose weights were learned from WikiTableQuestions' training questions
chooses among the answers; the model adds its likelihood of the question after each of the
best queries where that was measured to help. The answer comes with the SQL that computed it,
how sure the ranker is and the runner-up. A question that names nothing the tables hold is
"not in the table".

The package, by concern: ``db`` (the tables in SQLite, typed, joined), ``mentions`` (what a
question names), ``space`` (the query language: SQL and words), ``enumerate`` (the
candidates, run), ``features`` and ``ranker`` (the learned choice), ``kept`` (the
candidates kept before the ranker chooses: the readings of a database's questions),
``answer`` (the whole question), ``words`` (column names as words, rounding) and
``method`` (the method: reading, the memory, the model's part).
"""

from prism_edge.methods.tables.db import Database, Link
from prism_edge.methods.tables.method import FIELD, NOT_IN_TABLE, TableFacts

__all__ = ["FIELD", "NOT_IN_TABLE", "Database", "Link", "TableFacts"]
