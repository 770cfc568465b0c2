"""Technical content in a draft: stack traces, file paths, raw logs, code, SQL, internal hosts.

Each recognizer is one RE2 pattern (linear time) with the entity it reports. A clean
draft costs one search of all patterns joined into one alternation; only a text that
matches it runs the recognizers one by one. Line-level recognizers (a stack frame, a log
line, a code line) are merged with their neighbours, so one detection covers a whole
trace or log excerpt; "header" lines (an exception name, "Caused by:") count only when
they touch a real frame. A detection inside a larger one is folded into it and named in
its explanation, so a masked span is the whole construct.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import re2

from redline.screen.detectors.base import Detection


@dataclass(frozen=True, slots=True)
class _Recognizer:
    name: str
    entity: str
    why: str
    pattern: str
    merge: bool = True  # adjacent matches are one construct (a trace, a log excerpt, a code block)
    alone: bool = True  # False: a header line that counts only next to a standalone match


_LEVEL = r"(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|ERR|FATAL|CRITICAL|CRIT|SEVERE|PANIC)"
_TIME = r"\d{2}:\d{2}:\d{2}(?:[.,]\d{1,9})?"
_ISO = r"\d{4}-\d{2}-\d{2}[T ]" + _TIME + r"(?:Z|[+-]\d{2}:?\d{2})?"
_ROOTS = (  # not /app, /data, /media, /api: web apps use them as public URL paths
    r"(?:etc|var|usr|srv|opt|home|tmp|root|bin|sbin|lib|lib64|mnt|proc|sys|dev|run|boot|"
    r"Users|Library|Applications|System|Volumes|private|nix|snap)"
)
_EXT = (
    r"(?:py|pyc|js|mjs|cjs|ts|tsx|jsx|java|jar|class|kt|go|rb|php|cs|rs|c|h|cc|cpp|hpp|swift|"
    r"scala|sh|bash|zsh|ps1|conf|cfg|ini|env|ya?ml|toml|json|xml|properties|log|sql|db|sqlite|"
    r"pem|key|crt|so|dll|exe|lock|pid|sock|tf|lua|pl|gradle)"
)
_PATH_START = r"(?:^|[\s\"'(\[=,<>:;`])"  # a path starts a token: never the path part of a URL
_SEG = r"[\w.@+-]+"
_NAME = r"[\w.\"`]+"  # a SQL table or column
_CLAUSE = (
    r"(?i:from|where|and|or|join|inner|left|right|full|outer|cross|on|group|order|having|limit|"
    r"offset|union|values|set|returning|select|into)"
)
_SQL_TAIL = r"[^;\n]*(?:\n[ \t]*" + _CLAUSE + r"\b[^;\n]*)*;?"  # to ';' or the last clause line
_PRIVATE_IP = r"(?:10\.\d{1,3}|172\.(?:1[6-9]|2\d|3[01])|192\.168|127\.\d{1,3})\.\d{1,3}\.\d{1,3}"
_URL_TAIL = r"(?:/[^\s\"'<>()]*)?"
_CODE_LINE = (  # one whole line of code; prose lines rarely start lower-case or end in ';' or '{'
    r"[ \t]*(?:(?:async[ \t]+)?def[ \t]+\w+[ \t]*\([^\n]*\)[^\n]*:|class[ \t]+\w+[^\n]*[:{]"
    r"|(?:export[ \t]+)?(?:async[ \t]+)?function\b[^\n]*\([^\n]*\)[^\n]*"
    r"|(?:const|let|var)[ \t]+[\w{}\[\], ]+=[^\n]*"
    r"|import[ \t]+[\w.]+(?:[ \t]+as[ \t]+\w+)?;?|from[ \t]+[\w.]+[ \t]+import[ \t]+[\w, *()]+"
    r"|import[ \t]+[^\n]*[ \t]from[ \t]+['\"][^'\"\n]+['\"];?|#include[ \t]*[<\"][^>\"\n]+[>\"]"
    r"|(?:using|package)[ \t]+[\w.]+;|(?:try|else|finally|except[^\n]*):"
    # "return x" or "return f(x)", but not "return the device within 30 days"
    r"|(?:return|raise|throw|yield|await)(?:(?:[ \t]+\S+){0,2}|\b[^\n]*[(){}\[\]=+*<>\"'][^\n]*)"
    r"|[a-z_][\w.\[\]'\"]*[ \t]*(?:[-+*/]?=)[ \t]*[^\s=][^\n]*|[a-z_][\w.]*\([^\n]*\)[ \t]*;?"
    r"|[^\n]*[=(][^\n]*;|[^\n]*[\w)\]>][ \t]*\{|[})\]]+[;,)]*|@\w+(?:\.\w+)+(?:\([^\n]*\))?"
    r"|\$[ \t]+[a-z][\w.-]*[ \t][^\n]*)[ \t]*$"
)

_RECOGNIZERS = (
    # --- STACK_TRACE
    _Recognizer(
        "python_traceback", "STACK_TRACE", "'Traceback (most recent call last):' through the exception line",
        r"(?m)Traceback \(most recent call last\):[^\n]*(?:\n[ \t]+[^\n]*)*(?:\n[A-Za-z_][\w.]*(?::[^\n]*)?$)?",
    ),
    _Recognizer(
        "python_frame", "STACK_TRACE", "a Python frame 'File \"…\", line N'",
        r"(?m)File \"[^\"\n]+\", line \d+(?:, in [\w<>.$]+)?(?:\n[ \t]+\S[^\n]*$)?",
    ),
    _Recognizer(
        "jvm_frame", "STACK_TRACE", "a JVM/.NET frame 'at pkg.Class(File.java:N)'",
        r"\bat [\w$.<>`/]+\((?:[\w$.-]+\.(?:java|kt|kts|scala|groovy|clj|cs|vb|fs):(?:line )?\d+"
        r"|Native Method|Unknown Source)\)",
    ),
    _Recognizer(
        "at_frame", "STACK_TRACE", "a stack frame line 'at Namespace.Type.Method(…)'",
        r"(?m)^[ \t]*at [\w$.`<>\[\]+/]+\.[\w$`<>\[\]|]+\([^\n]*\)(?: in [^\n]+:line \d+)?[ \t]*$",
    ),
    _Recognizer(
        "js_frame", "STACK_TRACE", "a JavaScript frame 'at fn (file.js:L:C)'",
        r"(?m)^[ \t]*at (?:async )?(?:new )?(?:[^\s()]+ (?:\[as [^\]\n]+\] )?)?"
        r"(?:\(?[^\s()]*[A-Za-z/][^\s()]*:\d+:\d+\)?|\(?<anonymous>\)?)[ \t]*$",
    ),
    _Recognizer(
        "go_frame", "STACK_TRACE", "a Go frame: function line, then '\\tfile.go:N'",
        r"(?m)^(?:created by )?[\w./*()-]+(?:\([^\n]*\))?(?: in goroutine \d+)?"
        r"\n\t[^\n]+\.go:\d+(?: \+0x[0-9a-f]+)?$",
    ),
    _Recognizer(
        "go_panic", "STACK_TRACE", "a Go panic or goroutine header",
        r"(?m)^(?:panic: [^\n]+|goroutine \d+ \[[^\]\n]+\]:)$",
    ),
    _Recognizer(
        "rust_panic", "STACK_TRACE", "a Rust panic 'thread … panicked at'",
        r"thread '[^'\n]*' panicked at (?:'[^'\n]*', )?[^\s:'\"]+:\d+:\d+",
    ),
    _Recognizer(
        "ruby_frame", "STACK_TRACE", "a Ruby frame 'file.rb:N:in `method''",
        r"(?m)^[ \t]*(?:from )?[\w/.~:\\-]+\.rb:\d+:in [`'][^'\n]+'[^\n]*$",
    ),
    _Recognizer(
        "php_frame", "STACK_TRACE", "a PHP frame '#N file.php(L): call'",
        r"(?m)^#\d+ (?:[^\n]*\.php\(\d+\): [^\n]*|\{main\})$",
    ),
    _Recognizer(
        "trace_header", "STACK_TRACE", "an exception or 'Caused by' line next to frames",
        r"(?m)^[ \t]*(?:(?:Exception in thread \"[^\"\n]*\" |Caused by: |Unhandled exception\. )?"
        r"(?:[a-zA-Z_][\w$]*\.)*[A-Z][\w$]*(?:Exception|Error|Throwable)(?:: [^\n]*)?"
        r"|(?:Uncaught )?\w*Error: [^\n]+|\[signal [^\n]*\]|note: run with `RUST_BACKTRACE=1`[^\n]*"
        r"|\.\.\. \d+ (?:more|common frames omitted)|(?:PHP )?Stack trace:|--- End of [^\n]*---"
        r"|During handling of the above exception, another exception occurred:"
        r"|The above exception was the direct cause of the following exception:)[ \t]*$",
        alone=False,
    ),
    # --- LOG_LINE
    _Recognizer(
        "iso_log", "LOG_LINE", "an ISO timestamp with seconds and a log level",
        r"(?m)(?:^[ \t]*\[?" + _LEVEL + r"\]?[ \t]+)?\[?" + _ISO + r"\]?[^\n]{0,60}?\b" + _LEVEL + r"\b[^\n]*",
    ),
    _Recognizer(
        "level_log", "LOG_LINE", "a line opening with a level in log form ([ERROR], 14:05:01 WARN, ERROR:mod:)",
        r"(?m)^[ \t]*(?:(?:\[" + _LEVEL + r"\]|" + _TIME + r"[ \t]+\[?" + _LEVEL + r"\b)[ \t]+\S"
        r"|" + _LEVEL + r":[\w.]+:|(?:ERROR|FATAL|PANIC|WARNING|DETAIL|HINT|STATEMENT):  \S"  # Python, psql
        r"|\d{4}/\d{2}/\d{2} " + _TIME + r" \[(?:emerg|alert|crit|error|warn|notice|info|debug)\])[^\n]*",  # nginx
    ),
    _Recognizer(
        "logfmt", "LOG_LINE", "a logfmt line with 'level=…'",
        r"(?m)(?:\b[\w.]+=\S+[ \t]+)*\b(?:level|lvl)=[\"']?"
        r"(?i:trace|debug|info|notice|warn|warning|error|err|fatal|crit|critical|panic)\b[^\n]*",
    ),
    _Recognizer(
        "json_log", "LOG_LINE", "a JSON log record with a level or severity field",
        r"(?m)^[ \t]*\{[^\n]*\"(?:level|severity|lvl|log\.level)\"[ \t]*:[ \t]*\""
        r"(?i:trace|debug|info|notice|warn|warning|error|fatal|critical)\"[^\n]*",
    ),
    _Recognizer(
        "syslog", "LOG_LINE", "a syslog line 'Mon DD HH:MM:SS host proc[pid]:'",
        r"(?m)^(?:<\d{1,3}>)?(?:(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d " + _TIME
        + r" [\w.-]+ [\w./-]+(?:\[\d+\])?:|\d " + _ISO + r" \S+ \S+ \S+ \S+) [^\n]*",
    ),
    _Recognizer(
        "glog", "LOG_LINE", "a glog line 'E1129 14:05:01.123456 1 file.go:42]'",
        r"(?m)^[IWEF]\d{4} " + _TIME + r"[ \t]+\d+ [\w.-]+:\d+\] [^\n]*",
    ),
    _Recognizer(
        "access_log", "LOG_LINE", "an HTTP access-log request '\"GET /path HTTP/1.1\" status'",
        r"(?:\b(?:\d{1,3}\.){3}\d{1,3} [^\n]*?)?"
        r"\"(?:GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|TRACE) [^\"\n]* HTTP/[\d.]+\" \d{3}\b[^\n]*",
    ),
    # --- CODE_BLOCK
    _Recognizer(
        "code_fence", "CODE_BLOCK", "a fenced block from fence to fence",
        r"(?m)^[ \t]*(?:```[^\n`]*\n(?s:.*?)```|~~~[^\n~]*\n(?s:.*?)~~~|```[^\n`]*\n(?s:.*)\z)"
        r"|```[^`\n]+```",
        merge=False,
    ),
    _Recognizer(
        "code_lines", "CODE_BLOCK", "two or more lines that read as code (def, function, import, braces, ';')",
        r"(?m)^" + _CODE_LINE + r"(?:\n(?:[ \t]+\S[^\n]*\n)*" + _CODE_LINE + r")+",
    ),
    _Recognizer(
        "code_header_body", "CODE_BLOCK", "a def/class/function header with an indented body",
        r"(?m)^[ \t]*(?:(?:async[ \t]+)?def|class|function)\b[^\n]*[:{][ \t]*(?:\n[ \t]+\S[^\n]*)+",
    ),
    # --- SQL
    _Recognizer(
        "sql_upper", "SQL", "an upper-case SQL statement (SELECT … FROM, INSERT INTO, UPDATE … SET, DDL)",
        r"\b(?:SELECT\b(?:[^;\n]*\n){0,5}?[^;\n]*?\bFROM\b|INSERT[ \t]+INTO\b|UPDATE[ \t]+[\w.\"`]+[ \t]+SET\b"
        r"|DELETE[ \t]+FROM\b|(?:CREATE|DROP|ALTER|TRUNCATE)[ \t]+(?:TABLE|(?:UNIQUE[ \t]+)?INDEX|VIEW|DATABASE"
        r"|SCHEMA|SEQUENCE|TRIGGER|FUNCTION|PROCEDURE|ROLE|USER|EXTENSION|TYPE)\b)" + _SQL_TAIL,
        merge=False,
    ),
    _Recognizer(
        "sql_structure", "SQL", "a SQL statement in any case with its structure (select * from, where col =)",
        r"(?i)\b(?:select[ \t\n]+(?:distinct[ \t\n]+)?(?:\*|count[ \t]*\(|[\w.]+[ \t]*,[ \t\n]*[\w.]+)[^;\n]*?"
        r"[ \t\n]from[ \t\n]+" + _NAME + r"[ \t\n]+(?:where|join|inner|left|group|order|limit)\b"
        r"|select[ \t\n]+\*[ \t\n]+from[ \t\n]+" + _NAME
        + r"|select\b[^;\n]*?\bfrom[ \t\n]+" + _NAME + r"[ \t\n]+where[ \t\n]+" + _NAME
        + r"[ \t]*(?:=|<>|!=|<|>|\bin[ \t]*\(|\bis\b|\blike\b)"
        r"|insert[ \t\n]+into[ \t\n]+" + _NAME + r"[ \t\n]*(?:\(|values\b)"
        r"|update[ \t\n]+" + _NAME + r"[ \t\n]+set[ \t\n]+" + _NAME + r"[ \t]*="
        r"|delete[ \t\n]+from[ \t\n]+" + _NAME + r"[ \t\n]*(?:;|where\b)"
        r"|create[ \t\n]+table[ \t\n]+(?:if[ \t]+not[ \t]+exists[ \t]+)?" + _NAME + r"[ \t\n]*\("
        r"|drop[ \t\n]+table[ \t\n]+(?:if[ \t]+exists[ \t]+)?" + _NAME + r"[ \t]*;)" + _SQL_TAIL,
        merge=False,
    ),
    # --- INTERNAL_HOSTNAME
    _Recognizer(
        "internal_domain", "INTERNAL_HOSTNAME", "a host under a private suffix (.internal, .local, .corp, .lan…)",
        r"(?:\b[a-z][a-z0-9+.-]*://)?\b(?:[A-Za-z0-9](?:[A-Za-z0-9_-]{0,61}[A-Za-z0-9])?\.)+"
        r"(?:internal|local|localdomain|corp|lan|intranet|home\.arpa)\b(?::\d{1,5}\b)?" + _URL_TAIL,
        merge=False,
    ),
    _Recognizer(  # a bare 192.168.1.1 is router advice, 10.0.3.4 may be a version: a port or scheme decides
        "private_address", "INTERNAL_HOSTNAME", "a loopback or private-range address with a port or scheme",
        r"(?:\b[a-z][a-z0-9+.-]*://)?(?:\b" + _PRIVATE_IP + r"|\b0\.0\.0\.0|\blocalhost)(?::\d{1,5}\b" + _URL_TAIL
        + r")|\b[a-z][a-z0-9+.-]*://(?:" + _PRIVATE_IP + r"|localhost)\b" + _URL_TAIL,
        merge=False,
    ),
    # --- FILE_PATH
    _Recognizer(
        "unix_path", "FILE_PATH", "an absolute Unix path under a system root (/etc, /var, /srv, /home…)",
        _PATH_START + r"(/" + _ROOTS + r"(?:/" + _SEG + r")+/?)",
        merge=False,
    ),
    _Recognizer(
        "code_file_path", "FILE_PATH", "a path of two or more segments ending in a source or config file",
        _PATH_START + r"((?:/|\.{1,2}/)?[\w-]+(?:/" + _SEG + r")*/[\w.@+-]*\." + _EXT + r")\b",
        merge=False,
    ),
    _Recognizer(
        "home_path", "FILE_PATH", "a home-relative path '~/…'",
        _PATH_START + r"(~[\w-]*/" + _SEG + r"(?:/" + _SEG + r")*)",
        merge=False,
    ),
    _Recognizer(
        "windows_path", "FILE_PATH", "a Windows drive or UNC path",
        r"(?:\b[A-Za-z]:|\\\\[\w.$-]+)(?:\\{1,2}[\w .()$~-]+)*\\{1,2}[\w.()$~-]+",
        merge=False,
    ),
)


@dataclass(slots=True)
class _Run:
    """Matches of one entity being merged into one construct (mutable while merging)."""

    start: int
    end: int
    members: list[_Recognizer]
    inner: set[str] = field(default_factory=set)


_COMPILED = tuple((r, re2.compile(r.pattern)) for r in _RECOGNIZERS)
_ANY = re2.compile("|".join(f"(?:{r.pattern})" for r in _RECOGNIZERS))
_SURROGATE = re.compile("[\ud800-\udfff]")
_TRAILING = " \t\r\n.,;:!?'\")]"


class TechnicalContentDetector:
    """Stack traces, file paths, raw log lines, code, SQL and internal hostnames."""

    name = "technical_content"

    def detect(self, text: str) -> list[Detection]:
        # ASCII text goes in as bytes: offsets are the same, and RE2 skips re-encoding it per pattern
        subject: str | bytes = text.encode("ascii") if text.isascii() else _encodable(text)
        if _ANY.search(subject) is None:
            return []
        found: list[tuple[int, int, _Recognizer]] = []
        for recognizer, regex in _COMPILED:
            group = 1 if regex.groups else 0  # FILE_PATH patterns capture the path after its left edge
            for match in regex.finditer(subject):
                start, end = match.span(group)
                span = _trim(text, start, end, recognizer.entity)
                if span is not None and _plausible(text, *span, recognizer):
                    found.append((*span, recognizer))
        return _fold(_merge(text, found))


def _encodable(text: str) -> str:
    """RE2 reads UTF-8; a lone surrogate becomes U+FFFD, which keeps every offset."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub("\ufffd", text)
    return text


