"""The words a person uses to ask for each kind of technical content the
`technical_content` detector finds, and which kinds one kind's text holds.

The explicit-ask detector (`redline.review.ask`) reads this table, so what counts as an
ask for technical content is tied to what the detector reports: "show me the exact file
and line" asks for `FILE_PATH`, "paste the traceback" for `STACK_TRACE` (and what a
traceback holds: its file paths and code lines), "send me the logs" for `LOG_LINE` (and
the traces, paths and hosts inside log lines). A license covers only the kinds an ask
named or that its object holds (`review/license.py`).
"""

from __future__ import annotations

ASKED_FOR_BY: dict[str, tuple[str, ...]] = {
    "STACK_TRACE": ("traceback", "tracebacks", "stack trace", "stack traces", "stacktrace", "backtrace",
                    "trace", "traces", "exception", "exceptions", "error", "errors", "error message",
                    "full error", "exact error", "raw error", "crash report", "core dump", "stack"),
    "FILE_PATH": ("file", "files", "file path", "file paths", "path", "paths", "filename", "file name",
                  "line", "lines", "line number", "directory", "folder"),
    "LOG_LINE": ("log", "logs", "log line", "log lines", "log output", "log entries", "error log",
                 "error logs", "output", "console output", "server output", "debug output", "error output"),
    "CODE_BLOCK": ("code", "snippet", "snippets", "function", "functions", "method", "source", "source code",
                   "script", "config", "configuration", "diff", "patch", "class"),
    "SQL": ("query", "queries", "sql", "sql query", "statement"),
    "INTERNAL_HOSTNAME": ("host", "hosts", "hostname", "hostnames", "host name", "server name", "endpoint",
                          "endpoints"),
}
# what the text of one kind holds: a traceback names files and shows code lines, log
# lines carry traces, paths and host names, a config names hosts and paths
COVERS: dict[str, frozenset[str]] = {
    "STACK_TRACE": frozenset({"FILE_PATH", "CODE_BLOCK"}),
    "LOG_LINE": frozenset({"STACK_TRACE", "FILE_PATH", "CODE_BLOCK", "INTERNAL_HOSTNAME"}),
    "CODE_BLOCK": frozenset({"SQL"}),
}
# phrases with an object word that ask for something else: a discount code is no code
NOT_TECHNICAL: tuple[str, ...] = (
    "a line", "discount code", "promo code", "coupon code", "zip code", "postal code", "postcode",
    "verification code", "security code", "access code", "confirmation code", "tracking code",
    "gift card code", "referral code", "voucher code", "dress code", "area code",
)


def covered(entities: frozenset[str]) -> frozenset[str]:
    """`entities` and every kind their text holds, one level: what a log holds is listed
    with the log (a traceback asked for never brings in the SQL a code block may hold)."""
    result = set(entities)
    for entity in entities:
        result |= COVERS.get(entity, frozenset())
    return frozenset(result)
