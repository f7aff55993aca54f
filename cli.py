"""Run prism-edge from a checkout: ``python cli.py run ...``."""

from prism_edge.app.cli import main

if __name__ == "__main__":
    main()
