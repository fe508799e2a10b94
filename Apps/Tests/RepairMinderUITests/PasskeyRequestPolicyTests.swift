import RepairMinderKit
import RepairMinderUI
import Testing

/// The passkey decisions the platform authenticator makes, without Apple's frameworks.
@Suite struct PasskeyRequestPolicyTests {
    @Test func aUsernamelessSignInAsksThisDeviceOnlyAndASecondFactorAnyDevice() {
        #expect(PasskeyRequestPolicy.scope(allowedCredentialCount: 0) == .thisDeviceOnly)
        #expect(PasskeyRequestPolicy.scope(allowedCredentialCount: 2) == .anyDevice)
    }

    /// No passkey on the device: refused at once, so the password form stays (no QR sheet).
    @Test func anImmediateRefusalOfThisDevicesPasskeysFallsBackToThePasswordForm() {
        for end in [PasskeyRequestEnd.canceled, .notInteractive] {
            #expect(PasskeyRequestPolicy.error(for: end, scope: .thisDeviceOnly, after: .milliseconds(80), taskCancelled: false) == .noPasskeyOnDevice)
        }
    }

    /// The person closed a sheet that was shown: quiet, whatever was asked.
    @Test func aLaterCancelIsThePersonsOwn() {
        #expect(PasskeyRequestPolicy.error(for: .canceled, scope: .thisDeviceOnly, after: .seconds(4), taskCancelled: false) == .cancelled)
        #expect(PasskeyRequestPolicy.error(for: .canceled, scope: .anyDevice, after: .milliseconds(80), taskCancelled: false) == .cancelled)
    }

    @Test func theTasksCancellationIsQuiet() {
        #expect(PasskeyRequestPolicy.error(for: .canceled, scope: .thisDeviceOnly, after: .zero, taskCancelled: true) == .cancelled)
    }

    /// Already registered, not interactive and other failures each keep their own message.
    @Test func distinctFailuresKeepTheirOwnMessages() {
        let registered = PasskeyRequestPolicy.error(for: .matchedExcludedCredential, scope: .anyDevice, after: .seconds(2), taskCancelled: false)
        let notInteractive = PasskeyRequestPolicy.error(for: .notInteractive, scope: .anyDevice, after: .seconds(2), taskCancelled: false)
        let failed = PasskeyRequestPolicy.error(for: .failed("the authenticator broke"), scope: .anyDevice, after: .seconds(2), taskCancelled: false)
        #expect(registered == .alreadyRegistered)
        #expect(notInteractive == .notInteractive)
        #expect(failed == .failed("the authenticator broke"))
        #expect(Set([registered, notInteractive, failed, .noPasskeyOnDevice].compactMap(\.message)).count == 4)
    }

    /// The sheet's window: the foreground-active scene's key window, never a window of its own.
    @Test func theAnchorIsTheForegroundActiveScenesKeyWindow() {
        struct Scene { let active: Bool, key: String? }
        let scenes = [Scene(active: false, key: "background"), Scene(active: true, key: nil), Scene(active: true, key: "front")]
        #expect(ForegroundWindow.keyWindow(among: scenes, isForegroundActive: \.active, keyWindow: \.key) == "front")
        #expect(ForegroundWindow.keyWindow(among: scenes.prefix(2), isForegroundActive: \.active, keyWindow: \.key) == nil)
    }
}
