"""``truco replay FILE``: replay a hand record, print the result as one JSON object."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from truco.engine import ActionError, RecordError, replay


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a hand record (JSON); - reads standard input")


class Unreadable(Exception):
    """The record file could not be read or parsed; why has been printed already."""


def read_json(path: str) -> Any:
    """The JSON in ``path`` (``-``: standard input); says why on stderr and raises ``Unreadable``."""
    try:
        if path == "-":
            text = sys.stdin.read()
        else:
            with open(path, encoding="utf-8") as f:
                text = f.read()
    except OSError as e:
        print(f"record: cannot read {path}: {e.strerror}", file=sys.stderr)
        raise Unreadable from e
    try:
        return json.loads(text)
    except ValueError as e:
        print(f"record: not valid JSON ({e})", file=sys.stderr)
        raise Unreadable from e


def run(args: argparse.Namespace) -> int:
    try:
        record = read_json(args.file)
    except Unreadable:
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
