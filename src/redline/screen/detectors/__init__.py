"""Built-in rule families an operator should not have to write (docs/policy.md, detectors)."""

from __future__ import annotations

from redline.screen.detectors.base import Detector

_shared: dict[str, Detector] = {}


def shared_detector(name: str) -> Detector:
    """One detector object per name and process: detectors are pure and hold no settings,
    and a text analysis keeps each one's findings by object, so the gate's checks (every
    policy) and the scrubber (store/scrub.py) read one set of findings per text."""
    detector = _shared.get(name)
    if detector is None:
        detector = _shared[name] = _new_detector(name)
    return detector


def _new_detector(name: str) -> Detector:
    # imported on first use so a policy with every detector off loads none of them
    if name == "credentials":
        from redline.screen.detectors.credentials import CredentialsDetector

        return CredentialsDetector()
    if name == "pii":
        from redline.screen.detectors.pii import PiiDetector

        return PiiDetector()
    if name == "technical_content":
        from redline.screen.detectors.technical import TechnicalContentDetector

        return TechnicalContentDetector()
    raise ValueError(f"no detector named {name!r}")
