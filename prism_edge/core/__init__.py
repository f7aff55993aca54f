"""The memory core: what every other part of prism-edge is built on.

Owns the schema (a typed tree from dataclass source, pydantic or JSON Schema, and what is derived
from it: prompt text, validator, JSON Schema, path templates), the memory and its two encodings,
the revision wire format with its validation and atomic application, the paper's token
accounting, the run's settings (``config``), the events a run reports and the result it ends
with, and the errors that carry data. Imports nothing of prism-edge outside this package.
"""
