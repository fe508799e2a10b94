#if canImport(SwiftUI)
import SwiftUI

/// An error message under a form. VoiceOver reads it out as soon as it appears, not only when
/// the person happens to move to it.
struct ErrorMessage: View {
    let text: String?

    var body: some View {
        Group {
            if let text {
                Label(text, systemImage: "exclamationmark.triangle")
                    .font(.callout)
                    .foregroundStyle(.red)
                    .accessibilityLabel("Error: \(text)")
            }
        }
        .onChange(of: text) { _, newValue in
            if let newValue { AccessibilityNotification.Announcement("Error: \(newValue)").post() }
        }
    }
}

/// An email field the keyboard and password managers recognise.
struct EmailField: View {
    @Binding var text: String

    var body: some View {
        TextField("Email", text: $text)
            .textContentType(.username)
            .autocorrectionDisabled()
            #if os(iOS) || SWIFTUI_STAND_IN  // the stand-ins are iOS's SDK: type-checked on Linux too
            .keyboardType(.emailAddress)
            .textInputAutocapitalization(.never)
            #endif
    }
}

/// The primary button of a sign-in form, with its progress and error.
struct SubmitSection: View {
    let title: String
    let isLoading: Bool
    let isEnabled: Bool
    let errorMessage: String?
    let action: @MainActor () async -> Void

    var body: some View {
        Section {
            Button {
                Task { await action() }
            } label: {
                HStack {
                    Text(title)
                    if isLoading { Spacer(); ProgressView() }
                }
            }
            .disabled(!isEnabled)
            ErrorMessage(text: errorMessage)
        }
    }
}

/// A one-time-code field: digits (or a recovery code), filled by the keyboard's suggestion,
/// reporting every change to `onChange` (the view model trims it and submits when complete).
struct CodeField: View {
    let title: String
    /// The model's code: when it clears the code (a wrong one), the field clears too.
    let code: String
    var isRecoveryCode = false
    let onChange: @MainActor (String) async -> Void
    @State private var text = ""
    @FocusState private var focused: Bool

    var body: some View {
        TextField(title, text: $text)
            .textContentType(.oneTimeCode)
            .font(.title2.monospacedDigit())
            .multilineTextAlignment(.center)
            .focused($focused)
            .autocorrectionDisabled()
            #if os(iOS) || SWIFTUI_STAND_IN  // the stand-ins are iOS's SDK: type-checked on Linux too
            .keyboardType(isRecoveryCode ? .asciiCapable : .numberPad)
            .textInputAutocapitalization(isRecoveryCode ? .characters : .never)
            #endif
            .accessibilityLabel(title)
            .onChange(of: text) { _, newValue in
                Task { await onChange(newValue) }
            }
            .onChange(of: code) { _, newValue in
                if text != newValue { text = newValue }
            }
            .onAppear { focused = true }
    }
}
#endif
