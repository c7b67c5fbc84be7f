"""The job request's fields and the job phases, as the contract (openapi/openapi.yaml) has them.

Generated from the served contract: do not edit. After an API change, regenerate it with the
contract and commit both:

    ./mvnw -B test -Dtest=OpenApiContractTest -Dopenapi.update=true
"""

from enum import Enum
from typing import Dict, List, Literal, TypedDict


class JobRequest(TypedDict, total=False):
    """The body of POST /jobs. The service requires entry_point."""

    #: The Slurm account the job is charged to (slurm backend: sbatch --account), one the operator
    #: allows the namespace in paddlejobs.slurm.accounts; the backend's account when omitted; the
    #: other backends ignore it
    account: str

    #: Shell command run in each replica
    entry_point: str

    #: Extra environment variables; may not set an injected name
    env: Dict[str, str]

    #: Container image (kubernetes backend: defaults to paddlejobs.defaults.image; slurm backend
    #: with paddlejobs.slurm.containers=pyxis: each step's --container-image, else a warning that
    #: the nodes' own software runs; the local backend ignores it)
    image: str

    #: User labels, Kubernetes label syntax
    labels: Dict[str, str]

    #: How many times the whole job is started again after a failure (every replica stopped, then
    #: all started again after a backoff that doubles); at most paddlejobs.limits.max-restarts
    max_restarts: int

    #: How long the trainers may run before the job is stopped and fails, such as 90m, 2h or 1h30m
    #: (kubernetes backend: the trainer Job's activeDeadlineSeconds, counted from when the trainers
    #: start); no limit when omitted
    max_run_time: str

    #: Memory for the job (beginner), Kubernetes quantity
    memory: str

    #: ps (default): pservers and trainers (Paddle 2.x fleet, Paddle v2); collective: trainers only,
    #: which all-reduce gradients (Paddle 3.x); pserver fields are then an error
    mode: Literal["ps", "collective"]

    #: DNS-1035 label (starts with a letter: it names a Service), 1..40 characters; generated
    #: (job-xxxxx) when omitted
    name: str

    #: Webhooks told of the job's life, signed as Standard Webhooks sign them (docs/webhooks.md);
    #: each url's host must be one the operator allows (paddlejobs.webhooks.allowed-hosts)
    notify: List[object]

    #: CPUs for the job (beginner)
    num_cpus: int

    #: GPUs for the job (beginner)
    num_gpus: int

    #: An uploaded code package (POST /packages) of this namespace; replicas start in its unpacked
    #: directory
    package: str

    #: The Slurm partition (slurm backend: sbatch --partition), one the operator allows the
    #: namespace in paddlejobs.slurm.partitions; the backend's partition when omitted; the other
    #: backends ignore it
    partition: str

    #: First pserver port, 1024 or above (replicas run without privileges)
    port: int

    #: Dense-parameter ports per pserver
    ports_num: int

    #: Sparse-parameter ports per pserver
    ports_num_for_sparse: int

    #: The priority class to wait under (kubernetes backend with Kueue: a WorkloadPriorityClass, the
    #: kueue.x-k8s.io/priority-class label; with Volcano: the PodGroup's PriorityClass); the queue's
    #: default when omitted
    priority: str

    #: CPUs per pserver (advanced)
    pserver_cpu: int

    #: Shell command for pservers, if they start differently; defaults to entry_point
    pserver_entry_point: str

    #: Memory per pserver (advanced), Kubernetes quantity
    pserver_mem: str

    #: Pserver count (advanced); defaults to one per trainer
    pservers: int

    #: The Slurm quality of service (slurm backend: sbatch --qos), one the operator allows the
    #: namespace in paddlejobs.slurm.qos; the account's default when omitted; the other backends
    #: ignore it
    qos: str

    #: The scheduling queue to wait in (kubernetes backend: a Kueue LocalQueue of the job's
    #: namespace, the kueue.x-k8s.io/queue-name label; with the service's scheduler volcano, the
    #: Volcano queue of the job's PodGroup); defaults to the namespace's queue in
    #: paddlejobs.kubernetes.queues; the other backends ignore it
    queue: str

    #: Which failures are retried: any (the default with max_restarts), infrastructure (a kill by
    #: signal from outside, out of memory, eviction, a lost node; not the program's own exit), stall
    #: (see stall_timeout), or a list of these words and exit codes such as ["infrastructure", 1]
    restart_on: object

    #: How long no trainer may print a line or report a metric before the job is marked Stalled
    #: (and, with stall in restart_on, restarted), such as 30m; never when omitted
    stall_timeout: str

    #: CPUs per trainer (advanced)
    trainer_cpu: int

    #: GPUs per trainer (advanced)
    trainer_gpu: int

    #: Memory per trainer (advanced), Kubernetes quantity
    trainer_mem: str

    #: Trainer count (advanced)
    trainers: int

    #: Defaults to whether GPUs are asked for; a contradicting value is a warning
    use_gpu: bool


class JobPhase(str, Enum):
    """Where a job stands: JobStatus's phase."""

    PENDING = "Pending"
    RUNNING = "Running"
    SUCCEEDED = "Succeeded"
    FAILED = "Failed"
    CANCELLED = "Cancelled"
