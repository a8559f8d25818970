"""truco.table"""
