"""The application: the ``prism-edge`` command line (one module per command, parsing arguments
and rendering events), the run history in SQLite and its HTML page, ``ask`` (a new question to
a recorded memory), and the user's defaults (config file and ``PRISM_EDGE_*`` variables).
Library code never prints; this package does. May import every other package.
"""
