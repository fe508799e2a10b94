import ArgumentParser
import Foundation
import RepairMinderKit
import RepairMinderModels

struct LoginCommand: AsyncParsableCommand, SendsRoutes {
    static let sends: [any ErasableRoute] = [Routes.staffAuth.login, Routes.staffAuth.requestTwoFactorCode, Routes.staffAuth.verifyTwoFactorCode, Routes.staffAuth.requestMagicLink, Routes.staffAuth.verifyMagicLink, Routes.staffAuth.me, Routes.customerAuth.requestMagicLink, Routes.customerAuth.verifyCode]
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign in to a Repair Minder server as staff or as a customer.",
        usage: """
            repairminder login [--staff|--customer] [--email <email>] [<options>]
            repairminder login --customer --email <email> --send-code
            repairminder login --customer --email <email> --code <code>
            """,
        discussion: """
            Staff sign in with email and password, then a second factor: the code emailed to \
            them, a code from their authenticator app, or a recovery code. With --magic-link, \
            only a code emailed to them. Customers sign in with a code emailed to them and, \
            when they are a client of several shops, choose one.

            On a terminal every missing value is asked for (the password without echo). When \
            standard input is not a terminal nothing is asked: values come from the flags, the \
            password from the first line of standard input with --password-stdin, and the code \
            from the next line when --code is not given.

            A script that cannot feed the emailed code while login runs signs in in two steps: \
            --send-code emails a code and exits, and a later login with --code uses it without \
            sending another (customers, and staff with --magic-link).

            A code asked for within the server's spacing between two codes (30 s by default) \
            is asked for again once the spacing is over: login waits. When the hourly number of \
            codes is used up, it exits 1 saying when to try again.

            Credentials are kept in $XDG_CONFIG_HOME/repairminder/ (or ~/.config/repairminder/), \
            readable by you only, with the --server URL.

            Exit codes: 0 signed in (or code sent), 1 refused by the server (its message is \
            printed), 2 usage error or missing input, 3 cannot reach the server.

            EXAMPLES:
              repairminder login --staff --email admin@acme.test
              repairminder login --staff --magic-link --email nopassword@acme.test
              # in a script, with a code from the authenticator app (or a recovery code):
              repairminder login --staff --email admin@acme.test --password-stdin \\
                --code 123456 < password.txt
              repairminder login --customer --email jane@example.test --send-code
              repairminder login --customer --email jane@example.test --code 123456
            """
    )

    @Flag(help: "Sign in as staff.") var staff = false
    @Flag(help: "Sign in as a customer.") var customer = false
    @Option(help: "Your email address.") var email: String?
    @Flag(help: "Staff: sign in with a code emailed to you instead of a password.") var magicLink = false
    @Flag(help: "Read the password from the first line of standard input.") var passwordStdin = false
    @Option(help: "The code (emailed, authenticator or recovery) instead of asking for it; with --customer or --magic-link, one emailed earlier: no new code is sent.")
    var code: String?
    @Flag(help: "Customer, or staff with --magic-link: email a code and exit; sign in with it later with --code.")
    var sendCode = false
    @Option(help: "Customer: the shop to sign in to (its name or id), when you are a client of several.") var company: String?
    @OptionGroup var connection: ServerOptions

    func validate() throws {
        if staff && customer { throw ValidationError("choose one of --staff and --customer") }
        if customer && (magicLink || passwordStdin) { throw ValidationError("--magic-link and --password-stdin are for staff") }
        if sendCode && !(customer || magicLink) { throw ValidationError("--send-code is for --customer or --magic-link") }
        if sendCode && code != nil { throw ValidationError("choose one of --send-code and --code") }
    }

    func run() async throws {
        let context = try ClientContext(server: connection.server)
        try await context.run {
            let role = try chooseRole()
            let email = try AccountInput.value(email, prompt: "Email: ", name: "--email")
            switch role {
            case .staff: try await signInStaff(email: email, context: context)
            case .customer: try await signInCustomer(email: email, context: context)
            }
        }
    }

    private func chooseRole() throws -> AppRole {
        if staff { return .staff }
        if customer { return .customer }
        guard Terminal.isInteractive else { throw ClientInputError("say --staff or --customer") }
        while true {
            switch Terminal.ask("Sign in as (1) staff or (2) customer? ")?.trimmingCharacters(in: .whitespaces).lowercased() {
            case "1", "staff", "s": return .staff
            case "2", "customer", "c": return .customer
            case nil: throw ClientInputError("no role given")
            default: Terminal.note("Type 1 or 2.")
            }
        }
    }

    @MainActor
    private func signInStaff(email: String, context: ClientContext) async throws {
        let auth = StaffAuth(api: context.api)
        if magicLink {
            if let code {
                // Sent by an earlier --send-code: another request would replace it.
                auth.expectMagicCode(sentTo: email)
                try await auth.verifyMagicCode(code)
            } else {
                try await CodeRequest.send(to: email) { try await auth.requestMagicLink(email: email) }
                Terminal.note("If \(email) can sign in with a code, one was emailed to it.")
                if sendCode {
                    Terminal.note("Sign in with it: repairminder login --staff --magic-link --email \(email) --code CODE")
                    return
                }
                try await auth.verifyMagicCode(try askCode("Code from the email: "))
            }
            // An account with an authenticator app or passkeys: the code stood in for the password.
            if case .awaitingSecondFactor = auth.state {
                Terminal.note("This account also needs its second factor.")
                try await completeSecondFactor(auth, askedForCode: true)
            }
        } else {
            guard let password = (passwordStdin ? readLine(strippingNewline: true) : Terminal.askSecret("Password: ")),
                !password.isEmpty
            else { throw ClientInputError("a password is required (use --password-stdin in scripts)") }
            try await auth.login(email: email, password: password)
            try await completeSecondFactor(auth)
        }
        if case .signedIn(let me) = auth.state { Terminal.note("Signed in as \(Describe.staff(me)).") }
    }

    /// The second factor step 1 named (docs/API.md §11.1): an authenticator or recovery code
    /// for an account with the app, else the emailed code ("r" asks for the email again). An
    /// account with only passkeys cannot finish here: this command has no authenticator.
    /// `askedForCode`: `--code` was already used (the magic-link code), so the second is asked.
    @MainActor
    private func completeSecondFactor(_ auth: StaffAuth, askedForCode: Bool = false) async throws {
        guard case .awaitingSecondFactor(let challenge) = auth.state else { return }
        let methods = challenge.methods ?? [.email]
        let offersApp = methods.contains(.totp)
        guard offersApp || challenge.acceptsEmailedCode else {
            throw ClientInputError(
                "\(challenge.email) signs in with a passkey, which this command cannot use: sign in with the app or a browser")
        }
        if challenge.acceptsEmailedCode {
            try await CodeRequest.send(to: challenge.email) { try await auth.requestEmailCode() }
            Terminal.note("A verification code was emailed to \(challenge.email).")
        }
        let prompt = offersApp
            ? "Code from your authenticator app or a recovery code: " : "Code from the email (r to send it again): "
        while true {
            let answer = try askCode(prompt, reusingFlag: !askedForCode)
            if !offersApp, answer.lowercased() == "r" {
                try await CodeRequest.send(to: challenge.email) { try await auth.requestEmailCode() }
                Terminal.note("A verification code was emailed to \(challenge.email).")
                continue
            }
            do {
                try await auth.verifySecondFactor(code: answer)
                return
            } catch APIError.unauthorized(let message, let code) where code == .invalidCode && Terminal.isInteractive && self.code == nil {
                Terminal.note(message + ". Try again.")
            }
        }
    }

    /// The code of `--code` (unless `reusingFlag` is false: it went to an earlier step), else one typed.
    private func askCode(_ prompt: String, reusingFlag: Bool = true) throws -> String {
        if reusingFlag, let code { return code }
        guard let answer = Terminal.ask(prompt)?.trimmingCharacters(in: .whitespaces) else {
            throw ClientInputError("a code is required (use --code)")
        }
        if answer.isEmpty { return try askCode(prompt, reusingFlag: reusingFlag) }
        return answer
    }

    @MainActor
    private func signInCustomer(email: String, context: ClientContext) async throws {
        let auth = CustomerAuth(api: context.api)
        if let code {
            // Sent by an earlier --send-code (or login): another request would replace it.
            auth.expectCode(sentTo: email)
            try await auth.verify(code: code)
        } else {
            try await CodeRequest.send(to: email) { try await auth.requestCode(email: email, companyId: nil) }
            Terminal.note("If \(email) is a customer, a login code was emailed to it.")
            if sendCode {
                Terminal.note("Sign in with it: repairminder login --customer --email \(email) --code CODE")
                return
            }
            try await auth.verify(code: try askCode("Code from the email: "))
        }
        if case .selectingCompany(let selection) = auth.state {
            try await auth.selectCompany(id: try chooseCompany(selection.companies))
        }
        if case .signedIn(let me) = auth.state { Terminal.note("Signed in as \(Describe.customer(me)).") }
    }

    private func chooseCompany(_ companies: [CustomerCompany]) throws -> String {
        if let company {
            guard let match = companies.first(where: { $0.id == company || $0.name.caseInsensitiveCompare(company) == .orderedSame })
            else { throw ClientInputError("--company \(company) is not one of: \(companies.map(\.name).joined(separator: ", "))") }
            return match.id
        }
        guard Terminal.isInteractive else {
            throw ClientInputError("you are a customer of several shops: choose one with --company (\(companies.map(\.name).joined(separator: ", ")))")
        }
        Terminal.note("You are a customer of several shops:")
        for (index, company) in companies.enumerated() { Terminal.note("  \(index + 1). \(company.name)") }
        while true {
            guard let answer = Terminal.ask("Choose 1-\(companies.count): ") else { throw ClientInputError("no company chosen") }
            if let number = Int(answer.trimmingCharacters(in: .whitespaces)), companies.indices.contains(number - 1) {
                return companies[number - 1].id
            }
            Terminal.note("Type a number from 1 to \(companies.count).")
        }
    }
}

/// One-line descriptions of who is signed in.
enum Describe {
    static func staff(_ me: StaffMeResponse) -> String {
        let name = [me.user.firstName, me.user.lastName].compactMap { $0 }.joined(separator: " ")
        return "\(shown(name.isEmpty ? me.user.email : name)) <\(shown(me.user.email))>, \(shown(me.user.role.rawValue)) at \(shown(me.company.name)) (\(shown(me.company.status.rawValue)))"
    }

    static func customer(_ me: CustomerMeResponse) -> String {
        "\(shown(me.client.name)) <\(shown(me.client.email))>, customer of \(shown(me.company.name))"
    }
}
