"""PaddleJob: a job request with the seed's names."""

# Python name -> the request document's field. Most are the same; the seed's job_name and
# base_image are the request's name and image.
_FIELDS = {
    "job_name": "name",
    "entry_point": "entry_point",
    "pserver_entry_point": "pserver_entry_point",
    "image": "image",
    "mode": "mode",
    "package": "package",
    "num_gpus": "num_gpus",
    "num_cpus": "num_cpus",
    "memory": "memory",
    "trainers": "trainers",
    "trainer_cpu": "trainer_cpu",
    "trainer_gpu": "trainer_gpu",
    "trainer_mem": "trainer_mem",
    "pservers": "pservers",
    "pserver_cpu": "pserver_cpu",
    "pserver_mem": "pserver_mem",
    "port": "port",
    "ports_num": "ports_num",
    "ports_num_for_sparse": "ports_num_for_sparse",
    "use_gpu": "use_gpu",
    "env": "env",
    "labels": "labels",
}
_ALIASES = {"base_image": "image", "name": "job_name"}


class PaddleJob:
    """What to run and with what, in the seed's words::

        PaddleJob(job_name="word2vec", num_cpus=4, memory="8Gi", entry_point="python train.py")

    Only what is given is sent; the service derives the rest (trainers, pservers, per-replica
    shares) and shows why in the plan. ``namespace`` is where the job goes (else the client's).
    """

    def __init__(self, namespace=None, **fields):
        self.namespace = namespace
        self.fields = {}
        for key, value in fields.items():
            key = _ALIASES.get(key, key)
            if key not in _FIELDS:
                raise TypeError("PaddleJob() got an unknown field %r; known: %s" % (key, ", ".join(sorted(_FIELDS))))
            if value is not None:
                self.fields[key] = value

    def __getattr__(self, name):
        if name in _FIELDS:
            return self.__dict__.get("fields", {}).get(name)
        raise AttributeError(name)

    def with_fields(self, **fields):
        """A copy with some fields set (or changed)."""
        merged = dict(self.fields)
        merged.update(fields)
        return PaddleJob(namespace=self.namespace, **merged)

    def to_request(self):
        """The request document (JSON object) for POST /jobs."""
        return {_FIELDS[key]: value for key, value in self.fields.items()}

    def __repr__(self):
        return "PaddleJob(%s)" % ", ".join("%s=%r" % item for item in sorted(self.fields.items()))
