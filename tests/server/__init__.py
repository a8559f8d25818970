"""Tests of the server: protocol, HTTP lobby, WebSocket endpoint, crash recovery."""
