#!/usr/bin/env python3
"""Verifies a Repair Minder access token with PyJWT, a JWT library we did not write, given
only the server's JWKS URL: the signature by the key its `kid` names, `exp`, `iss` and `aud`.
Also checks that the same token is refused for another audience and another issuer.

Usage: pyjwt-verify.py JWKS_URL TOKEN AUDIENCE ISSUER [AMR]
With AMR (a JSON array), the token's `amr` claim must be exactly that list (docs/API.md §13.2).
Exits 0 when every check holds; prints what failed otherwise. Run by the Swift tests
(SigningKeyTests), which .ci/run gives PyJWT (pip install 'pyjwt[crypto]').
"""
import json
import sys

import jwt

jwks_url, token, audience, issuer = sys.argv[1:5]
expected_amr = json.loads(sys.argv[5]) if len(sys.argv) > 5 else None
client = jwt.PyJWKClient(jwks_url)
key = client.get_signing_key_from_jwt(token)
header = jwt.get_unverified_header(token)
algorithms = ["ES256", "EdDSA"]
failures = []

claims = jwt.decode(token, key.key, algorithms=algorithms, audience=audience, issuer=issuer,
                    options={"require": ["exp", "iat", "iss", "aud", "jti"]})
if header.get("typ") != "at+jwt":
    failures.append(f"typ is {header.get('typ')!r}, not at+jwt")
if header.get("kid") != key.key_id:
    failures.append("the JWKS key found is not the token's kid")
if expected_amr is not None and claims.get("amr") != expected_amr:
    failures.append(f"amr is {claims.get('amr')!r}, not {expected_amr!r}")

for wrong_audience in ["reki" if audience != "reki" else "repairminder", "orders"]:
    try:
        jwt.decode(token, key.key, algorithms=algorithms, audience=wrong_audience, issuer=issuer)
        failures.append(f"accepted for audience {wrong_audience}")
    except jwt.InvalidAudienceError:
        pass
try:
    jwt.decode(token, key.key, algorithms=algorithms, audience=audience, issuer="https://elsewhere.example")
    failures.append("accepted for another issuer")
except jwt.InvalidIssuerError:
    pass

if failures:
    print("; ".join(failures))
    sys.exit(1)
print(f"verified {claims.get('sub') or claims.get('clientId')} for {audience} with {header['alg']} key {key.key_id}")
