import sys

from id3tree.cli import main

sys.exit(main())
