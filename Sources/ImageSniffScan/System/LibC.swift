// The C library, by platform. Every file of the command that calls libc imports this module's
// re-export instead of choosing a platform itself.

#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#endif
