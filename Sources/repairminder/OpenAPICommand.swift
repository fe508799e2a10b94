import ArgumentParser
import Foundation
import RepairMinderServer

struct OpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Print the OpenAPI 3.1 document of the API (JSON), as GET /api/openapi.json serves it.",
        discussion: """
            Generated from the route table the server mounts, so it always matches this build. \
            Validate it with openapi-spec-validator, or point Swagger UI, Redoc or a client \
            generator at the file.

            EXAMPLES:
              repairminder openapi > openapi.json
              repairminder openapi --server-url https://api.example.com > openapi.json
            """)

    @Option(
        name: .customLong("server-url"),
        help: ArgumentHelp("The server URL the document names (its `servers` entry).", valueName: "url"))
    var serverURL = "http://127.0.0.1:8080"

    func run() throws {
        FileHandle.standardOutput.write(try OpenAPIDocument.json(serverURL: serverURL))
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}
