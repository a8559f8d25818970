"""The GC policy: young collections stay automatic, full ones run only on the policy's clock."""

from __future__ import annotations

import asyncio
import gc

import pytest

from truco.server.gc_policy import NEVER, YOUNG, GcPolicy


@pytest.mark.slow
async def test_full_collections_run_on_a_clock_and_settings_are_restored() -> None:
    before = gc.get_threshold()
    policy = GcPolicy(full_every_s=0.02)
    policy.start()
    try:
        assert gc.get_threshold() == (max(YOUNG, before[0]), NEVER, NEVER)
        assert gc.get_freeze_count() > 0
        # Two collections on the clock. Polled, not slept for a fixed time: a loop stalled by a busy
        # machine fires the test's timer before the policy's second one, which proves nothing.
        deadline = asyncio.get_running_loop().time() + 10
        while policy.full_collections < 2 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.02)
        assert policy.full_collections >= 2
    finally:
        await policy.stop()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0


async def test_a_zero_clock_leaves_the_collector_alone() -> None:
    before = gc.get_threshold()
    policy = GcPolicy(full_every_s=0)
    policy.start()
    assert gc.get_threshold() == before and gc.get_freeze_count() == 0
    await policy.stop()
