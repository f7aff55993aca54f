"""The engine: PRISM's loop, whatever the method.

Owns the runner (Algorithm 1 as events: the place in the input, the context budget, cutting,
folding, counts, metrics), the session (the chunk plan, the context check, the checkpoint after
every step, resume), the crash-safe run folder, and ``--parallel`` (each document its own
session, N at once). A method decides what a step does with its chunk; the engine does
everything around it. May import the core, text, grammar, prompts, backends and methods.
"""
