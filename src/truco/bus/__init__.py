"""truco.bus"""
