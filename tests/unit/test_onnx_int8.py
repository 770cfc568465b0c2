"""int8_matmuls: int8-stored weights multiplied as int8, on small graphs built here."""

from __future__ import annotations

from typing import Any

import pytest

from tests.judge_extras import require

require("onnx", "onnxruntime", "numpy", extra="embedding-model")

import numpy as np  # noqa: E402
import onnx  # noqa: E402
import onnxruntime  # noqa: E402
from onnx import TensorProto, helper, numpy_helper  # noqa: E402

from redline.judges.onnx_int8 import int8_matmuls  # noqa: E402

RNG = np.random.default_rng(7)


def _model(weights: list[tuple[Any, Any]], *, stored_int8: bool = True) -> tuple[bytes, list[Any]]:
    """x -> MatMul(W1) -> MatMul(W2) ...; each W as Mul(Cast(int8), scale), or float."""
    nodes, inits, floats, current = [], [], [], "x"
    for i, (q, scale) in enumerate(weights):
        w = f"w{i}"
        if stored_int8:
            inits += [numpy_helper.from_array(q, f"{w}_q"), numpy_helper.from_array(scale, f"{w}_scale")]
            nodes += [helper.make_node("Cast", [f"{w}_q"], [f"{w}_f"], to=TensorProto.FLOAT),
                      helper.make_node("Mul", [f"{w}_f", f"{w}_scale"], [w])]
        else:
            inits.append(numpy_helper.from_array(q.astype(np.float32) * scale, w))
        floats.append(q.astype(np.float32) * scale)
        nodes.append(helper.make_node("MatMul", [current, w], [f"y{i}"]))
        current = f"y{i}"
    graph = helper.make_graph(
        nodes, "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["b", "n", 16])],
        [helper.make_tensor_value_info(current, TensorProto.FLOAT, None)], inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 9
    return model.SerializeToString(), floats


def _run(model: bytes, x: Any) -> Any:
    return onnxruntime.InferenceSession(model, providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]


def _weights(rows: int, columns: int) -> tuple[Any, Any]:
    q = RNG.integers(-127, 128, size=(rows, columns), dtype=np.int8)
    return q, RNG.uniform(0.001, 0.02, size=(1, columns)).astype(np.float32)


def test_each_int8_stored_product_becomes_an_integer_product_with_the_same_result() -> None:
    model, floats = _model([_weights(16, 24), _weights(24, 8)])
    rewritten, count = int8_matmuls(model)
    assert count == 2
    ops = [node.op_type for node in onnx.load_from_string(rewritten).graph.node]
    assert ops.count("MatMulInteger") == 2 and "MatMul" not in ops and "Cast" in ops
    x = RNG.normal(size=(3, 5, 16)).astype(np.float32)
    expected = x @ floats[0] @ floats[1]
    got = _run(rewritten, x)
    assert got.shape == expected.shape
    # activations quantized to uint8 per call: close, not equal
    assert np.abs(got - expected).max() <= 0.03 * np.abs(expected).max()
    assert not np.array_equal(got, _run(model, x))


def test_the_float_copies_of_rewritten_weights_are_dropped() -> None:
    model, _ = _model([_weights(16, 24)])
    graph = onnx.load_from_string(int8_matmuls(model)[0]).graph
    # the int8 weight is kept as uint8 with zero point 128 (see the module): same values
    assert {t.name for t in graph.initializer} == {"w0_q/u8", "w0_scale", "int8/zero_point_128"}
    assert not any(node.output[0] in {"w0_f", "w0"} for node in graph.node)
    stored = {t.name: numpy_helper.to_array(t) for t in graph.initializer}
    original = {t.name: numpy_helper.to_array(t) for t in onnx.load_from_string(model).graph.initializer}
    np.testing.assert_array_equal(stored["w0_q/u8"].astype(np.int16) - 128, original["w0_q"])


def test_one_quantization_of_an_input_serves_every_product_that_reads_it() -> None:
    q1, s1 = _weights(16, 8)
    q2, s2 = _weights(16, 8)
    graph = helper.make_graph(
        [helper.make_node("Cast", ["a_q"], ["a_f"], to=TensorProto.FLOAT),
         helper.make_node("Mul", ["a_f", "a_s"], ["a"]),
         helper.make_node("Cast", ["b_q"], ["b_f"], to=TensorProto.FLOAT),
         helper.make_node("Mul", ["b_f", "b_s"], ["b"]),
         helper.make_node("MatMul", ["x", "a"], ["ya"]), helper.make_node("MatMul", ["x", "b"], ["yb"]),
         helper.make_node("Add", ["ya", "yb"], ["y"])],
        "g", [helper.make_tensor_value_info("x", TensorProto.FLOAT, ["n", 16])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, None)],
        [numpy_helper.from_array(q1, "a_q"), numpy_helper.from_array(s1, "a_s"),
         numpy_helper.from_array(q2, "b_q"), numpy_helper.from_array(s2, "b_s")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.ir_version = 9
    rewritten, count = int8_matmuls(model.SerializeToString())
    ops = [node.op_type for node in onnx.load_from_string(rewritten).graph.node]
    assert count == 2 and ops.count("DynamicQuantizeLinear") == 1 and ops.count("MatMulInteger") == 2


@pytest.mark.parametrize("case", ["float weights", "per-row scale", "per-row scale, square"])
def test_a_product_that_is_not_the_pattern_is_left_as_it_is(case: str) -> None:
    if case == "float weights":
        model, _ = _model([_weights(16, 8)], stored_int8=False)
    else:
        q, _ = _weights(16, 16 if "square" in case else 8)
        model, _ = _model([(q, RNG.uniform(0.001, 0.02, size=(16, 1)).astype(np.float32))])
    rewritten, count = int8_matmuls(model)
    assert count == 0
    x = RNG.normal(size=(1, 2, 16)).astype(np.float32)
    np.testing.assert_array_equal(_run(rewritten, x), _run(model, x))
