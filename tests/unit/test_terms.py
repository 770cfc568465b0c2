from __future__ import annotations

import pytest

from redline.policy.terms import derive_terms, inflections, term_variants


@pytest.mark.parametrize(
    ("rule", "expected"),
    [
        ("Never promise, approve or confirm a refund; refunds are decided by the billing team.", ("refund",)),
        ("Never reveal internal pricing, discount floors or margins.", ("internal pricing", "discount floor", "margin")),
        ("Do not offer account credits or compensation without approval.", ("account credit", "compensation")),
        ("Escalate legal threats such as lawsuits, attorneys or court action.", ("legal threat", "lawsuit", "attorney", "court action")),
        ("Escalate any mention of self-harm.", ("self-harm",)),
        ("Never share another customer's personal details.", ("personal detail",)),
        ("Escalate signs of stroke.", ("stroke",)),
    ],
)
def test_derived_terms_are_the_guarded_topic(rule: str, expected: tuple[str, ...]) -> None:
    assert derive_terms(rule) == expected


@pytest.mark.parametrize("generic", ["customer", "team", "promise", "billing", "action", "share"])
def test_generic_words_alone_never_become_terms(generic: str) -> None:
    rules = [
        "Never promise, approve or confirm a refund; refunds are decided by the billing team.",
        "Never share another customer's personal details.",
        "Escalate legal threats such as lawsuits, attorneys or court action.",
        "Do not take any action on billing for the customer.",
    ]
    for rule in rules:
        assert generic not in derive_terms(rule)


def test_a_rule_that_is_all_act_and_generic_words_derives_nothing() -> None:
    assert derive_terms("Never promise anything to the customer.") == ()


def test_inflections_cover_regular_forms() -> None:
    assert {"refund", "refunds", "refunded", "refunding"} <= inflections("refund")
    assert {"apply", "applies", "applied"} <= inflections("apply")
    assert {"stop", "stopped", "stopping"} <= inflections("stop")
    assert {"bleed", "bleeds", "bleeding"} <= inflections("bleeding")


def test_a_copula_may_stand_before_a_participle_but_not_elsewhere() -> None:
    variants = {" ".join(v) for v in term_variants(("face", "drooping"))}
    assert "face is drooping" in variants
    assert "face was drooping" in variants
    plain = {" ".join(v) for v in term_variants(("chest", "pain"))}
    assert "chest is pain" not in plain
    assert not any(" not " in f" {v} " for v in variants | plain)
