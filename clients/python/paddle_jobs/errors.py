"""Errors: the service answers every refusal with a problem document (RFC 9457)."""

from typing import Any, Dict, List, Optional


class PaddleJobsError(Exception):
    """Something went wrong talking to the service, or a job did not end as hoped."""


class ProblemError(PaddleJobsError):
    """The service refused a request. Carries the problem document's fields.

    ``errors`` lists each offending field: ``[{"field": "num_gpus", "message": "...", "rejected": 3}]``.
    """

    def __init__(self, status: int, problem: Any) -> None:
        self.status = status
        self.problem: Dict[str, Any] = problem if isinstance(problem, dict) else {}
        self.type: Optional[str] = self.problem.get("type")
        self.title: str = self.problem.get("title") or "HTTP %d" % status
        self.detail: Optional[str] = self.problem.get("detail")
        self.instance: Optional[str] = self.problem.get("instance")
        self.errors: List[Dict[str, Any]] = list(self.problem.get("errors") or [])
        super().__init__(self._message())

    def _message(self) -> str:
        text = "%d %s" % (self.status, self.title)
        if self.detail:
            text += ": " + self.detail
        details = ["%s: %s" % (e.get("field"), e.get("message")) for e in self.errors]
        if len(details) > 1:
            text += " (" + "; ".join(details) + ")"
        return text

    @property
    def fields(self) -> List[Optional[str]]:
        """The names of the offending fields, in the order the service gave them."""
        return [e.get("field") for e in self.errors]
