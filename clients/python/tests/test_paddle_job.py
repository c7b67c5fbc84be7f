import pytest

import paddle_jobs


def test_paddle_job_speaks_the_seeds_names_and_sends_only_what_is_given():
    job = paddle_jobs.PaddleJob(job_name="word2vec", num_gpus=0, num_cpus=3, memory="1G", pservers=3,
                                base_image="example/paddle:2.6", entry_point="python train.py", trainer_mem=None)

    assert job.to_request() == {"name": "word2vec", "num_gpus": 0, "num_cpus": 3, "memory": "1G", "pservers": 3,
                                "image": "example/paddle:2.6", "entry_point": "python train.py"}
    assert job.num_cpus == 3 and job.trainers is None


def test_paddle_job_refuses_an_unknown_field():
    with pytest.raises(TypeError, match="num_gpu"):
        paddle_jobs.PaddleJob(num_gpu=1)


def test_client_reads_the_seeds_environment(monkeypatch):
    monkeypatch.setenv("PADDLE_JOBS_URL", "http://127.0.0.1:9999/")
    monkeypatch.setenv("PADDLE_JOBS_TOKEN", "secret")
    monkeypatch.setenv("USER_NAMESPACE", "yanxu")

    client = paddle_jobs.Client()

    assert (client.url, client.token, client.namespace) == ("http://127.0.0.1:9999", "secret", "yanxu")


def test_an_unreachable_service_is_an_error_naming_it():
    with pytest.raises(paddle_jobs.PaddleJobsError, match="127.0.0.1:9"):
        paddle_jobs.Client(url="http://127.0.0.1:9", token="", namespace="").list()
