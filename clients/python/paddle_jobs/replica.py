"""Whether this process is one of a job's replicas, and which job's."""

import os
from typing import Optional

# Injected by the service into every replica, never set on a user's machine.
REPLICA_MARKER = "PADDLE_JOB_NAME"


def in_replica() -> bool:
    """Whether this process is one of a job's replicas (the service's injected environment is present)."""
    return bool(os.environ.get(REPLICA_MARKER))


def own_job() -> Optional[str]:
    """The name of the job this process is a replica of, if it is one."""
    return os.environ.get(REPLICA_MARKER) or None
