"""A ``paddle.callbacks.Callback`` for ``paddle.Model.fit`` that reports to paddle-jobs' metrics.

    from paddle_jobs.hapi import MetricsCallback
    model.fit(train_data, eval_data, epochs=3, callbacks=[MetricsCallback()])

Each training step's loss and metrics (``loss``, ``acc``, ...) become a ``PADDLEJOBS_METRICS`` line with the
global step (epoch x steps per epoch + step) and ``total_steps`` (epochs x steps per epoch, where hapi knows
them, less one: the last step's number); each evaluation's as ``eval.loss``, ``eval.acc`` at the step it ran after. hapi's progress bar
rewrites its line with ``\\r`` and no newline: the service finds a report wherever it stands on a line.

Paddle is imported only when the callback is first used, so ``paddle_jobs`` stays free of it.
"""

import math
import numbers
import re

from .metrics import report

_BAD = re.compile(r"[^A-Za-z0-9_.]")
_SKIPPED = ("batch_size", "step", "total_steps", "samples")


def _named(name):
    name = _BAD.sub("_", str(name))
    return name if re.match(r"[A-Za-z_]", name) else "_" + name


def _numbers(logs, prefix=""):
    """The logs' finite numbers by report name; hapi gives a loss as a one-element list."""
    values = {}
    for name, value in (logs or {}).items():
        if name in _SKIPPED:
            continue
        items = list(value) if isinstance(value, (list, tuple)) else [value]
        for i, item in enumerate(items):
            try:
                number = float(item.item() if hasattr(item, "item") else item)
            except (TypeError, ValueError):
                continue
            if math.isfinite(number):
                values[prefix + _named(name if len(items) == 1 else "%s_%d" % (name, i))] = number
    return values


def _build():
    import paddle

    class MetricsCallback(paddle.callbacks.Callback):
        """Reports every ``every``-th training step (and each epoch's last), and every evaluation."""

        def __init__(self, every=1):
            super().__init__()
            if isinstance(every, bool) or not isinstance(every, numbers.Integral) or every < 1:
                raise ValueError("every must be an integer >= 1, not %r" % (every,))
            self.every = int(every)
            self._epoch = 0
            self._step = None

        def on_epoch_begin(self, epoch, logs=None):
            self._epoch = epoch

        def on_train_batch_end(self, step, logs=None):
            steps = self.params.get("steps") if self.params else None
            epochs = self.params.get("epochs") if self.params else None
            self._step = self._epoch * steps + step if steps else (0 if self._step is None else self._step + 1)
            last_of_epoch = steps is not None and step == steps - 1
            if self._step % self.every and not last_of_epoch:
                return
            # total_steps is the step the last report carries: steps count from 0.
            total = max(1, epochs * steps - 1) if steps and epochs else None
            values = _numbers(logs)
            if values or total:
                report(self._step, total_steps=total, **values)

        def on_eval_end(self, logs=None):
            values = _numbers(logs, prefix="eval.")
            if values:
                report(self._step if self._step is not None else 0, **values)

    return MetricsCallback


def __getattr__(name):
    if name == "MetricsCallback":
        cls = _build()
        globals()["MetricsCallback"] = cls
        return cls
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
