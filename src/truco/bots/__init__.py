"""truco.bots"""
