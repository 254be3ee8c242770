"""The two networks, plain PyTorch (no torchvision): a crop classifier and a CenterNet-style localiser."""

from __future__ import annotations

import torch
from torch import nn
from torch.nn import functional as F


def cbr(ci, co, s=1, k=3, g=1):
    return nn.Sequential(
        nn.Conv2d(ci, co, k, s, k // 2, groups=g, bias=False), nn.BatchNorm2d(co), nn.ReLU(inplace=True)
    )


class Res(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.a = cbr(c, c)
        self.b = nn.Sequential(nn.Conv2d(c, c, 3, 1, 1, bias=False), nn.BatchNorm2d(c))

    def forward(self, x):
        return F.relu(x + self.b(self.a(x)))


class TileClassifier(nn.Module):
    """Crop [B,3,H,W] RGB 0..1 -> logits [B, n_classes]."""

    def __init__(self, n_classes=36, width=24):
        super().__init__()
        w = width
        self.net = nn.Sequential(
            cbr(3, w, 2),
            cbr(w, 2 * w, 2),
            Res(2 * w),
            cbr(2 * w, 4 * w, 2),
            Res(4 * w),
            cbr(4 * w, 7 * w, 2),
            Res(7 * w),
        )
        self.drop = nn.Dropout(0.2)
        self.fc = nn.Linear(7 * w, n_classes)

    def forward(self, x):
        x = (x - 0.5) / 0.25
        x = self.net(x)
        x = x.mean((2, 3))
        return self.fc(self.drop(x))


class Localizer(nn.Module):
    """Image [B,3,S,S] RGB 0..1 -> (heat logits [B,nc,S/4,S/4], reg [B,4,S/4,S/4]).

    reg = (offset x, offset y) within the stride-4 cell, (log w, log h) in stride units.
    """

    stride = 4

    def __init__(self, nc=2, w=16):
        super().__init__()
        self.s2 = cbr(3, w, 2)
        self.s4 = cbr(w, 3 * w // 2, 2)
        self.s8 = nn.Sequential(cbr(3 * w // 2, 3 * w, 2), Res(3 * w))
        self.s16 = nn.Sequential(cbr(3 * w, 6 * w, 2), Res(6 * w))
        self.s32 = nn.Sequential(cbr(6 * w, 8 * w, 2), Res(8 * w))
        self.l16 = cbr(8 * w + 6 * w, 4 * w, k=1)
        self.m16 = cbr(4 * w, 4 * w)
        self.l8 = cbr(4 * w + 3 * w, 3 * w, k=1)
        self.m8 = cbr(3 * w, 3 * w)
        self.l4 = cbr(3 * w + 3 * w // 2, 3 * w // 2, k=1)
        self.m4 = cbr(3 * w // 2, 3 * w // 2)
        self.heat = nn.Conv2d(3 * w // 2, nc, 1)
        self.reg = nn.Conv2d(3 * w // 2, 4, 1)
        nn.init.constant_(self.heat.bias, -2.19)

    def forward(self, x):
        x = (x - 0.5) / 0.25
        f4 = self.s4(self.s2(x))
        f8 = self.s8(f4)
        f16 = self.s16(f8)
        f32 = self.s32(f16)
        u = F.interpolate(f32, size=f16.shape[2:], mode="nearest")
        u = self.m16(self.l16(torch.cat([u, f16], 1)))
        u = F.interpolate(u, size=f8.shape[2:], mode="nearest")
        u = self.m8(self.l8(torch.cat([u, f8], 1)))
        u = F.interpolate(u, size=f4.shape[2:], mode="nearest")
        u = self.m4(self.l4(torch.cat([u, f4], 1)))
        return self.heat(u), self.reg(u)


class LocalizerExport(nn.Module):
    """Wraps a Localizer to the YOLOv8 output layout [1, 4 + nc, N] (cx, cy, w, h in input pixels, scores).

    Scores are sigmoid heat with non-peaks (3x3 max-pool) zeroed, so the runtime's threshold + NMS is cheap.
    """

    def __init__(self, m: Localizer):
        super().__init__()
        self.m = m

    def forward(self, images):
        heat, reg = self.m(images)
        heat = torch.sigmoid(heat)
        peak = F.max_pool2d(heat, 3, 1, 1)
        heat = heat * (heat >= peak).to(heat.dtype)
        _b, _nc, h, w = heat.shape
        s = float(self.m.stride)
        gy = torch.arange(h, dtype=heat.dtype).view(1, h, 1).expand(1, h, w)
        gx = torch.arange(w, dtype=heat.dtype).view(1, 1, w).expand(1, h, w)
        cx = (gx + reg[:, 0]) * s
        cy = (gy + reg[:, 1]) * s
        bw = torch.exp(reg[:, 2].clamp(-4, 6)) * s
        bh = torch.exp(reg[:, 3].clamp(-4, 6)) * s
        boxes = torch.stack([cx, cy, bw, bh], 1)
        return torch.cat([boxes, heat], 1).flatten(2)
