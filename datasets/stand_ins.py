"""Stand-ins for tile sets unlike any in training: copies of `real_photos_rf` whose validation
photos are recoloured, for fitting and measuring the `uncertain` flag (`datasets.flag_sets`).

    python -m datasets.stand_ins swap /tmp/refs-swap
    python -m datasets.stand_ins hue /tmp/refs-hue
    python -m datasets.stand_ins mono /tmp/refs-mono   # 0.7.0's held-out stand-in

Kinds (`KINDS`): `swap`, red and blue swapped (JPEG quality 95); `hue`, the hue turned 60°
(OpenCV HSV, +30 of 180), then gamma 1.3 and gain 1.05 (JPEG quality 90) — a change that a grey
view does not undo, unlike `swap`; `bold`, the inks printed bolder: every dark stroke a pixel
thicker (grey erosion, 2 × 2) and the faces 4 % darker (JPEG quality 92) — a change of shape, not
colour, that no training crop's augmentation makes (0.6.5 trains with the inks recoloured, so
`swap` and `hue` are no longer unfamiliar to it); `mono` (0.7.0, for testing only: 0.7.0 trains
with bold inks, the inks real sets differ by and the world's styles, so `bold`, `hue` and `swap`
are partly familiar to it), a one-ink set: every ink (a pixel whose chroma stands out of the
face's) turned to one blue with its strength kept and its luma x0.85 (JPEG quality 92) — no
set in training prints its 萬, dots, bamboo and dragons all in one ink. The copy is laid out as
the source (`images/`, `labels/`,
`classes.txt`): the validation photos (seed 1, 0.2, `datasets.real.split_by_source`) written,
the training photos, the labels and the class list linked. Never commit a copy: the photos are
CC BY 4.0 training material (credit in the README).
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path

import numpy as np

KINDS = ("swap", "hue", "bold", "mono")
QUALITY = {"swap": 95, "hue": 90, "bold": 92, "mono": 92}


def recolour(bgr: np.ndarray, kind: str) -> np.ndarray:
    """`bgr` `(h, w, 3)` uint8 recoloured as `kind` says.

    Raises:
        ValueError: `kind` is not one of `KINDS`.

    >>> px = np.array([[[10, 20, 200]]], np.uint8)
    >>> recolour(px, "swap").tolist()
    [[[200, 20, 10]]]
    >>> recolour(px, "hue").tolist() != px.tolist()
    True
    >>> recolour(np.full((3, 3, 3), 200, np.uint8), "bold")[1, 1].tolist()
    [192, 192, 192]
    >>> recolour(np.full((1, 1, 3), 235, np.uint8), "mono").tolist()  # a grey face stays
    [[[235, 235, 235]]]
    >>> b, g, r = recolour(px, "mono")[0, 0].tolist()  # a red ink turns blue
    >>> b > g > r
    True
    """
    import cv2

    if kind == "swap":
        return np.ascontiguousarray(bgr[:, :, ::-1])
    if kind == "hue":
        hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV)
        hsv[..., 0] = (hsv[..., 0].astype(np.int32) + 30) % 180
        out = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)
        return np.clip(255 * (out / 255.0) ** 1.3 * 1.05, 0, 255).astype(np.uint8)
    if kind == "bold":
        out = cv2.erode(bgr, np.ones((2, 2), np.uint8))
        return np.clip(out.astype(np.float32) * 0.96, 0, 255).astype(np.uint8)
    if kind == "mono":
        ycc = cv2.cvtColor(bgr, cv2.COLOR_BGR2YCrCb).astype(np.float32)
        cr, cb = ycc[..., 1] - 128, ycc[..., 2] - 128
        strength = np.sqrt(cr * cr + cb * cb)
        inked = np.clip((strength - 10) / 15, 0, 1)  # a face's chroma stays under ~10
        teal = np.array([-0.8, 0.6], np.float32)  # (Cr, Cb) of a blue, unit length
        ycc[..., 1] = 128 + cr * (1 - inked) + teal[0] * strength * inked
        ycc[..., 2] = 128 + cb * (1 - inked) + teal[1] * strength * inked
        ycc[..., 0] *= 1 - 0.15 * inked
        out = cv2.cvtColor(np.clip(ycc, 0, 255).astype(np.uint8), cv2.COLOR_YCrCb2BGR)
        return out
    raise ValueError(f"unknown stand-in kind {kind!r}: one of {', '.join(KINDS)}")


def stand_in_copy(src: Path, dst: Path, kind: str) -> int:
    """Make the `kind` copy of the `real_photos_rf` tree `src` in `dst` (what is there stays).

    Returns the number of photos written. Raises ValueError for an unknown `kind`.
    """
    import cv2

    from datasets.real import photos, split_by_source

    if kind not in KINDS:
        raise ValueError(f"unknown stand-in kind {kind!r}: one of {', '.join(KINDS)}")
    (dst / "images").mkdir(parents=True, exist_ok=True)
    for name in ("labels", "classes.txt"):
        if not (dst / name).exists():
            os.symlink((src / name).resolve(), dst / name)
    stems = photos(src)
    split, n = split_by_source(stems, 1, 0.2), 0
    for stem in stems:
        out, photo = dst / "images" / f"{stem}.jpg", src / "images" / f"{stem}.jpg"
        if out.exists():
            continue
        if split[stem] == "val":
            px = recolour(cv2.imread(str(photo)), kind)
            cv2.imwrite(str(out), px, [cv2.IMWRITE_JPEG_QUALITY, QUALITY[kind]])
            n += 1
        else:
            os.symlink(photo.resolve(), out)
    return n


def main(argv=None) -> int:
    from datasets.tiles import SHARED

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("kind", choices=KINDS)
    ap.add_argument("out")
    ap.add_argument("--src", default=str(SHARED / "data" / "real_photos_rf"))
    a = ap.parse_args(argv)
    if not (Path(a.src) / "images").is_dir():
        print(f"{a.src} is not here (set JXMJ_SHARED): nothing to copy")
        return 0
    print(f"{stand_in_copy(Path(a.src), Path(a.out), a.kind)} photos written to {a.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
