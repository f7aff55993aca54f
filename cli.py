"""Run prism-edge from a checkout: ``python cli.py run ...``."""

from prism_edge.cli import main

if __name__ == "__main__":
    main()
