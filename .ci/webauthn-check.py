#!/usr/bin/env python3
"""Passkeys against a live Repair Minder server, with python-fido2 (a WebAuthn library we did
not write) on the client's side: it reads the server's options as WebAuthn Level 3 JSON, builds
each authenticator answer from its own data model (client data, authenticator data, COSE keys,
attestation object), checks that its own relying party (fido2.server.Fido2Server) accepts that
answer, and then that ours does: enrolment and a usernameless sign-in for ES256, EdDSA and
RS256 passkeys, and refusals of a bad signature, another origin and a replayed challenge.

Usage: webauthn-check.py BASE_URL BEARER_TOKEN ORIGIN
Exits 0 when every check holds; prints what failed otherwise. Run by the Swift tests
(PasskeyTests), which .ci/run gives python-fido2 (pip install fido2).
"""
import json
import os
import sys
import urllib.error
import urllib.request
from hashlib import sha256

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, ed25519, padding, rsa
from fido2 import cose
from fido2.server import Fido2Server
from fido2.utils import websafe_decode, websafe_encode
from fido2.webauthn import (AttestationObject, AttestedCredentialData, AuthenticationResponse,
                            AuthenticatorAssertionResponse, AuthenticatorAttestationResponse,
                            AuthenticatorData, CollectedClientData, PublicKeyCredentialCreationOptions,
                            PublicKeyCredentialRequestOptions, PublicKeyCredentialRpEntity,
                            RegistrationResponse)

base, bearer, origin = sys.argv[1:4]
failures = []


def call(path, body=None, token=None):
    """POSTs (or GETs without a body) and returns (status, parsed JSON)."""
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, method="POST" if body is not None else "GET")
    if body is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}")


def plain(value):
    """fido2's JSON mapping with its enums as their values, for json.dumps."""
    return json.loads(json.dumps(dict(value), default=lambda v: getattr(v, "value", str(v))))


class Authenticator:
    """One passkey of `alg`, made and used the way a platform authenticator does."""

    def __init__(self, alg):
        self.alg = alg
        if alg == -7:
            self.private = ec.generate_private_key(ec.SECP256R1())
            self.cose = cose.ES256.from_cryptography_key(self.private.public_key())
        elif alg == -8:
            self.private = ed25519.Ed25519PrivateKey.generate()
            self.cose = cose.EdDSA.from_cryptography_key(self.private.public_key())
        else:
            self.private = rsa.generate_private_key(public_exponent=65537, key_size=2048)
            self.cose = cose.RS256.from_cryptography_key(self.private.public_key())
        self.credential_id = os.urandom(32)
        self.counter = 0
        self.user_handle = None

    def sign(self, message):
        if self.alg == -7:
            return self.private.sign(message, ec.ECDSA(hashes.SHA256()))
        if self.alg == -8:
            return self.private.sign(message)
        return self.private.sign(message, padding.PKCS1v15(), hashes.SHA256())

    def register(self, options):
        """A RegistrationResponse to PublicKeyCredentialCreationOptions, attestation "none"."""
        self.user_handle = options.user.id
        flags = AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.UV | AuthenticatorData.FLAG.AT
        auth_data = AuthenticatorData.create(
            sha256(options.rp.id.encode()).digest(), flags, self.counter,
            AttestedCredentialData.create(b"\0" * 16, self.credential_id, self.cose))
        client_data = CollectedClientData.create(type="webauthn.create", challenge=options.challenge, origin=origin)
        return RegistrationResponse(
            raw_id=self.credential_id,
            response=AuthenticatorAttestationResponse(
                client_data=client_data, attestation_object=AttestationObject.create("none", auth_data, {})))

    def assert_(self, options, signing_origin=None, break_signature=False):
        """An AuthenticationResponse to PublicKeyCredentialRequestOptions."""
        self.counter += 1
        flags = AuthenticatorData.FLAG.UP | AuthenticatorData.FLAG.UV
        auth_data = AuthenticatorData.create(sha256(options.rp_id.encode()).digest(), flags, self.counter)
        client_data = CollectedClientData.create(
            type="webauthn.get", challenge=options.challenge, origin=signing_origin or origin)
        signature = self.sign(auth_data + client_data.hash)
        if break_signature:
            signature = signature[:-1] + bytes([signature[-1] ^ 1])
        return AuthenticationResponse(
            raw_id=self.credential_id,
            response=AuthenticatorAssertionResponse(
                client_data=client_data, authenticator_data=auth_data, signature=signature,
                user_handle=self.user_handle))


