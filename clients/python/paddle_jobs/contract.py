"""The job request's fields, the job phases and the answers the client returns, as the contract
(openapi/openapi.yaml) has them.

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

    #: Hold a failed attempt this long instead of restarting or ending it, such as 10m: the replicas
    #: that still run are kept, the failed one's directory and environment too, the job reads
    #: Running with reason Held, and POST /jobs/{name}/exec runs commands in any replica; then the
    #: job restarts or fails as it would have. At most paddlejobs.limits.max-debug-hold (local and
    #: Slurm backends; on Slurm within the job's time limit)
    debug_hold: str

    #: Shell command run in each replica
    entry_point: str

    #: Extra environment variables; may not set an injected name
    env: Dict[str, str]

    #: Environment variables whose values are secrets of the job's namespace, by name: each {secret,
    #: key} (kubernetes backend: a secretKeyRef to the namespace's Secret, which the service never
    #: reads; local and slurm: the operator's secret store, paddlejobs.secrets.store). Only the
    #: reference is kept and shown; the value reaches the replicas' environment alone
    #: (docs/kubeflow.md#secrets)
    env_from_secrets: Dict[str, "SecretKeyRef"]

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

    #: Requirements on node labels every pod's node must meet, all of them (kubernetes backend: the
    #: pods' required node affinity, one term); In and Exists only on labels the operator allows the
    #: namespace (paddlejobs.kubernetes.placement.node-labels)
    node_affinity: List["NodeRequirement"]

    #: Node labels every pod's node must have (kubernetes backend), among those the operator allows
    #: the namespace (paddlejobs.kubernetes.placement.node-labels)
    node_selector: Dict[str, str]

    #: Webhooks told of the job's life, signed as Standard Webhooks sign them (docs/webhooks.md);
    #: each url's host must be one the operator allows (paddlejobs.webhooks.allowed-hosts)
    notify: List["Notify"]

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

    #: The pservers' extra environment variables, besides and over env
    pserver_env: Dict[str, str]

    #: The pservers' image where it differs from image (kubernetes; slurm with Pyxis; the local
    #: backend maps it as image, see paddlejobs.local.images); defaults to image
    pserver_image: str

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

    #: Size of each trainer's memory-backed /dev/shm (kubernetes backend), at most its memory;
    #: defaults to paddlejobs.kubernetes.shm-size, Kubernetes quantity
    shm_size: str

    #: How long no trainer may print a line or report a metric before the job is marked Stalled
    #: (and, with stall in restart_on, restarted), such as 30m; never when omitted
    stall_timeout: str

    #: Taints every pod tolerates (kubernetes backend), among those the operator allows the
    #: namespace (paddlejobs.kubernetes.placement.tolerations)
    tolerations: List["Toleration"]

    #: CPUs per trainer (advanced)
    trainer_cpu: int

    #: The trainers' extra environment variables, besides and over env
    trainer_env: Dict[str, str]

    #: GPUs per trainer (advanced)
    trainer_gpu: int

    #: Memory per trainer (advanced), Kubernetes quantity
    trainer_mem: str

    #: Trainer count (advanced)
    trainers: int

    #: Defaults to whether GPUs are asked for; a contradicting value is a warning
    use_gpu: bool

    #: Claims and config maps of the namespace mounted read-only in every replica (kubernetes
    #: backend), among those the operator allows the namespace
    #: (paddlejobs.kubernetes.placement.volumes)
    volumes: List["Volume"]


class JobPhase(str, Enum):
    """Where a job stands: JobStatus's phase."""

    PENDING = "Pending"
    RUNNING = "Running"
    SUCCEEDED = "Succeeded"
    FAILED = "Failed"
    CANCELLED = "Cancelled"


class _AttemptRequired(TypedDict):

    number: int

    started_at: str


class Attempt(_AttemptRequired, total=False):
    """The contract's Attempt."""

    finished_at: str

    message: str

    reason: str


class _ProgressRequired(TypedDict):

    step: int

    trainer: str


class Progress(_ProgressRequired, total=False):
    """The contract's Progress."""

    eta_seconds: int

    fraction: float

    steps_per_second: float

    total_steps: int


class _RoleCountsRequired(TypedDict):

    desired: int

    failed: int

    pending: int

    running: int

    stopped: int

    succeeded: int


class RoleCounts(_RoleCountsRequired, total=False):
    """The contract's RoleCounts."""


class _ReplicaStatusRequired(TypedDict):

    id: str

    index: int

    restarts: int

    role: Literal["pserver", "trainer"]

    state: Literal["Pending", "Running", "Succeeded", "Failed", "Stopped"]


class ReplicaStatus(_ReplicaStatusRequired, total=False):
    """The contract's ReplicaStatus."""

    exit_code: int

    finished_at: str

    gpus: List[str]

    host: str

    namespace_pid: int

    pid: int

    reason: str

    started_at: str


class _JobStatusRequired(TypedDict):

    attempts: List["Attempt"]

    created_at: str

    phase: Literal["Pending", "Running", "Succeeded", "Failed", "Cancelled"]

    replicas: List["ReplicaStatus"]

    restarts: int


