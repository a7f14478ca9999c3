/// CadenceTesting's name for the package's one lock type.
typealias Locked<State> = PackageLock<State>
