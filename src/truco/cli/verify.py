"""``truco verify RECORD``: check every deal of a match record offline (docs/fairness.md).

For each hand: SHA-256 of the revealed secret is the commitment published before the deal, the
deal's seed is SHA-256 of the secret and the seats' contributions, and the seed deals exactly the
cards of the record; then the whole match is replayed by the rules. Prints one JSON object; exits
0 when everything checks out, 1 when something does not, 2 when the file cannot be read.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from truco.cli.replay import Unreadable, read_json
from truco.engine import ActionError, RecordError, replay
from truco.engine.fairness import FairnessError, verify_record
from truco.protocol.replays import NoSuchMatch, download_record


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a match record (the replay page's download, or a stored match "
                                     "record); - reads standard input")


def _as_deals(record: Any) -> Any:
    """A stored match record (``hands`` with their ``fairness``) becomes the ``deals`` form."""
    if isinstance(record, dict) and "deals" not in record and isinstance(record.get("hands"), list) \
            and record["hands"] and isinstance(record["hands"][0], dict) and "rules" in record["hands"][0]:
        return download_record(record)
    return record


def run(args: argparse.Namespace) -> int:
    try:
        record = _as_deals(read_json(args.file))
    except Unreadable:
        return 2
    except NoSuchMatch as e:
        print(f"record: {e}", file=sys.stderr)
        return 2
    try:
        deals = verify_record(record)
    except FairnessError as e:
        print(json.dumps({"verified": False, "error": str(e)}))
        return 1
    try:
        result = replay(record)
    except (RecordError, ActionError) as e:
        print(json.dumps({"verified": False, "error": f"the deals check out but the play does not: {e}"}))
        return 1
    print(json.dumps({"verified": True, "deals": len(deals),
                      "contributions": sum(d["contributions"] for d in deals),
                      "commitments": [d["commitment"] for d in deals], **result.summary()}))
    return 0
