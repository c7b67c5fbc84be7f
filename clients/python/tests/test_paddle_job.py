import os

import pytest

import paddle_jobs
from conftest import REPOSITORY

CONTRACT = os.path.join(REPOSITORY, "openapi", "openapi.yaml")


def contract_request_fields():
    """JobRequest's property names in the committed contract, read from its (generated, fixed) layout:
    the keys indented eight spaces under "    JobRequest:" / "      properties:"."""
    with open(CONTRACT, encoding="utf-8") as contract:
        lines = contract.read().splitlines()
    start = lines.index("    JobRequest:")
    properties = next(i for i in range(start + 1, len(lines)) if lines[i] == "      properties:")
    names = []
    for line in lines[properties + 1:]:
        indent = len(line) - len(line.lstrip(" "))
        if line.strip() and indent <= 6:
            break
        if indent == 8 and line.endswith(":"):
            names.append(line.strip()[:-1])
    return names


def test_paddle_job_accepts_exactly_the_contracts_request_fields():
    fields = contract_request_fields()

    assert "entry_point" in fields and "max_run_time" in fields  # the reader found the schema
    assert list(paddle_jobs.job.FIELDS) == fields
    for name in fields:
        assert paddle_jobs.PaddleJob(**{name: "x"}).to_request() == {name: "x"}, name


def test_paddle_job_speaks_the_seeds_names_and_sends_only_what_is_given():
    job = paddle_jobs.PaddleJob(job_name="word2vec", num_gpus=0, num_cpus=3, memory="1G", pservers=3,
                                base_image="example/paddle:2.6", entry_point="python train.py", trainer_mem=None,
                                max_run_time="1h")

    assert job.to_request() == {"name": "word2vec", "num_gpus": 0, "num_cpus": 3, "memory": "1G", "pservers": 3,
                                "image": "example/paddle:2.6", "entry_point": "python train.py", "max_run_time": "1h"}
    assert job.num_cpus == 3 and job.trainers is None and job.job_name == "word2vec"


def test_paddle_job_refuses_an_unknown_field():
    with pytest.raises(TypeError, match="num_gpu"):
        paddle_jobs.PaddleJob(num_gpu=1)


def test_the_package_tells_type_checkers_it_is_typed_and_names_the_phases():
    assert os.path.isfile(os.path.join(os.path.dirname(paddle_jobs.__file__), "py.typed"))
    assert paddle_jobs.JobPhase("Succeeded") is paddle_jobs.JobPhase.SUCCEEDED
    assert paddle_jobs.JobPhase.FAILED == "Failed"


def test_client_reads_the_seeds_environment(monkeypatch):
    monkeypatch.setenv("PADDLE_JOBS_URL", "http://127.0.0.1:9999/")
    monkeypatch.setenv("PADDLE_JOBS_TOKEN", "secret")
    monkeypatch.setenv("USER_NAMESPACE", "yanxu")

    client = paddle_jobs.Client()

    assert (client.url, client.token, client.namespace) == ("http://127.0.0.1:9999", "secret", "yanxu")


def test_an_unreachable_service_is_an_error_naming_it():
    with pytest.raises(paddle_jobs.PaddleJobsError, match="127.0.0.1:9"):
        paddle_jobs.Client(url="http://127.0.0.1:9", token="", namespace="").list()
