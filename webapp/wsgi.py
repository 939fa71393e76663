"""The production entry point: ``gunicorn -c gunicorn.conf.py 'webapp.wsgi:app'``."""

import sys

from . import ConfigError, create_app

try:
    app = create_app()
except ConfigError as error:
    # One line that says what to fix, not a traceback around it; exit status 3 is gunicorn's
    # "worker failed to boot", which stops the master instead of respawning the worker forever.
    print(f"Delve cannot start: {error}", file=sys.stderr, flush=True)
    sys.exit(3)
