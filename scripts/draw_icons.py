"""Draw Delve's app icons (static/icons/): the favicon's doorway on its dark tile, as SVG and as
the PNG sizes platforms ask a web app manifest for (192 and 512, a maskable 512 whose doorway
stays inside the safe circle, and a 180 apple-touch icon without transparency).

    .venv/bin/python scripts/draw_icons.py     # rewrites static/icons/; commit the result

One geometry (on the favicon's 64-unit grid) draws both the SVG and, with Pillow, the PNGs
(drawn 4 times larger, then scaled down for smooth edges)."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
TILE, ARCH, DOOR = "#231f2b", "#f0b84a", "#15131a"
GRID = 64
# The doorway: (left, right, bottom, the arch's centre height, its radius) for the arch and the door.
OUTER = (14, 50, 52, 26, 18)
INNER = (22, 42, 52, 28, 10)
SUPERSAMPLE = 4


def svg(*, rounded: bool, scale: float) -> str:
    """The icon as SVG: ``rounded`` tile corners (no: full bleed, for maskable and Apple icons),
    the doorway scaled by ``scale`` about the centre."""
    corner = ' rx="12"' if rounded else ""
    offset = GRID / 2 * (1 - scale)

    def doorway(shape, fill):
        left, right, bottom, centre_y, radius = shape
        return (
            f'<path d="M{left} {bottom}V{centre_y}a{radius} {radius} 0 0 1 {right - left} 0V{bottom}z" fill="{fill}"/>'
        )

    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {GRID} {GRID}">'
        f'<rect width="{GRID}" height="{GRID}"{corner} fill="{TILE}"/>'
        f'<g transform="translate({offset:g} {offset:g}) scale({scale:g})">'
        f"{doorway(OUTER, ARCH)}{doorway(INNER, DOOR)}</g></svg>\n"
    )


def png(size: int, *, rounded: bool, scale: float) -> Image.Image:
    big = size * SUPERSAMPLE
    unit = big / GRID
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if rounded:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=12 * unit, fill=TILE)
    else:
        draw.rectangle((0, 0, big, big), fill=TILE)
    offset = GRID / 2 * (1 - scale)

    def at(value: float) -> float:
        return (offset + value * scale) * unit

    for (left, right, bottom, centre_y, radius), fill in ((OUTER, ARCH), (INNER, DOOR)):
        draw.rectangle((at(left), at(centre_y), at(right), at(bottom)), fill=fill)
        centre_x = (left + right) / 2
        draw.pieslice(
            (at(centre_x - radius), at(centre_y - radius), at(centre_x + radius), at(centre_y + radius)),
            180,
            360,
            fill=fill,
        )
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    ICONS.mkdir(parents=True, exist_ok=True)
    (ICONS / "icon.svg").write_text(svg(rounded=True, scale=1.0))
    # Maskable: the platform cuts the tile to its own shape; the doorway keeps within the inner 80%.
    (ICONS / "icon-maskable.svg").write_text(svg(rounded=False, scale=0.7))
    png(192, rounded=True, scale=1.0).save(ICONS / "icon-192.png", optimize=True)
    png(512, rounded=True, scale=1.0).save(ICONS / "icon-512.png", optimize=True)
    png(512, rounded=False, scale=0.7).save(ICONS / "icon-maskable-512.png", optimize=True)
    png(180, rounded=False, scale=0.85).convert("RGB").save(ICONS / "apple-touch-icon-180.png", optimize=True)
    for path in sorted(ICONS.iterdir()):
        print(path.relative_to(ICONS.parent.parent), path.stat().st_size, "bytes")


if __name__ == "__main__":
    main()
