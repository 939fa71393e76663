"""Storage: the database tables, the store that reads and writes them, and the migrations."""
