// Everything a test needs comes with `import CadenceTesting`: Cadence (and, on Apple platforms, Combine through it).
@_exported import Cadence
