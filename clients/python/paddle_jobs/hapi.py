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
from typing import Any, Dict, Mapping, Optional, Type

from .metrics import report

_BAD = re.compile(r"[^A-Za-z0-9_.]")
_SKIPPED = ("batch_size", "step", "total_steps", "samples")


def _named(name: object) -> str:
    name = _BAD.sub("_", str(name))
    return name if re.match(r"[A-Za-z_]", name) else "_" + name


def _numbers(logs: Optional[Mapping[str, Any]], prefix: str = "") -> Dict[str, float]:
    """The logs' finite numbers by report name; hapi gives a loss as a one-element list."""
    values: Dict[str, float] = {}
    for name, value in (logs or {}).items():
        if name in _SKIPPED:
            continue
        items: list[Any] = list(value) if isinstance(value, (list, tuple)) else [value]  # pyright: ignore[reportUnknownArgumentType]
        for i, item in enumerate(items):
            try:
                number = float(item.item() if hasattr(item, "item") else item)
            except (TypeError, ValueError):
                continue
            if math.isfinite(number):
                values[prefix + _named(name if len(items) == 1 else "%s_%d" % (name, i))] = number
    return values


def _build() -> Type[Any]:
    import paddle  # type: ignore[import-not-found]  # pyright: ignore[reportMissingImports]

    base: Type[Any] = paddle.callbacks.Callback  # pyright: ignore[reportUnknownMemberType, reportUnknownVariableType]

    class MetricsCallback(base):  # type: ignore[misc]
        """Reports every ``every``-th training step (and each epoch's last), and every evaluation."""

        every: int
        _epoch: int
        _step: Optional[int]

        def __init__(self, every: int = 1) -> None:
            super().__init__()  # pyright: ignore[reportUnknownMemberType]
            if isinstance(every, bool) or not isinstance(every, numbers.Integral) or every < 1:
                raise ValueError("every must be an integer >= 1, not %r" % (every,))
            self.every = int(every)
            self._epoch = 0
            self._step = None

        def _param(self, name: str) -> Optional[int]:
            # hapi sets params (epochs, steps) before training; either may be None.
            params: Optional[Mapping[str, Any]] = getattr(self, "params", None)
            value = params.get(name) if params else None
            return int(value) if value is not None else None

        def on_epoch_begin(self, epoch: int, logs: Optional[Mapping[str, Any]] = None) -> None:
            self._epoch = epoch

        def on_train_batch_end(self, step: int, logs: Optional[Mapping[str, Any]] = None) -> None:
            steps = self._param("steps")
            epochs = self._param("epochs")
            self._step = self._epoch * steps + step if steps else (0 if self._step is None else self._step + 1)
            last_of_epoch = steps is not None and step == steps - 1
            if self._step % self.every and not last_of_epoch:
                return
            # total_steps is the step the last report carries: steps count from 0.
            total = max(1, epochs * steps - 1) if steps and epochs else None
            values = _numbers(logs)
            if values or total:
                report(self._step, total, **values)

        def on_eval_end(self, logs: Optional[Mapping[str, Any]] = None) -> None:
            values = _numbers(logs, prefix="eval.")
            if values:
                report(self._step if self._step is not None else 0, None, **values)

    return MetricsCallback


def __getattr__(name: str) -> Type[Any]:
    if name == "MetricsCallback":
        cls = _build()
        globals()["MetricsCallback"] = cls
        return cls
    raise AttributeError("module %r has no attribute %r" % (__name__, name))
