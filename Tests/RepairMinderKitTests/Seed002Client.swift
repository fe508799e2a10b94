import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// REKI's iOS client as seed 002 writes it (`002_f081b40e719c8718.txt`: "iOS Implementation"),
/// kept as it is there, down to the snake_case property names its `JSONDecoder` relies on and
/// its status checks, so the tests prove that client works against this server unchanged.
/// What the seed leaves out (its `User` type, where tokens are kept) is filled in the simplest
/// way: tokens are passed around instead of stored in a Keychain.
struct Seed002Client {
    let baseURL: String

    enum AuthError: Error {
        case invalidCredentials
        case emailAlreadyExists
        case tokenExpired
        case refreshFailed
        case notAuthenticated
        case networkError
        case serverError
        case registrationFailed
        case loginFailed
    }

    enum NetworkError: Error {
        case invalidResponse
        case httpError(Int)
    }

    struct User: Codable {
        let id: String
        let email: String
        let createdAt: String
    }

    struct RegisterRequest: Codable {
        let email: String
        let password: String
    }

    struct AuthResponse: Codable {
        let user: User
        let access_token: String
        let refresh_token: String
    }

    struct LoginRequest: Codable {
        let email: String
        let password: String
    }

    struct TokenResponse: Codable {
        let access_token: String
        let refresh_token: String
    }

    func register(email: String, password: String) async throws -> AuthResponse {
        let url = URL(string: "\(baseURL)/auth/register")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")

        let body = RegisterRequest(email: email, password: password)
        request.httpBody = try JSONEncoder().encode(body)

        let (data, response) = try await URLSession.shared.data(for: request)

        guard let httpResponse = response as? HTTPURLResponse,
              httpResponse.statusCode == 201 else {
            throw AuthError.registrationFailed
        }

        let authResponse = try JSONDecoder().decode(AuthResponse.self, from: data)
        return authResponse
    }

    func login(email: String, password: String) async throws -> TokenResponse {
        let url = URL(string: "\(baseURL)/auth/login")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")

        let body = LoginRequest(email: email, password: password)
        request.httpBody = try JSONEncoder().encode(body)

        let (data, response) = try await URLSession.shared.data(for: request)

        guard let httpResponse = response as? HTTPURLResponse,
              httpResponse.statusCode == 200 else {
            throw AuthError.loginFailed
        }

        let tokenResponse = try JSONDecoder().decode(TokenResponse.self, from: data)
        return tokenResponse
    }

    func refreshAccessToken(_ refreshToken: String) async throws -> TokenResponse {
        let url = URL(string: "\(baseURL)/auth/refresh")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")

        let body = ["refreshToken": refreshToken]
        request.httpBody = try JSONSerialization.data(withJSONObject: body)

        let (data, response) = try await URLSession.shared.data(for: request)

        guard let httpResponse = response as? HTTPURLResponse,
              httpResponse.statusCode == 200 else {
            // Refresh token expired or invalid - require login
            throw AuthError.refreshFailed
        }

        let tokenResponse = try JSONDecoder().decode(TokenResponse.self, from: data)
        return tokenResponse
    }

    func makeAuthenticatedRequest<T: Decodable>(endpoint: String, method: String = "GET", token accessToken: String) async throws -> T {
        let url = URL(string: "\(baseURL)\(endpoint)")!
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")

        let (data, response) = try await URLSession.shared.data(for: request)

        guard let httpResponse = response as? HTTPURLResponse else {
            throw NetworkError.invalidResponse
        }

        guard httpResponse.statusCode == 200 else {
            throw NetworkError.httpError(httpResponse.statusCode)
        }

        return try JSONDecoder().decode(T.self, from: data)
    }

    func logout(accessToken: String) async throws {
        let url = URL(string: "\(baseURL)/auth/logout")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("Bearer \(accessToken)", forHTTPHeaderField: "Authorization")

        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw NetworkError.invalidResponse }
    }

    // The seed shows these two only as a flow and with curl; written in the same style.

    func forgotPassword(email: String) async throws {
        let url = URL(string: "\(baseURL)/auth/forgot-password")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["email": email])

        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw NetworkError.invalidResponse }
    }

    func resetPassword(token: String, newPassword: String) async throws {
        let url = URL(string: "\(baseURL)/auth/reset-password")!
        var request = URLRequest(url: url)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try JSONSerialization.data(withJSONObject: ["token": token, "newPassword": newPassword])

        let (_, response) = try await URLSession.shared.data(for: request)
        guard (response as? HTTPURLResponse)?.statusCode == 200 else { throw NetworkError.invalidResponse }
    }
}
