from prism_edge.app.cli import main

main()
