import json

import pytest

import paddle_jobs


def test_report_prints_the_agreed_metrics_line(capsys):
    paddle_jobs.report(3, loss=0.35, accuracy=1)

    line = capsys.readouterr().out
    assert line == 'PADDLEJOBS_METRICS {"step": 3, "loss": 0.35, "accuracy": 1}\n'
    assert json.loads(line[len("PADDLEJOBS_METRICS "):]) == {"step": 3, "loss": 0.35, "accuracy": 1}


def test_report_accepts_dotted_names():
    assert paddle_jobs.report(0, **{"val.loss": 2}) == 'PADDLEJOBS_METRICS {"step": 0, "val.loss": 2}'


@pytest.mark.parametrize("step, values", [
    (-1, {"loss": 1.0}),
    (1.5, {"loss": 1.0}),
    (True, {"loss": 1.0}),
    (1, {}),
    (1, {"loss": float("nan")}),
    (1, {"loss": "0.3"}),
    (1, {"loss": True}),
    (1, {"9lives": 1.0}),
    (1, {"with space": 1.0}),
])
def test_report_refuses_what_the_service_would_not_read(step, values, capsys):
    with pytest.raises(ValueError):
        paddle_jobs.report(step, **values)
    assert capsys.readouterr().out == ""


def test_report_with_total_steps_puts_it_after_the_step_and_may_stand_alone():
    assert paddle_jobs.report(3, total_steps=80, loss=0.5) == \
        'PADDLEJOBS_METRICS {"step": 3, "total_steps": 80, "loss": 0.5}'
    assert paddle_jobs.report(4, total_steps=80) == 'PADDLEJOBS_METRICS {"step": 4, "total_steps": 80}'


@pytest.mark.parametrize("total", [0, -1, 2.5, True, "80"])
def test_report_refuses_a_total_the_service_would_not_read(total, capsys):
    with pytest.raises(ValueError):
        paddle_jobs.report(1, total_steps=total, loss=1.0)
    assert capsys.readouterr().out == ""