def _trim(text: str, start: int, end: int, entity: str) -> tuple[int, int] | None:
    while start < end and text[start].isspace():
        start += 1
    strip = _TRAILING if entity in ("FILE_PATH", "INTERNAL_HOSTNAME") else " \t\r\n"
    while end > start and text[end - 1] in strip:
        end -= 1
    return (start, end) if end > start else None


def _plausible(text: str, start: int, end: int, recognizer: _Recognizer) -> bool:
    if recognizer.entity != "INTERNAL_HOSTNAME":
        return True
    if start and text[start - 1] in "@.-":  # an email domain, or part of a longer name
        return False
    # "status.internal.acme.com" is a public name that merely contains a private word
    return not (end + 1 < len(text) and text[end] in ".-" and text[end + 1].isalnum())


def _merge(text: str, found: list[tuple[int, int, _Recognizer]]) -> list[_Run]:
    """Adjacent line matches of one entity (at most one blank line apart) become one span."""
    found.sort(key=lambda item: (item[0], -item[1]))
    runs: list[_Run] = []
    last: dict[str, _Run] = {}  # entity -> its latest run
    for start, end, recognizer in found:
        run = last.get(recognizer.entity)
        if recognizer.merge and run is not None and run.members[0].merge:
            gap = text[run.end : start] if start > run.end else ""
            if gap.count("\n") <= 2 and not gap.strip():
                run.end = max(run.end, end)
                run.members.append(recognizer)
                continue
        last[recognizer.entity] = run = _Run(start, end, [recognizer])
        runs.append(run)
    return [run for run in runs if any(r.alone for r in run.members)]


def _fold(runs: list[_Run]) -> list[Detection]:
    """A span inside a larger one is reported as part of it, not as a second detection."""
    runs.sort(key=lambda run: (run.start, -run.end))
    kept: list[_Run] = []
    for run in runs:
        if kept and run.end <= kept[-1].end:
            kept[-1].inner.add(run.members[0].entity)
            continue
        kept.append(run)
    detections = []
    for run in kept:
        lead = run.members[0] if len(run.members) == 1 else next(r for r in run.members if r.alone)
        why = f"{lead.name}: {lead.why}"
        if len(run.members) > 1:
            names = "+".join(dict.fromkeys(r.name for r in run.members))
            why = f"{names}: {lead.why} (merged {len(run.members)} adjacent matches)"
        inner = run.inner - {lead.entity} if run.inner else None
        if inner:
            why += f"; contains {', '.join(sorted(inner))}"
        detections.append(Detection(run.start, run.end, lead.entity, why))
    return detections
