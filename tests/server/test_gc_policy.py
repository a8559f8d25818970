"""The GC policy freezes long-lived objects on a cadence and releases them again later."""

from __future__ import annotations

import asyncio
import gc

from truco.server.gc_policy import GcPolicy


async def test_long_lived_objects_are_frozen_then_released() -> None:
    policy = GcPolicy(freeze_every_s=0.01, release_every_s=0.05)
    policy.start()
    try:
        assert gc.get_freeze_count() > 0
        await asyncio.sleep(0.2)
        assert policy.freezes >= 2 and policy.releases >= 1
    finally:
        await policy.stop()
    assert gc.get_freeze_count() == 0


async def test_a_zero_cadence_leaves_the_collector_alone() -> None:
    policy = GcPolicy(freeze_every_s=0)
    policy.start()
    assert gc.get_freeze_count() == 0 and policy.freezes == 0
    await policy.stop()
