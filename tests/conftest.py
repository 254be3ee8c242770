"""Fixtures shared by the `jxmj detect` and `jxmj photo` tests: a painted hand scene and
stand-in ONNX models that read it (built per test module, no real models needed)."""

from __future__ import annotations

import pytest

from tests.vision.conftest import SCENE_SIZE
from vision import testing


@pytest.fixture(scope="module")
def scene():
    return testing.hand_scene(*SCENE_SIZE)


@pytest.fixture(scope="module")
def scene_pixels(scene):
    return testing.paint_scene(*SCENE_SIZE, scene)


@pytest.fixture(scope="module")
def stand_in_models(tmp_path_factory, scene):
    return testing.build_models(tmp_path_factory.mktemp("models"), scene, SCENE_SIZE)


@pytest.fixture
def models_env(stand_in_models, monkeypatch):
    monkeypatch.setenv("JXMJ_MODELS_DIR", str(stand_in_models))
    return stand_in_models
