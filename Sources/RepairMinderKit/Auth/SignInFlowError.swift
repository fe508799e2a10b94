/// A sign-in step was called out of order: no sign-in of that kind is in progress (a code
/// verified before one was asked for, a resend with no address). Thrown by every sign-in state
/// machine (`StaffAuth`, `CustomerAuth`) and the screens over them, so a customer flow never
/// answers with a staff error.
public enum SignInFlowError: Error, Equatable {
    case noLoginInProgress
}
