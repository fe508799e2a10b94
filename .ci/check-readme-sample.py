"""Fails when a sample of docs/sdk.md differs from the compiled copy in a test target."""
import pathlib, sys

root = pathlib.Path(__file__).resolve().parent.parent
readme = (root / "docs" / "sdk.md").read_text()
begin, end = "// README sample begins\n", "// README sample ends"
samples = {
    "Using the SDK in an app": "Tests/RepairMinderKitTests/ReadmeSample.swift",
    "Verifying Repair Minder tokens in another service": "Tests/RepairMinderServerTests/ResourceServerSample.swift",
}
for section, path in samples.items():
    source = (root / path).read_text()
    sample = source[source.index(begin) + len(begin):source.index(end)]
    if sample not in readme:
        sys.exit(f"docs/sdk.md's '{section}' sample differs from {path}")
print("docs/sdk.md's samples match their compiled copies")
