"""The trainers' shared loop parts: the learning-rate schedule and checkpoint resume."""

import pytest
import torch

from datasets.trainloop import resume, save_checkpoint, set_lr


def _model_and_opt():
    model = torch.nn.Linear(3, 2)
    return model, torch.optim.AdamW(model.parameters(), lr=1.0)


@pytest.mark.parametrize(
    ("it", "expected"),
    [(0, 0.1), (9, 1.0), (50, 0.5), (75, 0.1464466094), (100, 0.0)],
)
def test_warmup_then_cosine(it, expected):
    _, opt = _model_and_opt()
    lr = set_lr(opt, 1.0, it, total=100, warmup=10)
    assert lr == pytest.approx(expected, abs=1e-9)
    assert opt.param_groups[0]["lr"] == lr


def test_resume_restores_model_and_iteration(tmp_path):
    ck = tmp_path / "last.pt"
    model, opt = _model_and_opt()
    assert resume(ck, model, opt) == 0  # no checkpoint yet
    save_checkpoint(ck, model, opt, 40, width=8)
    fresh, fresh_opt = _model_and_opt()
    assert resume(ck, fresh, fresh_opt) == 40
    assert torch.equal(fresh.weight, model.weight)
