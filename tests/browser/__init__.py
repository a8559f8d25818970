"""Browser tests: the phone client in a real Chromium (Playwright), against the real server."""
