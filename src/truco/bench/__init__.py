"""Load generators, benchmarks and simulated clients: tools that measure the product, not part of it."""
