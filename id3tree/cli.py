"""The ``id3tree`` command line.

``main(argv)`` returns an exit status, so tests can call it directly. User errors (a bad option,
an unknown dataset) print one line on stderr and return 2.
"""

from __future__ import annotations

import argparse
import sys

from id3tree.datasets import load_play_tennis
from id3tree.learner import ID3Classifier


def _demo(args: argparse.Namespace) -> int:
    X, y = load_play_tennis(return_X_y=True)
    print("Play Tennis (Quinlan 1986): 14 days, 4 weather features, target Play.\n")
    print("Growing the tree, node by node:\n")
    model = ID3Classifier(verbose=1).fit(X, y)
    print("\nThe tree:\n")
    print(model.to_text())
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="id3tree", description="Decision trees with entropy.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    demo = commands.add_parser("demo", help="fit Play Tennis, print the trace and the tree")
    demo.set_defaults(run=_demo)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse already printed its message
        return int(exc.code or 0)
    try:
        return args.run(args)
    except (ValueError, OSError) as exc:
        print(f"id3tree: error: {exc}", file=sys.stderr)
        return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
