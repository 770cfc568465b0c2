"""Templates and the two things every page does to untrusted text: escape it, reveal it.

Jinja2 escapes every value (autoescape is on for every template), and the `shown` filter
also turns each control, bidi and invisible character into a visible token
(`redline.display`), so a draft can neither inject markup nor hide or reorder itself.
`marked` does the same for a draft with its fired and suppressed spans highlighted.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from jinja2 import Environment, PackageLoader, StrictUndefined, select_autoescape
from markupsafe import Markup, escape
from starlette.responses import HTMLResponse

from redline.display import reveal_pieces

# What every workspace page is served with: scripts and styles only from this origin,
# nothing framed, nothing sent elsewhere, nothing cached (pages hold drafts).
SECURITY_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
        "form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
    ),
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",  # "no-referrer" would make a form post's Origin `null`
    "Cache-Control": "no-store",
}


def shown(value: object) -> Markup:
    """`value` as HTML text: escaped, every hidden character a visible, titled token."""
    out: list[str] = []
    for piece in reveal_pieces("" if value is None else str(value)):
        if piece.hidden:
            out.append(f'<span class="hidden-char" title="{escape(piece.title)}">{escape(piece.shown)}</span>')
        else:
            out.append(str(escape(piece.text)))
    return Markup("".join(out))


@dataclass(frozen=True, slots=True)
class Mark:
    """One finding or suppressed hit as the item view lists and highlights it."""

    label: str  # F1, F2 … for findings that fired; S1 … for suppressed hits
    kind: str  # fired | suppressed
    rule: str
    severity: str
    status: str
    cue: str | None
    explanation: str
    text: str
    start: int | None
    end: int | None
    layer: str
    entity: str | None

    @property
    def summary(self) -> str:
        cue = f", cue {self.cue!r}" if self.cue else ""
        return f"{self.label} {self.kind}: {self.rule} ({self.severity}, {self.status}{cue}) — {self.explanation}"


def marks(findings: Iterable[Mapping[str, Any]], suppressed: Iterable[Mapping[str, Any]], text_len: int) -> list[Mark]:
    """Findings then suppressed hits as marks; a span outside the text is kept unplaced."""
    out: list[Mark] = []
    for kind, prefix, entries in (("fired", "F", findings), ("suppressed", "S", suppressed)):
        for n, f in enumerate(entries, start=1):
            start, end = f.get("start"), f.get("end")
            placed = isinstance(start, int) and isinstance(end, int) and 0 <= start < end <= text_len
            out.append(
                Mark(
                    label=f"{prefix}{n}",
                    kind=kind,
                    rule=str(f.get("rule", "?")),
                    severity=str(f.get("severity") or "–"),
                    status=str(f.get("status") or "–"),
                    cue=f.get("cue"),
                    explanation=str(f.get("explanation") or ""),
                    text=f"[{f['entity']}]" if f.get("entity") else str(f.get("text") or ""),  # never a secret
                    start=start if placed else None,
                    end=end if placed else None,
                    layer=str(f.get("layer") or "screen"),
                    entity=f.get("entity"),
                )
            )
    return out


def marked(text: str, found: Sequence[Mark], prefix: str = "") -> Markup:
    """`text` shown (escaped, revealed) with every placed mark highlighted: the text is cut
    at each span's edges first, since revealing changes lengths. Each span points at its
    entry in the side list (`{prefix}mark-F1`)."""
    placed = [(m.start, m.end, m) for m in found if m.start is not None and m.end is not None]
    cuts = sorted({0, len(text), *(s for s, _, _ in placed), *(e for _, e, _ in placed)})
    out: list[str] = []
    for a, b in zip(cuts, cuts[1:]):
        for s, _, m in placed:
            if s == a:  # a tag (drawn by CSS, so copied text stays exact): found without colour
                out.append(f'<span class="tag tag-{m.kind}" data-label="{m.label}" aria-hidden="true"></span>')
        active = [m for s, e, m in placed if s <= a and b <= e]
        piece = shown(text[a:b])
        if not active:
            out.append(str(piece))
            continue
        kinds = sorted({m.kind for m in active})
        title = "\n".join(m.summary for m in active)
        ids = " ".join(f"{prefix}mark-{m.label}" for m in active)
        out.append(
            f'<mark class="hit {" ".join(kinds)}" title="{escape(title)}" '
            f'aria-describedby="{ids}">{piece}</mark>'
        )
    return Markup("".join(out))


def age(then: datetime | None, now: datetime | None = None) -> str:
    """How long ago, in the two largest units: `45 s`, `12 min`, `3 h 5 min`, `2 d 4 h`."""
    if then is None:
        return "–"
    seconds = max(0, int(((now or datetime.now(UTC)) - then).total_seconds()))
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days} d {hours} h"
    if hours:
        return f"{hours} h {minutes} min"
    if minutes:
        return f"{minutes} min"
    return f"{secs} s"


def when(value: datetime | None) -> str:
    return "–" if value is None else value.astimezone(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")


def pretty(value: Any) -> str:
    """JSON for people (the template escapes and reveals it)."""
    return json.dumps(value, indent=2, ensure_ascii=False, sort_keys=True, default=str)


_env = Environment(
    loader=PackageLoader("redline.service.workspace", "templates"),
    autoescape=select_autoescape(default=True, default_for_string=True),
    undefined=StrictUndefined,
    trim_blocks=True,
    lstrip_blocks=True,
)
_env.filters.update(shown=shown, age=age, when=when, pretty=pretty)
_env.globals.update(marked=marked)


def page(template: str, status: int = 200, headers: Mapping[str, str] | None = None, **context: Any) -> HTMLResponse:
    """A rendered page with the workspace's security headers."""
    html = _env.get_template(template).render(**context)
    return HTMLResponse(html, status_code=status, headers={**SECURITY_HEADERS, **(headers or {})})
