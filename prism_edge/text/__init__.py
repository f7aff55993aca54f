"""Text as the program reads it, before any model sees it.

Owns inputs (files, folders, stdin, SQLite files, JSON lines; what a folder will and will not
follow), token-aware chunking at natural boundaries, where code defines things (tree-sitter),
code definitions with their own descriptions, tables (records and typed cells), the grounding
of a chunk (its words, spans, names and sentences) and the words BM25 reads. May import the
core only.
"""
