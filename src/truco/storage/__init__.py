"""truco.storage"""
