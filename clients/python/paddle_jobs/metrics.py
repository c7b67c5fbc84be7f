"""The metrics line a trainer prints; the service reads it from the replica's output."""

import json
import math
import numbers
import re
import sys
from typing import Any, Dict, Optional, Union

MARKER = "PADDLEJOBS_METRICS"
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.]*\Z")


def report(step: int, total_steps: Optional[int] = None, **values: Union[int, float]) -> str:
    """Print one metrics line: ``PADDLEJOBS_METRICS {"step": 3, "loss": 0.35}``, flushed.

    ``step`` is an integer >= 0; each value a finite number named ``[A-Za-z_][A-Za-z0-9_.]*``.
    Names with dots, such as ``val.loss``, can be given as ``report(3, **{"val.loss": 0.4})``.
    ``total_steps`` (an integer >= 1: the steps the trainer takes in all) gives the job's status its
    progress and time left; with it, values may be left out.
    """
    if isinstance(step, bool) or not isinstance(step, numbers.Integral) or step < 0:
        raise ValueError("step must be an integer >= 0, not %r" % (step,))
    if total_steps is not None and (isinstance(total_steps, bool) or not isinstance(total_steps, numbers.Integral)
                                    or total_steps < 1):
        raise ValueError("total_steps must be an integer >= 1, not %r" % (total_steps,))
    if not values and total_steps is None:
        raise ValueError("report needs at least one value or total_steps, e.g. report(step, loss=0.35)")
    document: Dict[str, Any] = {"step": int(step)}
    if total_steps is not None:
        document["total_steps"] = int(total_steps)
    for name, value in values.items():
        if name in ("step", "total_steps") or not _NAME.match(name):
            raise ValueError("metric name %r must match [A-Za-z_][A-Za-z0-9_.]* and not be 'step'" % (name,))
        if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
            raise ValueError("metric %s must be a finite number, not %r" % (name, value))
        document[name] = value if isinstance(value, numbers.Integral) else float(value)
    line = MARKER + " " + json.dumps(document, separators=(", ", ": "))
    sys.stdout.write(line + "\n")
    sys.stdout.flush()
    return line