class JobStatus(_JobStatusRequired, total=False):
    """The contract's JobStatus."""

    archived: bool

    finished_at: str

    message: str

    progress: "Progress"

    pservers: "RoleCounts"

    queue_position: int

    reason: str

    started_at: str

    trainers: "RoleCounts"


class _DerivationRequired(TypedDict):

    field: str

    rule: str

    value: str


class Derivation(_DerivationRequired, total=False):
    """The contract's Derivation."""


class _PortsRequired(TypedDict):

    first: int

    num: int

    num_for_sparse: int


class Ports(_PortsRequired, total=False):
    """The contract's Ports."""


class _ResourcesRequired(TypedDict):

    #: Kubernetes quantity
    cpu: str

    gpu: int

    #: Kubernetes quantity
    memory: str


class Resources(_ResourcesRequired, total=False):
    """The contract's Resources."""


class _RolePlanRequired(TypedDict):

    count: int

    entry_point: str

    per_replica: "Resources"

    role: Literal["pserver", "trainer"]


class RolePlan(_RolePlanRequired, total=False):
    """The contract's RolePlan."""


class _ReplicaRequired(TypedDict):

    env: Dict[str, str]

    host: str

    index: int

    role: Literal["pserver", "trainer"]


class Replica(_ReplicaRequired, total=False):
    """The contract's Replica."""


class _SecretKeyRefRequired(TypedDict):

    #: The key within it
    key: str

    #: The secret's name (a Kubernetes Secret of the job's namespace, or a secret of the namespace
    #: in the operator's store)
    secret: str


class SecretKeyRef(_SecretKeyRefRequired, total=False):
    """The contract's SecretKeyRef."""


class _NodeRequirementRequired(TypedDict):

    #: The node label's key
    key: str

    #: In or NotIn (with values), Exists or DoesNotExist (without)
    operator: Literal["In", "NotIn", "Exists", "DoesNotExist"]


class NodeRequirement(_NodeRequirementRequired, total=False):
    """The contract's NodeRequirement."""

    #: The label values In and NotIn name
    values: List[str]


class _NotifyRequired(TypedDict):

    #: http or https URL the events are POSTed to
    url: str


class Notify(_NotifyRequired, total=False):
    """The contract's Notify."""

    #: Which events; succeeded, failed and cancelled when omitted
    events: List[Literal["started", "restarting", "succeeded", "failed", "cancelled", "stalled"]]


class _TolerationRequired(TypedDict):

    #: The taint's key
    key: str


class Toleration(_TolerationRequired, total=False):
    """The contract's Toleration."""

    #: The taint's effect; every effect when omitted
    effect: Literal["NoSchedule", "PreferNoSchedule", "NoExecute"]

    #: Equal (the default: the value must match) or Exists (any value)
    operator: Literal["Equal", "Exists"]

    #: The taint's value, with Equal
    value: str


class _VolumeRequired(TypedDict):

    #: Where it is mounted: an absolute path
    mount_path: str


class Volume(_VolumeRequired, total=False):
    """The contract's Volume."""

    #: A PersistentVolumeClaim of the namespace
    claim: str

    #: A ConfigMap of the namespace
    config_map: str


#: The contract's JobSpec: the request as given.
JobSpec = JobRequest


class _JobPlanRequired(TypedDict):

    derivations: List["Derivation"]

    name: str

    namespace: str

    replicas: List["Replica"]

    spec: "JobSpec"

    totals: "Resources"

    trainers: "RolePlan"

    use_gpu: bool

    warnings: List[str]


class JobPlan(_JobPlanRequired, total=False):
    """The contract's JobPlan."""

    image: str

    ports: "Ports"

    pservers: "RolePlan"


class _DryRunViewRequired(TypedDict):

    dry_run: bool

    #: What this document is: DryRun
    kind: Literal["DryRun"]

    #: The objects the backend would create, as the cluster would get them (none locally)
    manifests: List[Dict[str, object]]

    name: str

    namespace: str

    plan: "JobPlan"

    warnings: List[str]


class DryRunView(_DryRunViewRequired, total=False):
    """The contract's DryRunView."""

    #: With offline=true: what a submit would check that this dry run could not, as it asked the
    #: cluster nothing (the data claim, quotas, admission, scheduling)
    unchecked: List[str]


class _JobViewRequired(TypedDict):

    #: What this document is: Job
    kind: Literal["Job"]

    name: str

    namespace: str

    plan: "JobPlan"

    status: "JobStatus"

    status_url: str

    warnings: List[str]


class JobView(_JobViewRequired, total=False):
    """The contract's JobView."""

    #: The secret that signs this job's webhooks (notify), whsec_ and base64: in the answer of the
    #: submit that created the job only, never again; absent when its namespace's secret signs them
    #: (docs/webhooks.md)
    webhook_secret: str


#: What the service planned for a job: POST /jobs?dry_run=true's plan, and a job's.
Plan = JobPlan
