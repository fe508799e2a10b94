// The console's one script (docs/API.md §15.6): passkeys need the browser's WebAuthn API,
// which only a script can call. Served from /console/assets/ (the pages' CSP allows no other
// script and no inline code); every page works without it except these two buttons.
//
// - My account, form#passkey-form: "Add a passkey" asks the console for creation options
//   (POST data-options-url with the form's CSRF token; the API's registration options), runs
//   navigator.credentials.create, and posts the form with the answer as JSON (credential) and
//   the challenge's id (challengeId), which the API's registration verify checks.
// - Sign-in, form#passkey-sign-in: "Use a passkey" runs navigator.credentials.get with login
//   step 1's options (input#passkey-options) and posts the form with the answer as JSON
//   (passkey), which login step 3 checks.
//
// WebAuthn's JSON forms carry binary values as base64url without padding; the browser's
// objects carry ArrayBuffers. Problems are shown in p#passkey-error (role="alert").
"use strict";

(function () {
  function fromBase64URL(text) {
    var base64 = text.replace(/-/g, "+").replace(/_/g, "/");
    while (base64.length % 4) base64 += "=";
    var binary = atob(base64);
    var bytes = new Uint8Array(binary.length);
    for (var i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return bytes.buffer;
  }

  function toBase64URL(buffer) {
    var bytes = new Uint8Array(buffer);
    var binary = "";
    for (var i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
    return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function descriptors(list) {
    return (list || []).map(function (item) {
      return { type: item.type, id: fromBase64URL(item.id), transports: item.transports };
    });
  }

  // PublicKeyCredentialCreationOptionsJSON → what navigator.credentials.create takes.
  function creationOptions(json) {
    var options = Object.assign({}, json);
    options.challenge = fromBase64URL(json.challenge);
    options.user = Object.assign({}, json.user, { id: fromBase64URL(json.user.id) });
    options.excludeCredentials = descriptors(json.excludeCredentials);
    return options;
  }

  // PublicKeyCredentialRequestOptionsJSON → what navigator.credentials.get takes.
  function requestOptions(json) {
    var options = Object.assign({}, json);
    options.challenge = fromBase64URL(json.challenge);
    options.allowCredentials = descriptors(json.allowCredentials);
    return options;
  }

  // A credential as WebAuthn's JSON forms have it, with `response` its response's fields.
  function credentialJSON(credential, response) {
    return {
      id: credential.id,
      rawId: toBase64URL(credential.rawId),
      type: credential.type,
      response: response,
      authenticatorAttachment: credential.authenticatorAttachment || null,
      clientExtensionResults: credential.getClientExtensionResults()
    };
  }

  // A new credential → RegistrationResponseJSON.
  function registrationJSON(credential) {
    var response = credential.response;
    return credentialJSON(credential, {
      clientDataJSON: toBase64URL(response.clientDataJSON),
      attestationObject: toBase64URL(response.attestationObject),
      transports: response.getTransports ? response.getTransports() : []
    });
  }

  // An assertion → AuthenticationResponseJSON.
  function authenticationJSON(credential) {
    var response = credential.response;
    return credentialJSON(credential, {
      clientDataJSON: toBase64URL(response.clientDataJSON),
      authenticatorData: toBase64URL(response.authenticatorData),
      signature: toBase64URL(response.signature),
      userHandle: response.userHandle ? toBase64URL(response.userHandle) : null
    });
  }

  // What to tell the person when the browser's ceremony fails.
  function describe(error) {
    if (error && error.name === "NotAllowedError") return "The passkey request was cancelled or timed out. Try again.";
    if (error && error.name === "InvalidStateError") return "This device already holds a passkey for your account.";
    if (error && error.name === "SecurityError") return "This browser refused a passkey for this address: passkeys need a secure (https) address, or localhost.";
    return (error && error.message) || "The passkey could not be used.";
  }

  // Runs `ceremony` when `form` is submitted without an answer yet (the button, or Enter in a
  // field), then posts the form with the answer in it.
  function onSubmit(form, answer, ceremony) {
    var button = form.querySelector("button[type=submit]");
    var problem = form.querySelector("#passkey-error");
    function show(message) {
      problem.textContent = message;
      problem.hidden = false;
      button.disabled = false;
    }
    form.addEventListener("submit", function (event) {
      if (answer.value) return;
      event.preventDefault();
      if (!window.PublicKeyCredential || !navigator.credentials) {
        show("This browser does not support passkeys.");
        return;
      }
      problem.hidden = true;
      button.disabled = true;
      ceremony().then(function (json) {
        answer.value = JSON.stringify(json);
        form.submit();
      }).catch(function (error) { show(describe(error)); });
    });
  }

  var addForm = document.getElementById("passkey-form");
  if (addForm) {
    onSubmit(addForm, document.getElementById("passkey-credential"), function () {
      var body = new URLSearchParams({ csrf: addForm.elements.csrf.value });
      return fetch(addForm.getAttribute("data-options-url"), { method: "POST", body: body, credentials: "same-origin" })
        .then(function (reply) {
          var isJSON = (reply.headers.get("Content-Type") || "").indexOf("application/json") === 0;
          if (!isJSON) throw new Error("Your session has ended or this page is out of date. Reload the page and try again.");
          return reply.json().then(function (json) {
            if (!reply.ok) throw new Error(json.error || "The passkey could not be started.");
            return json;
          });
        })
        .then(function (started) {
          document.getElementById("passkey-challenge").value = started.challengeId;
          return navigator.credentials.create({ publicKey: creationOptions(started.publicKey) });
        })
        .then(registrationJSON);
    });
  }

  var signInForm = document.getElementById("passkey-sign-in");
  if (signInForm) {
    onSubmit(signInForm, document.getElementById("passkey-assertion"), function () {
      var options = JSON.parse(document.getElementById("passkey-options").value);
      return navigator.credentials.get({ publicKey: requestOptions(options) }).then(authenticationJSON);
    });
  }
})();
