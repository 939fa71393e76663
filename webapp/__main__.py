"""Development server: ``python -m webapp [--host H] [--port P]`` (Werkzeug, reloader off), with
the background solver beside it (``SOLVER_WORKER``); ``python -m webapp solver``: the solver
worker alone (``webapp/solver_worker.py``)."""

import argparse

parser = argparse.ArgumentParser(description="Run Delve's development server, or its solver worker alone.")
parser.add_argument(
    "command", nargs="?", choices=["serve", "solver"], default="serve", help="serve (the default) or solver"
)
parser.add_argument("--host", default="127.0.0.1")
parser.add_argument("--port", type=int, default=8000)

if __name__ == "__main__":
    args = parser.parse_args()
    if args.command == "solver":
        from .solver_worker import main

        main()
    else:
        from . import create_app, socketio

        socketio.run(create_app(), host=args.host, port=args.port, allow_unsafe_werkzeug=True)
