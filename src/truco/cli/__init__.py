"""truco.cli"""
