"""``truco replay FILE``: replay a hand record, print the result as one JSON object."""

from __future__ import annotations

import argparse
import json
import sys

from truco.engine import ActionError, RecordError, replay


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a hand record (JSON); - reads standard input")


def run(args: argparse.Namespace) -> int:
    try:
        if args.file == "-":
            text = sys.stdin.read()
        else:
            with open(args.file, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        print(f"record: cannot read {args.file}: {e.strerror}", file=sys.stderr)
        return 2
    try:
        record = json.loads(text)
    except ValueError as e:
        print(f"record: not valid JSON ({e})", file=sys.stderr)
        return 2
    try:
        result = replay(record)
    except RecordError as e:
        print(f"record: {e}", file=sys.stderr)
        return 2
    except ActionError as e:
        print(str(e), file=sys.stderr)
        return 2
    print(json.dumps(result.summary()))
    return 0
