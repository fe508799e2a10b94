"""A check of ours for .ci/openapi-check.sh, loaded through SCHEMATHESIS_HOOKS.

positive_data_acceptance lets an operation answer 400 to schema-valid data where the document
lists a 400 of its own (WEAK_PASSWORD, INVALID_CODE, ...): a valid request may rightly get it.
This check keeps what that would let through from passing: a schema-valid request must never
be refused as bad input (VALIDATION_ERROR or INVALID_JSON), because the document's request
schemas and the server's checks come from one declaration (StringRule, WireRequest).
"""
import schemathesis

BAD_INPUT = {"VALIDATION_ERROR", "INVALID_JSON"}


@schemathesis.check
def valid_input_is_not_bad_input(ctx, response, case):
    meta = case.meta
    if meta is None or not meta.generation.mode.is_positive or response.status_code != 400:
        return None
    # A rule that depends on stored state (the document names it on the operation) is the one
    # kind of bad input a schema cannot foresee.
    if case.operation.definition.raw.get("x-input-rule-beyond-schema"):
        return None
    try:
        code = response.json().get("code")
    except Exception:  # REKI's failures carry no code; positive_data_acceptance judges them
        return None
    if code in BAD_INPUT:
        raise AssertionError(f"a schema-valid request was refused as bad input: {response.text[:300]}")
    return None
