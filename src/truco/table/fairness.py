"""Verifiable deals at the table (docs/fairness.md): the commitment to the next hand's secret, the
seats' contributions, the sealed deal and its reveal once the hand is over. Pure.

The secret of every hand follows from the table's secret seed, so it was fixed before anyone could
contribute; only its SHA-256 is shown until the hand ends. Nothing here reaches a view except the
commitments, which seats have contributed (not what), and the reveal of hands already over.
"""

from __future__ import annotations

import hashlib
from typing import Any

from truco.engine.fairness import FairnessError, Reveal, commitment, contribution_bytes, deal_seed
from truco.table.commands import Contribute
from truco.table.edits import Ctx, TableError
from truco.table.effects import EVERYONE
from truco.table.events import DealRevealed
from truco.table.state import Player, Table


def hand_secret(t: Table, match_no: int, hand_no: int) -> bytes:
    """The 32-byte secret of a hand: SHA-256 of the table's seed and the hand's place."""
    return hashlib.sha256(f"{t.seed}:hand-secret:{match_no}:{hand_no}".encode()).digest()


def next_deal(t: Table) -> tuple[int, int]:
    """(match, hand) of the next hand to be dealt: the first of the next match outside a match."""
    if t.phase == "playing":
        return t.match_no, t.hand_no + 1
    return t.match_no + 1, 1


def contribute(t: Table, p: Player, cmd: Contribute, ctx: Ctx) -> None:
    """A seat's random bytes for the next deal; once per player and hand, before that hand is dealt."""
    if p.seat is None:
        raise TableError("only a seated player contributes to the deal", "no_seat")
    if (cmd.match_no, cmd.hand_no) != next_deal(t):
        raise TableError("that hand is already dealt", "contribution_late")
    try:
        contribution_bytes(cmd.value)
    except FairnessError as e:
        raise TableError(str(e), "bad_contribution") from None
    if any(pid == p.pid for pid, _ in t.contributions):
        raise TableError("you already contributed to this deal", "already_contributed")
    t.contributions = (*t.contributions, (p.pid, cmd.value))


def seal_deal(t: Table, dealer: int) -> bytes:
    """The seed of the hand being dealt now (``t.match_no``, ``t.hand_no``): the secret and the
    contributions of whoever sits in each seat. The contributions are used up."""
    secret = hand_secret(t, t.match_no, t.hand_no)
    given = dict(t.contributions)
    per_seat = tuple(given.get(slot.player) if slot.player is not None else None for slot in t.seats)
    seed = deal_seed(secret, per_seat)
    t.contributions = ()
    t.seal = Reveal(t.match_no, t.hand_no, len(t.seats), dealer, commitment(secret), secret.hex(),
                    per_seat, seed.hex())
    return seed


def reveal_deal(t: Table, ctx: Ctx) -> dict[str, Any] | None:
    """The hand is over (or its match ended): publish its secret and contributions to everyone."""
    seal = t.seal
    if seal is None:
        return None
    t.seal = None
    t.revealed = seal
    ctx.send(EVERYONE, DealRevealed(seal.match_no, seal.hand_no, seal.dealer, seal.commitment, seal.secret,
                                    seal.contributions, seal.seed))
    return seal.to_dict()


def fairness_view(t: Table, pid: int | None) -> dict[str, Any]:
    """What a person may know of the deals: the commitments of the hand on the table and of the next
    one, which seats contributed to the hand on the table, whether I contributed to the next one,
    and the reveal of the last hand that is over."""
    nxt: dict[str, Any] | None = None
    if t.phase != "closed":
        match_no, hand_no = next_deal(t)
        nxt = {"match_no": match_no, "hand_no": hand_no,
               "commitment": commitment(hand_secret(t, match_no, hand_no)),
               "mine": pid is not None and any(q == pid for q, _ in t.contributions)}
    seal = t.seal if t.phase == "playing" else None
    current = None if seal is None else {
        "match_no": seal.match_no, "hand_no": seal.hand_no, "commitment": seal.commitment,
        "contributed": [s for s, c in enumerate(seal.contributions) if c is not None]}
    revealed = None if t.revealed is None else t.revealed.to_dict()
    return {"next": nxt, "current": current, "revealed": revealed}
