from prism_edge.cli import main

main()
