"""Shared by the layout tests of the engine and of the web package."""

from __future__ import annotations


def import_circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Every import circle in ``graph`` (module -> the modules it imports), each as the trail that
    closes it; [] when there is none.

    >>> import_circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}})
    [['a', 'b', 'c', 'a']]
    >>> import_circles({"a": {"b"}, "b": set()})
    []
    """
    circles: list[list[str]] = []
    state: dict[str, str] = {}

    def visit(name: str, trail: list[str]) -> None:
        state[name] = "open"
        for other in sorted(graph[name]):
            if state.get(other) == "open":
                circles.append(trail[trail.index(other) :] + [name, other] if other in trail else [name, other])
            elif other not in state:
                visit(other, [*trail, name])
        state[name] = "done"

    for name in sorted(graph):
        if name not in state:
            visit(name, [])
    return circles
