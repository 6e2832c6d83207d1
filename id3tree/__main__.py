import sys

try:  # Ctrl-C while the libraries load: the same one line as during the work
    from id3tree.cli.commands import main

    sys.exit(main())
except KeyboardInterrupt:
    print("id3tree: interrupted", file=sys.stderr)
    sys.exit(130)
