"""Argentine truco: rules engine, tables, bots, server and phone client."""
