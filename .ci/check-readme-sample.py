"""Fails when the README's SDK sample differs from the compiled copy in the test target."""
import pathlib, sys

root = pathlib.Path(__file__).resolve().parent.parent
source = (root / "Tests/RepairMinderKitTests/ReadmeSample.swift").read_text()
begin, end = "// README sample begins\n", "// README sample ends"
sample = source[source.index(begin) + len(begin):source.index(end)]
readme = (root / "README.md").read_text()
if sample not in readme:
    sys.exit("README.md's 'Using the SDK in an app' sample differs from Tests/RepairMinderKitTests/ReadmeSample.swift")
print("README sample matches the compiled copy")
