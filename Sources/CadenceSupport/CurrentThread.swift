#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A number that tells the calling thread apart from every other thread running now (never 0), for operators that
/// must know whether a call re-enters them on the thread that is already inside them.
@inlinable
package func currentThreadNumber() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}
