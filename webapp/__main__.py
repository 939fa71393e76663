"""Development server: ``python -m webapp [--host H] [--port P]`` (Werkzeug, reloader off)."""

import argparse

from . import create_app, socketio

parser = argparse.ArgumentParser(description="Run Delve's development server.")
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--port", type=int, default=8000)
args = parser.parse_args()

socketio.run(create_app(), host=args.host, port=args.port, allow_unsafe_werkzeug=True)
