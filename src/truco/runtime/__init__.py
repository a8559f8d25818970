"""truco.runtime"""
