"""GBNF grammars, built by pure functions: generic building blocks (``gbnf``), PRISM's revision
and answer grammars from a schema and the memory (``revision``), and the grammar of one
revision step, rebuilt after every line it writes (``step``). No llama_cpp import: grammars
are text. May import the core and the text helpers (a grounded step's words).
"""
