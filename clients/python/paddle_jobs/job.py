"""PaddleJob: a job request, with the names PaddlePaddle's 2017 proposal for cluster jobs gave two of its fields."""

from typing import TYPE_CHECKING, Any, Dict, Mapping, Optional, Tuple, cast

from .contract import JobRequest

if TYPE_CHECKING:
    from typing_extensions import Unpack

# Every field of the contract's request (contract.py is generated from it), under its own name.
FIELDS: Tuple[str, ...] = tuple(JobRequest.__annotations__)
# PaddlePaddle's 2017 cluster-job proposal's names for two of them; each wire name is accepted too.
PROPOSAL_NAMES: Mapping[str, str] = {"job_name": "name", "base_image": "image"}


class PaddleJobFields(JobRequest, total=False):
    """PaddleJob's keywords: the request's fields, and the 2017 proposal's names for two of them."""

    job_name: str
    base_image: str


class PaddleJob:
    """What to run and with what, in the words of PaddlePaddle's 2017 proposal for cluster jobs::

        PaddleJob(job_name="word2vec", num_cpus=4, memory="8Gi", entry_point="python train.py")

    Takes exactly the request's fields (``JobRequest``); ``job_name`` and ``base_image`` are the
    proposal's names for ``name`` and ``image``. Only what is given is sent; the service derives the
    rest (trainers, pservers, per-replica shares) and shows why in the plan. ``namespace`` is where
    the job goes (else the client's).
    """

    def __init__(self, namespace: Optional[str] = None, **fields: "Unpack[PaddleJobFields]") -> None:
        self.namespace = namespace
        self.fields: Dict[str, Any] = {}
        for key, value in fields.items():
            wire = PROPOSAL_NAMES.get(key, key)
            if wire not in FIELDS:
                known = ", ".join(FIELDS + tuple(PROPOSAL_NAMES))
                raise TypeError("PaddleJob() got an unknown field %r; known: %s" % (key, known))
            if value is not None:
                self.fields[wire] = value

    def __getattr__(self, name: str) -> Any:
        wire = PROPOSAL_NAMES.get(name, name)
        if wire in FIELDS:
            return self.__dict__.get("fields", {}).get(wire)
        raise AttributeError(name)

    def with_fields(self, **fields: Any) -> "PaddleJob":
        """A copy with some fields set (or changed)."""
        merged = dict(self.fields)
        merged.update(fields)
        return PaddleJob(namespace=self.namespace, **merged)

    def to_request(self) -> JobRequest:
        """The request document (JSON object) for POST /jobs."""
        return cast(JobRequest, dict(self.fields))

    def __repr__(self) -> str:
        return "PaddleJob(%s)" % ", ".join("%s=%r" % item for item in sorted(self.fields.items()))
