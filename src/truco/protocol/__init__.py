"""truco.protocol"""
