"""truco.server"""
