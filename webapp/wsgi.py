"""The production entry point: ``gunicorn -w 1 --threads 100 'webapp.wsgi:app'``."""

from . import create_app

app = create_app()
