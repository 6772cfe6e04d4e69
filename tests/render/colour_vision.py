"""Colour-vision deficiency simulation and perceptual colour distance, for the colour tests.

Simulation: Machado, Oliveira & Fernandes (2009), "A Physiologically-based Model for Simulation
of Color Vision Deficiency", matrices for severity 1.0 (full dichromacy), applied to linear RGB.
Distance: CIE 1976 Delta E in CIELAB (D65 white), where about 2.3 is a just noticeable
difference and differences above ~20 read as clearly different colours at a glance.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

MACHADO_2009: dict[str, tuple[tuple[float, float, float], ...]] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
VISIONS = (None, *MACHADO_2009)  # None: typical colour vision


def _linear(v: float) -> float:
    v /= 255
    return v / 12.92 if v <= 0.04045 else ((v + 0.055) / 1.055) ** 2.4


def simulate(c: Sequence[int], vision: str | None) -> tuple[float, float, float]:
    """Linear RGB (0..1) of sRGB colour ``c`` as seen with ``vision`` (None: unchanged)."""
    lin = [_linear(x) for x in c[:3]]
    if vision is None:
        return (lin[0], lin[1], lin[2])
    m = MACHADO_2009[vision]
    out = [min(1.0, max(0.0, sum(m[i][j] * lin[j] for j in range(3)))) for i in range(3)]
    return (out[0], out[1], out[2])


def lab(lin: Sequence[float]) -> tuple[float, float, float]:
    """CIELAB (D65) of a linear RGB colour."""
    r, g, b = lin
    x = (0.4124564 * r + 0.3575761 * g + 0.1804375 * b) / 0.95047
    y = 0.2126729 * r + 0.7151522 * g + 0.0721750 * b
    z = (0.0193339 * r + 0.1191920 * g + 0.9503041 * b) / 1.08883

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 216 / 24389 else (24389 / 27 * t + 16) / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def delta_e(a: Sequence[int], b: Sequence[int], vision: str | None = None) -> float:
    """CIE76 distance between two sRGB colours as seen with ``vision``."""
    return math.dist(lab(simulate(a, vision)), lab(simulate(b, vision)))


def worst_pair(colours: dict[str, Sequence[int]]) -> tuple[float, str, str, str | None]:
    """(distance, name, name, vision) of the closest pair under any vision."""
    names = list(colours)
    return min(
        (delta_e(colours[a], colours[b], v), a, b, v)
        for v in VISIONS
        for i, a in enumerate(names)
        for b in names[i + 1 :]
    )


def simulate_image(img, vision: str | None):
    """The picture as seen with ``vision`` (Pillow only: sRGB -> linear by a table, the Machado
    matrix by ``Image.convert``'s colour matrix, back to sRGB). 8-bit linear values lose a little
    precision in the darkest tones: good enough to look at, not to measure (use :func:`delta_e`)."""
    from PIL import Image

    rgb = img.convert("RGB")
    if vision is None:
        return rgb
    to_lin = [round(_linear(v) * 255) for v in range(256)] * 3
    to_srgb = []
    for v in range(256):
        x = v / 255
        s = 12.92 * x if x <= 0.0031308 else 1.055 * x ** (1 / 2.4) - 0.055
        to_srgb.append(max(0, min(255, round(s * 255))))
    m = MACHADO_2009[vision]
    matrix = tuple(x for row in m for x in (*row, 0.0))
    lin = rgb.point(to_lin)
    return lin.convert("RGB", matrix).point(to_srgb * 3).convert("RGB") if isinstance(lin, Image.Image) else lin


def vision_sheet(img, width: int = 400):
    """Four copies side by side, each ``width`` px wide: typical vision, deuteranopia,
    protanopia, tritanopia (to look at a picture as colour-blind players see it on a phone)."""
    from PIL import Image

    from tests.render.gallery import phone

    small = phone(img, width)
    sheet = Image.new("RGB", (4 * small.width + 30, small.height), (255, 255, 255))
    for i, v in enumerate((None, "deuteranopia", "protanopia", "tritanopia")):
        sheet.paste(simulate_image(small, v), (i * (small.width + 10), 0))
    return sheet