def expect(condition, what):
    if not condition:
        failures.append(what)


for alg, name in [(-7, "ES256"), (-8, "EdDSA"), (-257, "RS256")]:
    authenticator = Authenticator(alg)

    # Enrolment: our options as python-fido2 reads them, its answer checked by its own RP first.
    status, started = call("/api/auth/passkeys/register/options", {}, bearer)
    expect(status == 200, f"{name}: register/options answered {status}")
    options = PublicKeyCredentialCreationOptions.from_dict(started["data"]["publicKey"])
    expect(len(options.challenge) == 32, f"{name}: the challenge is not 32 bytes")
    expect(options.authenticator_selection.user_verification.value == "required", f"{name}: UV not required")
    expect(alg in [p.alg for p in options.pub_key_cred_params], f"{name}: not offered")
    registration = authenticator.register(options)
    reference = Fido2Server(PublicKeyCredentialRpEntity(name="reference", id=options.rp.id),
                            verify_origin=lambda o: o == origin)
    reference.register_complete(
        {"challenge": websafe_encode(options.challenge), "user_verification": "required"}, registration)
    status, enrolled = call("/api/auth/passkeys/register/verify",
                            {"challengeId": started["data"]["challengeId"], "name": f"fido2 {name}",
                             "credential": plain(registration)}, bearer)
    expect(status == 201, f"{name}: register/verify answered {status} {enrolled}")

    # Usernameless sign-in, and its refusals.
    def sign_in(**tamper):
        status, started = call("/api/auth/passkeys/login/options", {})
        expect(status == 200, f"{name}: login/options answered {status}")
        options = PublicKeyCredentialRequestOptions.from_dict(started["data"]["publicKey"])
        expect(options.allow_credentials == [], f"{name}: allowCredentials is not empty")
        response = authenticator.assert_(options, **tamper)
        body = {"challengeId": started["data"]["challengeId"], "credential": plain(response)}
        if not tamper:
            credential = AttestedCredentialData.create(b"\0" * 16, authenticator.credential_id, authenticator.cose)
            reference.authenticate_complete(
                {"challenge": websafe_encode(options.challenge), "user_verification": "required"},
                [credential], response)
        return body, call("/api/auth/passkeys/login/verify", body)

    body, (status, signed_in) = sign_in()
    expect(status == 200 and "token" in signed_in.get("data", {}), f"{name}: login/verify answered {status} {signed_in}")
    status, replayed = call("/api/auth/passkeys/login/verify", body)
    expect(status == 401 and replayed.get("code") == "PASSKEY_INVALID", f"{name}: a replayed challenge answered {status}")
    _, (status, refused) = sign_in(break_signature=True)
    expect(status == 401 and refused.get("code") == "PASSKEY_INVALID", f"{name}: a bad signature answered {status}")
    _, (status, refused) = sign_in(signing_origin="https://evil.example")
    expect(status == 401 and refused.get("code") == "PASSKEY_INVALID", f"{name}: another origin answered {status}")

status, listed = call("/api/auth/passkeys", None, bearer)
expect(status == 200 and len(listed.get("data", [])) == 3, f"the list answered {status} {listed}")

if failures:
    print("\n".join(failures))
    sys.exit(1)
print("python-fido2: 3 passkeys enrolled and signed in with; refusals held")
